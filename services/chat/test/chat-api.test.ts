import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { sampleDocument } from '@ledgerline/kit/testing/sample-documents.ts';
import { EXCERPT_LABEL, SUMMARY_LABEL, noMatch } from '@ledgerline/kit/ai/excerpt-assistant.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { fileTextPath, type FileText } from '@ledgerline/contracts/files.contracts.ts';
import {
  CHAT_MESSAGES, PROMPT_CATEGORIES, PROMPT_TEMPLATE_MESSAGES,
  type AdminChatSession, type ChatAskResult, type ChatAssistantInfo, type ChatExchange, type ChatMessage, type ChatSession, type PromptTemplate,
} from '@ledgerline/contracts/chat.contracts.ts';
import { BUS_WAIT_MS, startChatPortal, txt, type ChatPortal } from './support/chat-fixtures.ts';

let p: ChatPortal;
const files: Partial<Record<string, number>> = {};
const INVOICE = ['ACME Ltd', 'Invoice 17 for Own Client', ...Array.from({ length: 40 }, (_, i) => `Consulting hours week ${i + 1} billed at the agreed rate`), 'Total 4242', 'Payment due by 31 March'].join('\n');

const ask = (who: string, fileId: number | string, message: unknown, tenant?: string) =>
  p.api.json<ChatAskResult & { message: string }>('POST', p.T('/chat/ask', tenant), p.tokens[who], { fileId, message });
const sessionsOf = (who: string, fileId: number | string) => p.api.json<ChatSession[] & { message: string }>('GET', p.T(`/chat/sessions?fileId=${fileId}`), p.tokens[who]);
const messagesOf = (who: string, sessionId: number | string) => p.api.json<ChatMessage[] & { message: string }>('GET', p.T(`/chat/sessions/${sessionId}/messages`), p.tokens[who]);
const followUp = (who: string, sessionId: number | string, message: unknown) =>
  p.api.json<ChatExchange & { message: string }>('POST', p.T(`/chat/sessions/${sessionId}/messages`), p.tokens[who], { message });

async function pdfWith(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 300]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => page.drawText(line, { x: 20, y: 260 - i * 20, size: 12, font }));
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  p = await startChatPortal();
  [files.invoice, files.payroll, files.other] = [
    ...await p.upload([...p.report('Own Client', 'Audit'), txt('invoice.txt', INVOICE)]),
    ...await p.upload([...p.report('Own Client', 'Payroll'), txt('payroll.txt', 'Payroll total 55')]),
    ...await p.upload([...p.report('Other Client', 'Audit'), txt('other.txt', 'Other client total 66')]),
  ];
  [files.firm] = await p.upload([{ field: 'fileType', value: 'firm_document' }, txt('policy.txt', 'Firm policy total 77')]);
  [files.w2] = await p.upload([...p.report('Own Client', 'Payroll'), txt('W-2 2025.txt', sampleDocument('us-w2-2025.txt'))]);
  [files.pdf, files.scanned, files.empty] = await p.upload([
    ...p.report('Own Client', 'Audit'),
    { file: 'statement.pdf', content: await pdfWith(['Quarterly statement', 'Closing balance 9150 EUR']) },
    { file: 'scanned-invoice.pdf', content: await readFile(new URL('../../files/test/fixtures/scanned-invoice.pdf', import.meta.url)) },
    { file: 'archive.zip', content: Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'), 'latin1') },
  ]);
  await p.extracted(files.invoice!, files.payroll!, files.other!, files.firm!, files.w2!, files.pdf!, files.scanned!, files.empty!);
}, 180_000);

afterAll(async () => { await p?.portal.stop(); });

