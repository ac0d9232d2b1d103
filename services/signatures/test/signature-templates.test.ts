import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { SIGNATURE_MESSAGES, type SignatureRequest, type SignatureTemplate } from '@ledgerline/contracts/signatures.contracts.ts';

/*
 * Signature templates (issue 41): engagement letters with merge fields rendered at request
 * time, a letter that is a PDF of the firm's documents, and a saved placement for the 8879
 * re-used on each new upload; Admin and DTA manage them, staff use them, no other firm sees them.
 */

const BUS_WAIT_MS = 20_000;
let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const mailbox = testMailbox();
const suffix = randomBytes(3).toString('hex');
const ACME = `sigtpl${suffix}`;
const BETA = `sigtplb${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const scratch = mkdtempSync(join(tmpdir(), 'signature-templates-'));
const templates = (tenant = ACME) => `/api/${tenant}/signature-templates`;
const requests = `/api/${ACME}/signature-requests`;

const LETTER = 'Dear {{client.name}},\nThis letter confirms that {{firm.name}} prepares your {{tax_year}} returns for a fee of {{fee}}.\nSent to {{client.address}} on {{date}}.';
const letterTemplate = (extra: Record<string, unknown> = {}) => ({
  name: `Engagement letter ${suffix}`, kind: 'engagement_letter', body: LETTER, signers: [{ role: 'taxpayer' }, { role: 'spouse' }], ...extra,
});
const placement = [
  { documentIndex: 0, page: 1, x: 60, y: 650, width: 200, height: 30, type: 'signature', signerIndex: 0 },
  { documentIndex: 0, page: 1, x: 320, y: 650, width: 200, height: 30, type: 'signature', signerIndex: 1 },
];

async function upload(fields: Record<string, string>, name: string): Promise<number> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), name);
  const r = await fetch(`${portal.gatewayUrl}/api/${ACME}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
  expect(r.status).toBe(201);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}