describe('asking about a file (no model configured: excerpt mode)', () => {
  it("quotes the line that answers 'What is the total?' and saves the session, both messages and a chat activity", async () => {
    const r = await ask('cpa', files.invoice!, '  What is the total?  ');
    expect(r.status).toBe(200);
    expect(r.body.session).toMatchObject({ fileId: files.invoice, userId: p.ids.cpa, title: 'What is the total?', userName: `cpa of ${p.ACME}` });
    expect(r.body.userMessage).toMatchObject({ role: 'user', content: 'What is the total?', sessionId: r.body.session.id });
    expect(r.body.assistantMessage.role).toBe('assistant');
    expect(r.body.assistantMessage.content.startsWith(EXCERPT_LABEL)).toBe(true);
    expect(r.body.assistantMessage.content).toContain('**invoice.txt, line 43:**\n\n> Total 4242');
    expect(r.body.assistantMessage.content).not.toContain('Consulting hours week 1 ');
    expect(Date.parse(r.body.assistantMessage.createdAt)).toBeGreaterThanOrEqual(Date.parse(r.body.userMessage.createdAt));

    expect((await messagesOf('cpa', r.body.session.id)).body).toEqual([r.body.userMessage, r.body.assistantMessage]);
    expect((await sessionsOf('cpa', files.invoice!)).body).toEqual([r.body.session]);
    await eventually(async () => {
      const logs = await p.api.json<ActivityLog[]>('GET', p.T(`/activity-logs?action=chat&fileId=${files.invoice}`), p.tokens.admin);
      expect(logs.body).toEqual([expect.objectContaining({ action: 'chat', fileName: 'invoice.txt', userId: p.ids.cpa, clientId: p.ids['Own Client'] })]);
    }, BUS_WAIT_MS);
  });

  it('answers from a PDF and from an OCR-read scan', async () => {
    const pdf = await ask('admin', files.pdf!, 'What is the closing balance?');
    expect(pdf.body.assistantMessage.content).toContain('> Closing balance 9150 EUR');
    const scan = await ask('client', files.scanned!, 'Which traders issued the GST payment?');
    expect(scan.status).toBe(200);
    expect(scan.body.assistantMessage.content).toMatch(/Zephyrine Traders/);
  });

  it('says plainly when no passage matches, when a file has no text, and when its text is not extracted yet', async () => {
    expect((await ask('admin', files.invoice!, 'photosynthesis?')).body.assistantMessage.content)
      .toBe('No language model is configured, and no passage of "invoice.txt" matches the words of your question. Try words that appear in the document.');
    expect((await ask('admin', files.empty!, 'What is the total?')).body.assistantMessage.content).toBe(CHAT_MESSAGES.noText('archive.zip'));
    // A text file queued behind a scan's OCR (one extraction at a time) is asked about before its turn.
    const [, waiting] = await p.upload([...p.report('Own Client', 'Audit'),
      { file: 'scan-again.png', content: await readFile(new URL('../../files/test/fixtures/scanned-invoice.png', import.meta.url)) }, txt('late.txt', 'Total 1')]);
    const r = await ask('admin', waiting!, 'What is the total?');
    expect(r.status).toBe(200);
    expect(r.body.assistantMessage.content).toBe(CHAT_MESSAGES.notExtracted('late.txt'));
    await p.extracted(waiting!);
    expect((await followUp('admin', r.body.session.id, 'And now, the total?')).body.assistantMessage.content).toContain('> Total 1');
  });

  it('appends follow-ups to the session, in order', async () => {
    const first = await ask('client', files.invoice!, 'When is the payment due?');
    expect(first.body.assistantMessage.content).toContain('> Payment due by 31 March');
    const next = await followUp('client', first.body.session.id, 'What is the total?');
    expect(next.status).toBe(200);
    expect(Object.keys(next.body).sort()).toEqual(['assistantMessage', 'userMessage']);
    expect(next.body.assistantMessage.content).toContain('> Total 4242');
    const all = (await messagesOf('client', first.body.session.id)).body;
    expect(all.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(all[2]).toEqual(next.body.userMessage);
    expect((await sessionsOf('client', files.invoice!)).body[0]!.id).toBe(first.body.session.id);
  });

  it('a follow-up matching no word of the document says so instead of quoting the previous answer again', async () => {
    const first = await ask('cpa', files.invoice!, 'What is the total?');
    expect(first.body.assistantMessage.content).toContain('> Total 4242');
    const next = await followUp('cpa', first.body.session.id, 'And the photosynthesis?');
    expect(next.body.assistantMessage.content).toBe(noMatch('invoice.txt'));
  });

  it('a summary request gets an extractive summary of the whole document, labelled as such, with line numbers', async () => {
    const first = await ask('cpa', files.invoice!, 'When is the payment due?');
    const r = await followUp('cpa', first.body.session.id, 'Summarise this document: who issued it, to whom, its date, its purpose and its key figures.');
    expect(r.status).toBe(200);
    const summary = r.body.assistantMessage.content;
    expect(summary.startsWith(`${SUMMARY_LABEL}\n\n### Opening\n\n**invoice.txt, lines 1–3:**\n\n> ACME Ltd\n> Invoice 17 for Own Client\n> Consulting hours week 1 billed`)).toBe(true);
    expect(summary).toMatch(/### Most central sentences\n\n\*\*invoice\.txt, lines? \d+/);
    expect(summary).toContain('billed at the agreed rate');
    expect(summary).not.toContain('Payment due by 31 March'); // not the previous answer's quote
  });

  it('on a W-2, answers the box asked for first, as a label–value pair, and summarises the form with Box 1 and Box 2 (issue 44)', async () => {
    const r = await ask('admin', files.w2!, 'How much federal income tax was withheld, and what are the Box 12 codes?');
    const answer = r.body.assistantMessage.content;
    const [first, ...rest] = answer.slice(EXCERPT_LABEL.length).trim().split(/\n\n(?=\*\*)/);
    expect(first).toBe('**W-2 2025.txt, line 19:**\n\n- Box 2\\, Federal income tax withheld\\: 19\\,872\\.16\n\n> 2 Federal income tax withheld 19\\,872\\.16');
    expect(rest.join('\n')).toContain('> 12a See instructions for box 12\n> D 6\\,000\\.00');
    const summary = (await followUp('admin', r.body.session.id, 'Summarise this document')).body.assistantMessage.content;
    expect(summary).toContain('### Form boxes');
    expect(summary).toContain('- Box 1\\, Wages\\, tips\\, other compensation\\: 142\\,650\\.00 (**W-2 2025.txt**, line 18)');
    expect(summary).toContain('- Box 2\\, Federal income tax withheld\\: 19\\,872\\.16 (**W-2 2025.txt**, line 19)');
  });

  it('says who answers: no model configured here', async () => {
    expect((await p.api.json<ChatAssistantInfo>('GET', p.T('/chat/assistant'), p.tokens.client)).body).toEqual({ mode: 'excerpt' });
    expect((await p.api.json('GET', p.T('/chat/assistant'), undefined)).status).toBe(401);
  });

  it('streams the answer as server-sent events through the gateway, ending with the usual reply', async () => {
    const s = await p.stream(p.T('/chat/ask'), 'dta', { fileId: files.invoice, message: 'What is the total?' });
    expect(s.status).toBe(200);
    expect(s.events.at(-1)!.event).toBe('done');
    const done = s.events.at(-1)!.data as unknown as ChatAskResult;
    expect(s.deltas.join('')).toBe(done.assistantMessage.content);
    expect(done.assistantMessage.content).toContain('> Total 4242');
    expect((await messagesOf('dta', done.session.id)).body).toHaveLength(2);
    // Failing before the answer starts is a plain error reply.
    const bad = await p.stream(p.T('/chat/ask'), 'cpaNone', { fileId: files.invoice, message: 'Total?' });
    expect([bad.status, JSON.parse(bad.text).message]).toEqual([404, 'File not found']);
  });
});

describe('who may chat about what', () => {
  const matrix: [string, string, number][] = [
    ['admin', 'invoice', 200], ['dta', 'invoice', 200], ['cpa', 'invoice', 200], ['cpaNone', 'invoice', 404], ['client', 'invoice', 200], ['otherClient', 'invoice', 404],
    ['cpa', 'payroll', 404], ['dta', 'payroll', 200], ['cpa', 'other', 404], ['otherClient', 'other', 200], ['client', 'other', 404],
    ['cpa', 'firm', 200], ['cpaNone', 'firm', 200], ['client', 'firm', 404], ['platform', 'invoice', 200],
  ];
  it.each(matrix)('%s asking about the %s file: %i', async (who, file, status) => {
    const r = await ask(who, files[file]!, 'What is the total?');
    expect(r.status).toBe(status);
    if (status === 404) expect(r.body.message).toBe('File not found');
    const list = await sessionsOf(who, files[file]!);
    expect(list.status).toBe(status);
  });

  it("keeps another firm out: a token of BETA never acts in ACME, and BETA has no such file", async () => {
    const cross = await ask('betaAdmin', files.invoice!, 'What is the total?');
    expect([cross.status, cross.body.message]).toEqual([403, 'This account belongs to another firm.']);
    expect((await ask('betaAdmin', files.invoice!, 'What is the total?', p.BETA)).status).toBe(404);
  });

  it('a session belongs to its user: others get 404, even an Admin', async () => {
    const mine = await ask('client', files.invoice!, 'Who issued the invoice?');
    for (const who of ['admin', 'cpa', 'otherClient', 'betaAdmin']) {
      expect((await messagesOf(who, mine.body.session.id)).status).toBe(who === 'betaAdmin' ? 403 : 404);
      expect((await followUp(who, mine.body.session.id, 'And the total?')).status).toBe(who === 'betaAdmin' ? 403 : 404);
    }
    expect((await sessionsOf('admin', files.invoice!)).body.map((s) => s.userId)).not.toContain(p.ids.client);
    expect((await messagesOf('client', mine.body.session.id)).body).toHaveLength(2);
  });

  it('a Client user who loses access to the file loses its sessions too', async () => {
    const mine = await ask('otherClient', files.other!, 'What is the total?');
    const moveTo = async (client: string) => expect((await p.api.json('PUT', p.T(`/users/${p.ids.otherClient}`), p.tokens.admin, { ...p.users.otherClient, clientIds: [p.ids[client]] })).status).toBe(200);
    await moveTo('Own Client');
    await eventually(async () => expect((await messagesOf('otherClient', mine.body.session.id)).status).toBe(404), BUS_WAIT_MS);
    await moveTo('Other Client');
    await eventually(async () => expect((await messagesOf('otherClient', mine.body.session.id)).status).toBe(200), BUS_WAIT_MS);
  });
});

describe('input rules', () => {
  it.each([
    [{ fileId: 1, message: '   ' }, 400, CHAT_MESSAGES.emptyMessage],
    [{ fileId: 1 }, 400, CHAT_MESSAGES.emptyMessage],
    [{ fileId: 1, message: 'a\u0000b' }, 400, 'message must not contain control characters'],
    [{ fileId: 1, message: 'x'.repeat(4001) }, 400, 'Message must be at most 4000 characters'],
    [{ fileId: 'abc', message: 'hi' }, 400, 'fileId must be a valid id'],
    [{ fileId: 99_999_999_999, message: 'hi' }, 400, 'fileId must be a valid id'],
    [{ fileId: 2_000_000_000, message: 'hi' }, 404, 'File not found'],
  ])('POST chat/ask %j: %i', async (body, status, message) => {
    const r = await p.api.json<{ message: string }>('POST', p.T('/chat/ask'), p.tokens.admin, body);
    expect([r.status, r.body.message]).toEqual([status, message]);
  });

  it('bad ids in paths and queries are 4xx', async () => {
    expect((await messagesOf('admin', 'abc')).status).toBe(400);
    expect((await messagesOf('admin', '99999999999')).status).toBe(404);
    expect((await followUp('admin', '99999999999', 'hi')).status).toBe(404);
    expect((await followUp('admin', '1', ' ')).status).toBe(400);
    expect((await sessionsOf('admin', 'abc')).status).toBe(400);
    expect((await p.api.json('GET', p.T('/chat/sessions'), p.tokens.admin)).status).toBe(400);
    expect((await p.api.json('POST', p.T('/chat/ask'), null, { fileId: files.invoice, message: 'hi' })).status).toBe(401);
  });
});

describe("the files service's internal text call", () => {
  const text = (who: string | null, fileId: number, have?: string) => fetch(
    `${p.portal.serviceUrls.get('files')}${fileTextPath(fileId)}${have ? `?have=${encodeURIComponent(have)}` : ''}`,
    { headers: { ...(who ? { authorization: `Bearer ${p.tokens[who]}` } : {}), 'x-portal-tenant': p.ACME } },
  );

  it('answers with the caller\'s own rights, and leaves out a text the caller already holds', async () => {
    const r = await text('client', files.invoice!);
    const body = await r.json() as FileText;
    expect(r.status).toBe(200);
    expect(body.file).toEqual({ id: files.invoice, originalName: 'invoice.txt', clientId: p.ids['Own Client'], clientName: 'Own Client', fileType: 'report' });
    expect(body.text).toBe(INVOICE);
    const again = await (await text('client', files.invoice!, body.version!)).json() as FileText;
    expect(again).toEqual({ file: body.file, version: body.version });
    expect((await text('otherClient', files.invoice!)).status).toBe(404);
    expect((await text('client', files.firm!)).status).toBe(404);
    expect((await text(null, files.invoice!)).status).toBe(401);
    expect((await text('admin', 0)).status).toBe(404);
  });

  it('is never reachable through the gateway (which routes /api, not /internal)', async () => {
    const r = await fetch(`${p.portal.gatewayUrl}${fileTextPath(files.invoice!)}`, { headers: { authorization: `Bearer ${p.tokens.admin}` } });
    expect(r.headers.get('content-type')).not.toMatch(/json/);
    expect(await r.text()).not.toContain('Total 4242');
  });
});

describe('platform chat sessions and deleted files', () => {
  it('GET /api/admin/chat-sessions lists every firm\'s sessions for platform administrators only', async () => {
    const r = await p.api.json<AdminChatSession[]>('GET', '/api/admin/chat-sessions', p.tokens.platform);
    expect(r.status).toBe(200);
    const own = (await sessionsOf('cpa', files.invoice!)).body;
    expect(r.body).toEqual(expect.arrayContaining(own.map((s) => ({ id: s.id, fileId: s.fileId, userId: s.userId, tenantName: `${p.ACME} Tax`, createdAt: s.createdAt }))));
    expect(Object.keys(r.body[0]!).sort()).toEqual(['createdAt', 'fileId', 'id', 'tenantName', 'userId']);
    for (const who of ['admin', 'cpa', 'client']) expect((await p.api.json('GET', '/api/admin/chat-sessions', p.tokens[who])).status).toBe(403);
  });

  it('a deleted file takes its sessions with it', async () => {
    const [doomed] = await p.upload([...p.report('Own Client', 'Audit'), txt('doomed.txt', 'Total 5')]);
    await p.extracted(doomed!);
    const s = await ask('admin', doomed!, 'Total?');
    const before = (await p.api.json<AdminChatSession[]>('GET', '/api/admin/chat-sessions', p.tokens.platform)).body;
    expect(before.map((x) => x.id)).toContain(s.body.session.id);
    expect((await p.api.json('DELETE', p.T(`/files/${doomed}`), p.tokens.admin)).status).toBe(200);
    await eventually(async () => {
      const after = (await p.api.json<AdminChatSession[]>('GET', '/api/admin/chat-sessions', p.tokens.platform)).body;
      expect(after.map((x) => x.id)).not.toContain(s.body.session.id);
    }, BUS_WAIT_MS);
    expect((await messagesOf('admin', s.body.session.id)).status).toBe(404);
  });
});

describe('prompt templates', () => {
  const list = (who: string, query = '', tenant?: string) => p.api.json<PromptTemplate[]>('GET', p.T(`/prompt-templates${query}`, tenant), p.tokens[who]);

  it('a new firm has active defaults in every category, which everyone may read', async () => {
    for (const who of ['admin', 'dta', 'cpa', 'client']) {
      const r = await list(who, '?isActive=true');
      expect(r.status).toBe(200);
      for (const c of PROMPT_CATEGORIES) expect(r.body.filter((t) => t.category === c).length).toBeGreaterThanOrEqual(3);
      expect(r.body.every((t) => t.isActive && t.content.length > 10)).toBe(true);
    }
    expect((await list('admin', '?category=compliance_tax')).body.map((t) => t.title)).toContain('Deadlines');
  });

  it('Admins create, edit and deactivate; others get 403; each firm keeps its own', async () => {
    const body = { title: ' Audit trail ', description: 'Who approved what', content: 'List every approval and who signed it.', category: 'compliance_tax' };
    for (const who of ['dta', 'cpa', 'client']) {
      const r = await p.api.json<{ message: string }>('POST', p.T('/prompt-templates'), p.tokens[who], body);
      expect([r.status, r.body.message]).toEqual([403, PROMPT_TEMPLATE_MESSAGES.adminOnly]);
    }
    const created = await p.api.json<PromptTemplate>('POST', p.T('/prompt-templates'), p.tokens.admin, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Audit trail', isActive: true, createdById: p.ids.admin, category: 'compliance_tax' });
    expect((await p.api.json('PUT', p.T(`/prompt-templates/${created.body.id}`), p.tokens.cpa, { isActive: false })).status).toBe(403);
    const edited = await p.api.json<PromptTemplate>('PUT', p.T(`/prompt-templates/${created.body.id}`), p.tokens.admin, { title: 'Approvals', isActive: false });
    expect(edited.body).toMatchObject({ title: 'Approvals', isActive: false, content: body.content, description: 'Who approved what' });
    expect((await list('admin', '?isActive=true')).body.map((t) => t.id)).not.toContain(created.body.id);
    expect((await list('admin')).body.map((t) => t.id)).toContain(created.body.id);
    // Only those who manage templates see deactivated ones.
    expect((await list('cpa', '?isActive=false')).body.every((t) => t.isActive)).toBe(true);
    expect((await list('betaAdmin', '', p.BETA)).body.map((t) => t.title)).not.toContain('Approvals');
  });

  it('validates templates and ids', async () => {
    const post = (body: unknown) => p.api.json<{ message: string }>('POST', p.T('/prompt-templates'), p.tokens.admin, body);
    expect((await post({ title: 'x', content: 'y', category: 'astrology' })).body.message).toBe(PROMPT_TEMPLATE_MESSAGES.badCategory);
    expect((await post({ title: ' ', content: 'y', category: 'compliance_tax' })).body.message).toBe(PROMPT_TEMPLATE_MESSAGES.titleRequired);
    expect((await post({ title: 'x', category: 'compliance_tax' })).body.message).toBe(PROMPT_TEMPLATE_MESSAGES.contentRequired);
    expect((await p.api.json('PUT', p.T('/prompt-templates/99999999999'), p.tokens.admin, { title: 'x' })).status).toBe(404);
    expect((await p.api.json('PUT', p.T('/prompt-templates/abc'), p.tokens.admin, { title: 'x' })).status).toBe(400);
    expect((await list('admin', '?isActive=maybe')).status).toBe(400);
  });
});