function pdfText(bytes: Buffer): string {
  const file = join(scratch, `${randomBytes(4).toString('hex')}.pdf`);
  writeFileSync(file, bytes);
  return spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
}

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '100', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) await cast.firm(shortName, 'CPAs');
  await cast.clients(ACME, { own: 'Own Client' });
  await cast.clients(BETA, { beta: 'Beta Client' });
  await cast.reportTypes(ACME, { f8879: 'Form 8879', engagement: 'Engagement letter' });
  const user = (tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null = null, email?: string) =>
    cast.user(tenant, who, roleId, clientIds, reportTypeIds, email ? { email } : {});
  await user(ACME, 'admin', 1, null);
  await user(ACME, 'dta', 2, null);
  await user(ACME, 'cpa', 3, [ids.own!], [ids.engagement!]);
  await user(ACME, 'client', 4, [ids.own!], null, `taxpayer.${suffix}@example.com`);
  await user(BETA, 'betaAdmin', 1, null);
  ids.firmPdf = await upload({ fileType: 'firm_document' }, 'firm-letter.pdf');
  ids.clientPdf = await upload({ fileType: 'report', clientId: String(ids.own), reportTypeId: String(ids.f8879) }, 'form-8879.pdf');
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('managing templates', () => {
  it('lets Admin and DTA save templates, in both path forms; CPA and Client users may not, and another firm sees none', async () => {
    const made = await call<SignatureTemplate>('POST', templates(), tokens.admin, letterTemplate());
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'engagement_letter', body: LETTER, fileId: null, pages: null, signers: [{ role: 'taxpayer', order: 1 }, { role: 'spouse', order: 1 }] });
    expect(made.body.mergeFields).toEqual(['client.name', 'firm.name', 'tax_year', 'fee', 'client.address', 'date']);
    ids.letter = made.body.id;
    const byDta = await call<SignatureTemplate>('POST', '/api/signature-templates', tokens.dta, { name: 'Form 8879 placement', reportTypeId: ids.f8879, kind: 'form_placement', signers: [{ role: 'taxpayer' }, { role: 'spouse' }], fields: placement });
    expect(byDta.status).toBe(201);
    ids.placement = byDta.body.id;
    expect((await call('POST', templates(), tokens.cpa, letterTemplate())).status).toBe(403);
    expect((await call('PUT', `${templates()}/${ids.letter}`, tokens.cpa, letterTemplate())).status).toBe(403);
    expect((await call('DELETE', `${templates()}/${ids.letter}`, tokens.cpa)).status).toBe(403);
    expect((await call('GET', templates(), tokens.client)).status).toBe(403);
    expect((await call('GET', `${templates()}/${ids.letter}`, tokens.client)).status).toBe(403);
    // Another firm: nothing listed, nothing found, and not through this firm's path.
    expect((await call<SignatureTemplate[]>('GET', templates(BETA), tokens.betaAdmin)).body).toEqual([]);
    expect((await call('GET', `${templates(BETA)}/${ids.letter}`, tokens.betaAdmin)).status).toBe(404);
    expect((await call('GET', `${templates()}/${ids.letter}`, tokens.betaAdmin)).status).toBe(403);
    expect((await call('PUT', `${templates(BETA)}/${ids.letter}`, tokens.betaAdmin, letterTemplate())).status).toBe(404);
  });

  it('shows a CPA the templates without a report type or of their report types only', async () => {
    const seen = await call<SignatureTemplate[]>('GET', templates(), tokens.cpa);
    expect(seen.status).toBe(200);
    expect(seen.body.map((t) => t.id)).toContain(ids.letter);
    expect(seen.body.map((t) => t.id)).not.toContain(ids.placement);
    expect((await call('GET', `${templates()}/${ids.placement}`, tokens.cpa)).status).toBe(404);
    expect((await call<SignatureTemplate[]>('GET', '/api/signature-templates', tokens.admin)).body.map((t) => t.id)).toEqual(expect.arrayContaining([ids.letter, ids.placement]));
  });

  it('refuses unknown merge fields by name, a letter with both a body and a PDF, and a PDF that is not a firm document', async () => {
    const unknown = await call<{ message: string }>('POST', templates(), tokens.admin, letterTemplate({ body: 'Dear {{client.nmae}}, your {{refund}} and {{fee}}' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain(`${SIGNATURE_MESSAGES.unknownMergeFields}: client.nmae, refund`);
    expect((await call('POST', templates(), tokens.admin, letterTemplate({ fileId: ids.firmPdf }))).status).toBe(400);
    const clientFile = await call<{ message: string }>('POST', templates(), tokens.admin, letterTemplate({ body: null, fileId: ids.clientPdf }));
    expect(clientFile.status).toBe(400);
    expect(clientFile.body.message).toBe(SIGNATURE_MESSAGES.templateNotFirmDocument);
    const offPage = await call('POST', templates(), tokens.admin, letterTemplate({ body: null, fileId: ids.firmPdf, fields: [{ ...placement[0], y: 780 }] }));
    expect(offPage.status).toBe(400);
  });

  it('keeps a firm document\'s PDF as the template\'s, replaces and deletes templates', async () => {
    const made = await call<SignatureTemplate>('POST', templates(), tokens.admin, letterTemplate({ name: 'Letter on paper', body: null, fileId: ids.firmPdf, fields: placement }));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ fileId: ids.firmPdf, fileName: 'firm-letter.pdf', pages: 1, fields: [{ y: 650, signerIndex: 0 }, { signerIndex: 1 }] });
    ids.paperLetter = made.body.id;
    const renamed = await call<SignatureTemplate>('PUT', `${templates()}/${made.body.id}`, tokens.dta, letterTemplate({ name: 'Letter on paper (2027)', body: null, fileId: ids.firmPdf, fields: placement.slice(0, 1), signers: [{ role: 'officer' }] }));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Letter on paper (2027)', pages: 1, signers: [{ role: 'officer' }], fields: [{ signerIndex: 0 }] });
    // Keeping the PDF still checks the rest: a report type the firm does not have is refused.
    const unknownType = await call<{ message: string }>('PUT', `${templates()}/${made.body.id}`, tokens.admin, letterTemplate({ body: null, fileId: ids.firmPdf, reportTypeId: 999_999 }));
    expect(unknownType.status).toBe(404);
    expect(unknownType.body.message).toBe('Report type not found');
    const gone = await call<SignatureTemplate>('POST', templates(), tokens.admin, letterTemplate({ name: 'To delete' }));
    expect((await call('DELETE', `${templates()}/${gone.body.id}`, tokens.dta)).status).toBe(200);
    expect((await call('GET', `${templates()}/${gone.body.id}`, tokens.admin)).status).toBe(404);
  });
});

describe('requests from a template', () => {
  const fromLetter = (extra: Record<string, unknown> = {}) => ({
    clientId: ids.own, reportTypeId: ids.engagement, title: 'Engagement letter 2026', identity: 'sign_in_second_factor', templateId: ids.letter,
    mergeValues: { tax_year: '2026', fee: 1500 }, signers: [{ userId: ids.client }, { name: 'Pat Spouse', email: `spouse.${suffix}@example.com` }], ...extra,
  });

  it('renders the letter with its merge fields, takes the roles from the template and places a signature and date per signer', async () => {
    let made!: SignatureRequest;
    // The service learns the client's user from identity's events.
    await eventually(async () => {
      const r = await call<SignatureRequest>('POST', requests, tokens.cpa, fromLetter({ sendNow: true }));
      expect(r.status).toBe(201);
      made = r.body;
    }, BUS_WAIT_MS, 300);
    expect(made.status).toBe('sent');
    expect(made.documents).toEqual([expect.objectContaining({ fileId: null, name: 'Engagement letter 2026.pdf', pages: 1 })]);
    expect(made.signers.map((s) => s.role)).toEqual(['taxpayer', 'spouse']);
    expect(made.fields.map((f) => [f.signerIndex, f.type])).toEqual([[0, 'signature'], [0, 'date'], [1, 'signature'], [1, 'date']]);
    const r = await fetch(`${portal.gatewayUrl}${requests}/${made.id}/signing/document`, { headers: { authorization: `Bearer ${tokens.client}` } });
    expect(r.status).toBe(200);
    const text = pdfText(Buffer.from(await r.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain('Dear Own Client,');
    expect(text).toContain(`${ACME} CPAs prepares your 2026 returns for a fee of $1,500.00.`);
    expect(text).toContain('Sent to 1 Main Street, Springfield on');
    expect(text).toContain('Signed for the spouse:');
  });

  it('previews the letter for a client without saving anything; refuses Client users and another firm', async () => {
    const before = (await call<unknown[]>('GET', requests, tokens.admin)).body.length;
    const r = await fetch(`${portal.gatewayUrl}${templates()}/${ids.letter}/preview`, {
      method: 'POST', headers: { authorization: `Bearer ${tokens.cpa}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: ids.own, title: 'Engagement letter 2027', mergeValues: { tax_year: '2027', fee: '2,400.5' } }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/pdf');
    const text = pdfText(Buffer.from(await r.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain('Engagement letter 2027 Dear Own Client,');
    expect(text).toContain('your 2027 returns for a fee of $2,400.50.');
    expect((await call<unknown[]>('GET', requests, tokens.admin)).body).toHaveLength(before);
    const missing = await call<{ message: string }>('POST', `${templates()}/${ids.letter}/preview`, tokens.admin, { clientId: ids.own, mergeValues: { fee: 1 } });
    expect(missing.body.message).toBe(`${SIGNATURE_MESSAGES.missingMergeValues}: tax_year`);
    expect((await call('POST', `${templates()}/${ids.letter}/preview`, tokens.client, { clientId: ids.own })).status).toBe(403);
    expect((await call('POST', `${templates(BETA)}/${ids.letter}/preview`, tokens.betaAdmin, { clientId: ids.beta, mergeValues: { tax_year: '2027', fee: 1 } })).status).toBe(404);
  });

  it('refuses unknown merge values and missing ones by name, and a template another firm or a CPA without its report type cannot see', async () => {
    const unknown = await call<{ message: string }>('POST', requests, tokens.admin, fromLetter({ mergeValues: { tax_year: '2026', fee: 10, discount: '5%' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(`${SIGNATURE_MESSAGES.unknownMergeFields}: discount`);
    const missing = await call<{ message: string }>('POST', requests, tokens.admin, fromLetter({ mergeValues: { tax_year: '2026' } }));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(`${SIGNATURE_MESSAGES.missingMergeValues}: fee`);
    const badFee = await call<{ message: string }>('POST', requests, tokens.admin, fromLetter({ mergeValues: { tax_year: '2026', fee: 'a lot' } }));
    expect(badFee.body.message).toBe(SIGNATURE_MESSAGES.feeNotAmount);
    expect((await call('POST', requests, tokens.cpa, fromLetter({ templateId: ids.placement, mergeValues: undefined, documents: [{ fileId: ids.clientPdf }] }))).status).toBe(404);
    expect((await call('POST', `/api/${BETA}/signature-requests`, tokens.betaAdmin, fromLetter({ clientId: ids.beta, signers: [{ name: 'B', email: 'b@example.com' }] }))).status).toBe(404);
  });

  it('re-uses a form placement on a new upload of the 8879, and a firm document template as the document', async () => {
    const form = await call<SignatureRequest>('POST', requests, tokens.admin, {
      clientId: ids.own, reportTypeId: ids.f8879, title: 'Form 8879 (2026)', identity: 'sign_in_second_factor', templateId: ids.placement,
      documents: [{ fileId: ids.clientPdf }], signers: [{ userId: ids.client }, { name: 'Pat Spouse', email: `spouse.${suffix}@example.com` }],
    });
    expect(form.status).toBe(201);
    expect(form.body.documents).toEqual([expect.objectContaining({ fileId: ids.clientPdf })]);
    expect(form.body.signers.map((s) => s.role)).toEqual(['taxpayer', 'spouse']);
    expect(form.body.fields).toEqual(placement.map((f, index) => expect.objectContaining({ ...f, index })));
    const noUpload = await call<{ message: string }>('POST', requests, tokens.admin, { ...fromLetter(), templateId: ids.placement, mergeValues: undefined, reportTypeId: ids.f8879 });
    expect(noUpload.status).toBe(400);
    const paper = await call<SignatureRequest>('POST', requests, tokens.admin, { ...fromLetter(), templateId: ids.paperLetter, mergeValues: undefined, signers: [{ userId: ids.client }] });
    expect(paper.status).toBe(201);
    expect(paper.body).toMatchObject({ documents: [{ fileId: ids.firmPdf, name: 'firm-letter.pdf', pages: 1 }], signers: [{ role: 'officer' }], fields: [{ signerIndex: 0, y: 650 }] });
    const roleless = await call<{ message: string }>('POST', requests, tokens.admin, { ...fromLetter(), templateId: undefined, mergeValues: undefined, documents: [{ fileId: ids.clientPdf }] });
    expect(roleless.status).toBe(400);
    expect(roleless.body.message).toBe(SIGNATURE_MESSAGES.roleNeeded);
  });
});
