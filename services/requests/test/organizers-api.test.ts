import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { DocumentRequest, RequestLink } from '@ledgerline/contracts/requests.contracts.ts';
import { ORGANIZER_LINK_MESSAGES, ORGANIZER_MESSAGES, type OrganizerDetail, type OrganizerSummary, type OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';

/*
 * Organizers (issue 42) through the gateway: templates (shipped ones read-only), organizers
 * made, sent, answered as the client types, submitted (the answers' PDF filed, the request
 * items they call for asked), reopened, reviewed, and last year's answers carried into the
 * next; and who reaches what — a CPA without the report type, another client's user, another firm.
 */

const BUS_WAIT_MS = 15_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `orgacme${suffix}`;
const BETA = `orgbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;

const templatesPath = (tenant = ACME) => `/api/${tenant}/organizer-templates`;
const organizersPath = (tenant = ACME) => `/api/${tenant}/organizers`;
const as = <T = Record<string, unknown>>(who: string, method: string, path: string, body?: unknown) => call<T>(method, path, tokens[who], body);

/** A multipart upload (the fields, then `file`) as the pages send it; `token` null for a link's holder. */
async function upload(path: string, token: string | null, fields: Record<string, string>, name = 'statement.txt'): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([`Bank statement for ${name}`], { type: 'text/plain' }), name);
  const r = await fetch(`${portal.gatewayUrl}${path}`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: r.status, body: await r.json() as Record<string, unknown> };
}

/** A questionnaire with a condition hiding a required question, request-item rules of each kind, a group with a sensitive field and a sensitive answer. */
const customTemplate = (reportTypeId: number | null) => ({
  name: `Household and income ${suffix}`, reportTypeId, jurisdiction: 'US',
  sections: [
    { id: 'household', title: 'Household', questions: [
      { id: 'filing_status', type: 'single_choice', title: 'Filing status', required: true, choices: ['Single', 'Married'], requestItem: { when: 'Married', title: 'Spouse W-2' } },
      { id: 'spouse_name', type: 'text', title: 'Spouse name', required: true, showIf: { questionId: 'filing_status', equals: 'Married' } },
      { id: 'dependants', type: 'group', title: 'Dependants', fields: [{ id: 'name', type: 'text', title: 'Name', required: true }, { id: 'ssn', type: 'text', title: 'SSN', sensitive: true }] },
    ] },
    { id: 'income', title: 'Income', questions: [
      { id: 'sold_shares', type: 'yes_no', title: 'Did you sell shares?', required: true, requestItem: { when: true, title: '1099-B from your broker' } },
      { id: 'income_kinds', type: 'multiple_choice', title: 'Other income', choices: ['Rent', 'Crypto'], requestItem: { when: 'Rent', title: 'Rental statements' } },
      { id: 'refund_account', type: 'text', title: 'Bank account for a refund', sensitive: true },
      { id: 'statements', type: 'file', title: 'Statements' },
    ] },
  ],
});

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '200' });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) await cast.firm(shortName);
  await cast.clients(ACME, { own: 'Own Client', other: 'Other Client' });
  await cast.clients(BETA, { beta: 'Beta Client' });
  await cast.reportTypes(ACME, { f1040: 'Form 1040', audit: 'Audit' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], [ids.f1040!]);
  await cast.user(ACME, 'cpaAudit', 3, [ids.own!], [ids.audit!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(ACME, 'clientOther', 4, [ids.other!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  // The service learns users, clients and report types from events: the shipped 1040 template is tied to "Form 1040" once it knows it.
  await eventually(async () => {
    const r = await as<OrganizerTemplate[]>('admin', 'GET', templatesPath());
    expect(r.status).toBe(200);
    expect(r.body.find((t) => t.builtIn === 'us-1040')?.reportTypeId).toBe(ids.f1040);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('organizer templates', () => {
  it('the shipped 1040 template is there, tied to the firm\'s report type, read-only', async () => {
    const shipped = (await as<OrganizerTemplate[]>('admin', 'GET', templatesPath())).body.find((t) => t.builtIn === 'us-1040')!;
    expect(shipped).toMatchObject({ jurisdiction: 'US', reportTypeId: ids.f1040 });
    expect(shipped.sections.length).toBeGreaterThan(0);
    ids.shipped = shipped.id;
    const put = await as('admin', 'PUT', `${templatesPath()}/${shipped.id}`, { name: 'Mine', sections: shipped.sections });
    expect(put).toEqual({ status: 409, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.builtInReadOnly }) });
    expect((await as('admin', 'DELETE', `${templatesPath()}/${shipped.id}`)).status).toBe(409);
    // One per firm, however often it is read.
    expect((await as<OrganizerTemplate[]>('admin', 'GET', templatesPath())).body.filter((t) => t.builtIn === 'us-1040')).toHaveLength(1);
  });

  it('Admin creates, DTA edits, CPA reads; a CPA and a Client user cannot manage them', async () => {
    const created = await as<OrganizerTemplate>('admin', 'POST', templatesPath(), customTemplate(ids.f1040!));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ builtIn: null, reportTypeId: ids.f1040, jurisdiction: 'US' });
    ids.template = created.body.id;
    const edited = await as<OrganizerTemplate>('dta', 'PUT', `${templatesPath()}/${ids.template}`, { ...customTemplate(ids.f1040!), description: 'Edited' });
    expect(edited.status).toBe(200);
    expect(edited.body.description).toBe('Edited');
    expect((await as('cpa', 'GET', `${templatesPath()}/${ids.template}`)).status).toBe(200);
    expect((await as('cpa', 'POST', templatesPath(), customTemplate(null))).status).toBe(403);
    expect((await as('client', 'GET', templatesPath())).status).toBe(403);
    expect((await as('client', 'GET', `${templatesPath()}/${ids.template}`)).status).toBe(403);
  });

  it('a CPA without the template\'s report type neither lists nor reads it', async () => {
    const listed = (await as<OrganizerTemplate[]>('cpaAudit', 'GET', templatesPath())).body.map((t) => t.id);
    expect(listed).not.toContain(ids.template);
    expect(listed).not.toContain(ids.shipped);
    expect((await as('cpaAudit', 'GET', `${templatesPath()}/${ids.template}`)).status).toBe(404);
    expect((await as<OrganizerTemplate[]>('cpa', 'GET', templatesPath())).body.map((t) => t.id)).toContain(ids.template);
  });

  it('refuses a condition on a later question, a choice question without choices and an unknown type (400)', async () => {
    const base = customTemplate(null);
    const forward = { ...base, sections: [{ id: 's', title: 'S', questions: [
      { id: 'a', type: 'text', title: 'A', showIf: { questionId: 'b', equals: true } }, { id: 'b', type: 'yes_no', title: 'B' }] }] };
    expect(await as('admin', 'POST', templatesPath(), forward)).toEqual({ status: 400, body: expect.objectContaining({ message: expect.stringContaining(ORGANIZER_MESSAGES.conditionForward) }) });
    const noChoices = { ...base, sections: [{ id: 's', title: 'S', questions: [{ id: 'a', type: 'single_choice', title: 'A' }] }] };
    expect((await as('admin', 'POST', templatesPath(), noChoices)).status).toBe(400);
    const badType = { ...base, sections: [{ id: 's', title: 'S', questions: [{ id: 'a', type: 'essay', title: 'A' }] }] };
    expect((await as('admin', 'POST', templatesPath(), badType)).status).toBe(400);
  });

  it('another firm cannot read or change them', async () => {
    expect((await as('betaAdmin', 'GET', `${templatesPath(BETA)}/${ids.template}`)).status).toBe(404);
    expect((await as('betaAdmin', 'PUT', `${templatesPath(BETA)}/${ids.template}`, customTemplate(null))).status).toBe(404);
    expect((await as('betaAdmin', 'GET', `${templatesPath()}/${ids.template}`)).status).toBe(403);
  });
});

describe('organizers', () => {
  const newOrganizer = (year: number, extra: Record<string, unknown> = {}) => ({ clientId: ids.own, templateId: ids.template, year, dueDate: '2030-03-31', ...extra });

  it('staff make a draft: the client does not see it yet; the same client, template and year twice is 409', async () => {
    const r = await as<OrganizerDetail>('admin', 'POST', organizersPath(), newOrganizer(2025, { message: 'Please fill this in' }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'draft', clientName: 'Own Client', reportTypeId: ids.f1040, year: 2025, title: `Household and income ${suffix} — 2025`,
      prefilledFromId: null, answers: {}, currency: expect.any(String), answeredCount: 0,
    });
    ids.organizer = r.body.id;
    expect((await as('client', 'GET', `${organizersPath()}/${ids.organizer}`)).status).toBe(404);
    expect((await as<OrganizerSummary[]>('client', 'GET', organizersPath())).body.map((o) => o.id)).not.toContain(ids.organizer);
    expect(await as('admin', 'POST', organizersPath(), newOrganizer(2025))).toEqual({ status: 409, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.alreadyExists }) });
  });

  it('a Client user cannot make or send one; a CPA cannot for a client outside their list', async () => {
    expect((await as('client', 'POST', organizersPath(), newOrganizer(2024))).status).toBe(403);
    expect((await as('cpa', 'POST', organizersPath(), { ...newOrganizer(2024), clientId: ids.other })).status).toBe(404);
    expect((await as('cpaAudit', 'POST', organizersPath(), newOrganizer(2024))).status).toBe(404);
  });

  it('a CPA without the report type neither lists nor reads it; another firm and another client\'s user do not either', async () => {
    expect((await as('cpa', 'GET', `${organizersPath()}/${ids.organizer}`)).status).toBe(200);
    expect((await as('cpaAudit', 'GET', `${organizersPath()}/${ids.organizer}`)).status).toBe(404);
    expect((await as<OrganizerSummary[]>('cpaAudit', 'GET', organizersPath())).body.map((o) => o.id)).not.toContain(ids.organizer);
    expect((await as('cpaAudit', 'PUT', `${organizersPath()}/${ids.organizer}/answers`, { answers: {} })).status).toBe(404);
    expect((await as('betaAdmin', 'GET', `${organizersPath(BETA)}/${ids.organizer}`)).status).toBe(404);
    expect((await as<OrganizerSummary[]>('betaAdmin', 'GET', organizersPath(BETA))).body).toEqual([]);
  });

  it('sent, the client\'s users are told and it opens for them; reviewed before it is submitted is 409', async () => {
    const sent = await as<OrganizerDetail>('admin', 'PATCH', `${organizersPath()}/${ids.organizer}`, { status: 'sent' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'sent', sentAt: expect.any(String) });
    expect((await as('admin', 'PATCH', `${organizersPath()}/${ids.organizer}`, { status: 'sent' })).status).toBe(409);
    expect((await as('admin', 'PATCH', `${organizersPath()}/${ids.organizer}`, { status: 'reviewed' })).status).toBe(409);
    expect((await as('client', 'GET', `${organizersPath()}/${ids.organizer}`)).status).toBe(200);
    expect((await as('client', 'PATCH', `${organizersPath()}/${ids.organizer}`, { title: 'Mine' })).status).toBe(403);
    expect((await as('clientOther', 'GET', `${organizersPath()}/${ids.organizer}`)).status).toBe(404);
    expect((await as<OrganizerSummary[]>('clientOther', 'GET', organizersPath())).body.map((o) => o.id)).not.toContain(ids.organizer);
    await eventually(async () => {
      const mine = await as<Notification[]>('client', 'GET', `/api/${ACME}/notifications`);
      expect(mine.body.map((n) => n.title)).toContain(`${ACME} Tax has questions for your return: Household and income ${suffix} — 2025`);
    }, BUS_WAIT_MS, 300);
  });

  it('answers save as the client types (partial is fine): sent becomes in progress; unknown questions are 400; sensitive ones come back to the organizer', async () => {
    const path = `${organizersPath()}/${ids.organizer}/answers`;
    expect(await as('client', 'PUT', path, { answers: { shoe_size: 42 } })).toEqual({ status: 400, body: expect.objectContaining({ message: expect.stringContaining('shoe_size') }) });
    expect((await as('client', 'PUT', path, { answers: { sold_shares: 'yes' } })).status).toBe(400);
    expect((await as('client', 'PUT', path, { answers: 'everything' })).status).toBe(400);
    const partial = await as<OrganizerDetail>('client', 'PUT', path, { answers: { filing_status: 'Married', dependants: [{ name: 'Ann', ssn: '123-45-6789' }] } });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'in_progress', answeredCount: 2, answers: { filing_status: 'Married', dependants: [{ name: 'Ann', ssn: '123-45-6789' }] } });
    expect((await as<OrganizerDetail>('cpa', 'GET', `${organizersPath()}/${ids.organizer}`)).body.answers).toEqual(partial.body.answers);
    expect((await as('clientOther', 'PUT', path, { answers: {} })).status).toBe(404);
  });

  it('a file question\'s upload is a report of the client; only the organizer\'s own uploads may be answers', async () => {
    const files = `${organizersPath()}/${ids.organizer}/files`;
    const uploaded = await upload(files, tokens.client!, { questionId: 'statements' });
    expect(uploaded).toEqual({ status: 201, body: { fileId: expect.any(Number), name: 'statement.txt' } });
    ids.statementFile = uploaded.body.fileId as number;
    const filed = (await as<PortalFile[]>('admin', 'GET', `/api/${ACME}/files?clientId=${ids.own}`)).body.find((f) => f.id === ids.statementFile);
    expect(filed).toMatchObject({ clientId: ids.own, reportTypeId: ids.f1040, fileType: 'report' });
    // Staff who reach the organizer may upload for the client too.
    expect((await upload(files, tokens.cpa!, { questionId: 'statements' }, 'cpa.txt')).status).toBe(201);

    // Not a file question, an unknown one, none at all: 400, and nothing filed.
    expect(await upload(files, tokens.client!, { questionId: 'filing_status' })).toEqual({ status: 400, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.notAFileQuestion }) });
    expect((await upload(files, tokens.client!, { questionId: 'shoe_size' })).status).toBe(400);
    expect((await upload(files, tokens.client!, {})).status).toBe(400);
    // The types request items take, and no other (the files service's own refusal).
    expect((await upload(files, tokens.client!, { questionId: 'statements' }, 'tool.exe')).status).toBe(415);
    expect((await as('client', 'POST', files, { questionId: 'statements' })).status).toBe(400);
    // Another client's user, a CPA without the report type, another firm: as if it did not exist.
    expect((await upload(files, tokens.clientOther!, { questionId: 'statements' })).status).toBe(404);
    expect((await upload(files, tokens.cpaAudit!, { questionId: 'statements' })).status).toBe(404);
    expect((await upload(`${organizersPath(BETA)}/${ids.organizer}/files`, tokens.betaAdmin!, { questionId: 'statements' })).status).toBe(404);
    const stored = (await as<PortalFile[]>('admin', 'GET', `/api/${ACME}/files?clientId=${ids.own}`)).body.filter((f) => f.originalName === 'statement.txt');
    expect(stored.map((f) => f.id)).toEqual([ids.statementFile]);

    const answers = `${organizersPath()}/${ids.organizer}/answers`;
    const current = (await as<OrganizerDetail>('client', 'GET', `${organizersPath()}/${ids.organizer}`)).body.answers;
    // A file of the client's not uploaded for this organizer (the answers' PDF of another, any id) is refused.
    expect(await as('client', 'PUT', answers, { answers: { ...current, statements: [{ fileId: 999999, name: 'old.pdf' }] } }))
      .toEqual({ status: 400, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.fileNotUploaded }) });
    const saved = await as<OrganizerDetail>('client', 'PUT', answers, { answers: { ...current, statements: [{ fileId: ids.statementFile, name: 'statement.txt' }] } });
    expect(saved.status).toBe(200);
    expect(saved.body.answers.statements).toEqual([{ fileId: ids.statementFile, name: 'statement.txt' }]);
  });

  it('submitting with required questions shown and unanswered is 400 naming each (the one a condition shows included)', async () => {
    const submit = await as('client', 'POST', `${organizersPath()}/${ids.organizer}/submit`);
    expect(submit.status).toBe(400);
    expect(submit.body.message).toContain(ORGANIZER_MESSAGES.incomplete);
    expect(submit.body.message).toContain('Spouse name');
    expect(submit.body.message).toContain('Did you sell shares?');
  });

  it('submitted: the answers\' PDF is a report of the client (sensitive values masked), and the request items the answers call for are asked, added to the open request without duplicates', async () => {
    // An open request for the same report type already asks for the 1099-B.
    const open = await as<DocumentRequest>('admin', 'POST', `/api/${ACME}/document-requests`, { clientId: ids.own, reportTypeId: ids.f1040, title: 'Tax documents', dueDate: '2030-03-31', items: [{ title: '1099-B from your broker' }] });
    expect(open.status).toBe(201);
    const answers = {
      filing_status: 'Married', spouse_name: 'Sam', dependants: [{ name: 'Ann', ssn: '123-45-6789' }], sold_shares: true, income_kinds: ['Rent', 'Crypto'],
      refund_account: '000111222333', statements: [{ fileId: ids.statementFile, name: 'statement.txt' }],
    };
    expect((await as('client', 'PUT', `${organizersPath()}/${ids.organizer}/answers`, { answers })).status).toBe(200);
    const submitted = await as<OrganizerDetail>('client', 'POST', `${organizersPath()}/${ids.organizer}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'submitted', submittedAt: expect.any(String), requestId: open.body.id, reportFileId: expect.any(Number) });
    const request = (await as<DocumentRequest>('admin', 'GET', `/api/${ACME}/document-requests/${open.body.id}`)).body;
    expect(request.items.map((i) => i.title)).toEqual(['1099-B from your broker', 'Spouse W-2', 'Rental statements']);

    const files = await as<PortalFile[]>('admin', 'GET', `/api/${ACME}/files?clientId=${ids.own}`);
    expect(files.body.find((f) => f.id === submitted.body.reportFileId)).toMatchObject({ clientId: ids.own, reportTypeId: ids.f1040, fileType: 'report' });
    const pdf = await fetch(`${portal.gatewayUrl}/api/${ACME}/files/${submitted.body.reportFileId}`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(pdf.status).toBe(200);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: Buffer.from(await pdf.arrayBuffer()), encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Spouse name Sam');
    expect(text).toContain('SSN: •••• 6789');
    expect(text).not.toContain('123-45-6789');
    expect(text).not.toContain('000111222333');
    await eventually(async () => {
      const found = await as<PortalFile[]>('admin', 'GET', `/api/${ACME}/files?search=Spouse`);
      expect(found.body.map((f) => f.id)).toContain(submitted.body.reportFileId);
    }, 20_000, 300);
  });

  it('once submitted, answers are refused (409) until staff reopen it; a resubmission adds no item twice', async () => {
    const path = `${organizersPath()}/${ids.organizer}`;
    expect(await as('client', 'PUT', `${path}/answers`, { answers: {} })).toEqual({ status: 409, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.notOpenForAnswers }) });
    expect((await as('client', 'POST', `${path}/submit`)).status).toBe(409);
    expect(await upload(`${path}/files`, tokens.client!, { questionId: 'statements' })).toEqual({ status: 409, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.notOpenForAnswers }) });
    expect((await as('client', 'POST', `${path}/reopen`)).status).toBe(403);
    expect((await as('cpaAudit', 'POST', `${path}/reopen`)).status).toBe(404);
    const reopened = await as<OrganizerDetail>('cpa', 'POST', `${path}/reopen`);
    expect(reopened.body).toMatchObject({ status: 'in_progress', submittedAt: null });
    expect((await as('cpa', 'POST', `${path}/reopen`)).status).toBe(409);
    const again = await as<OrganizerDetail>('client', 'POST', `${path}/submit`);
    expect(again.status).toBe(200);
    const request = (await as<DocumentRequest>('admin', 'GET', `/api/${ACME}/document-requests/${again.body.requestId}`)).body;
    expect(request.items.map((i) => i.title)).toEqual(['1099-B from your broker', 'Spouse W-2', 'Rental statements']);
    const reviewed = await as<OrganizerDetail>('admin', 'PATCH', path, { status: 'reviewed' });
    expect(reviewed.body).toMatchObject({ status: 'reviewed', reviewedAt: expect.any(String) });
  });

  it('a template organizers use cannot be deleted (409); an unused one can', async () => {
    expect(await as('admin', 'DELETE', `${templatesPath()}/${ids.template}`)).toEqual({ status: 409, body: expect.objectContaining({ message: ORGANIZER_MESSAGES.templateInUse }) });
    const spare = await as<OrganizerTemplate>('admin', 'POST', templatesPath(), { ...customTemplate(null), name: 'Spare' });
    expect((await as('dta', 'DELETE', `${templatesPath()}/${spare.body.id}`)).status).toBe(200);
    expect((await as('admin', 'GET', `${templatesPath()}/${spare.body.id}`)).status).toBe(404);
  });

  it('next year\'s organizer opens with last year\'s answers (not its uploads), sent at once with sendNow', async () => {
    const next = await as<OrganizerDetail>('admin', 'POST', organizersPath(), newOrganizer(2026, { sendNow: true }));
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ status: 'sent', prefilledFromId: ids.organizer });
    expect(next.body.answers).toEqual({
      filing_status: 'Married', spouse_name: 'Sam', dependants: [{ name: 'Ann', ssn: '123-45-6789' }], sold_shares: true, income_kinds: ['Rent', 'Crypto'], refund_account: '000111222333',
    });
    // The request made from its answers, with no open request to extend, is a new one assigned to whoever made the organizer.
    const other = await as<OrganizerDetail>('admin', 'POST', organizersPath(), { ...newOrganizer(2026), clientId: ids.other, sendNow: true });
    expect(other.body.prefilledFromId).toBeNull();
    expect((await as('clientOther', 'PUT', `${organizersPath()}/${other.body.id}/answers`, { answers: { filing_status: 'Single', sold_shares: true } })).status).toBe(200);
    const done = await as<OrganizerDetail>('clientOther', 'POST', `${organizersPath()}/${other.body.id}/submit`);
    expect(done.status).toBe(200);
    const request = (await as<DocumentRequest>('admin', 'GET', `/api/${ACME}/document-requests/${done.body.requestId}`)).body;
    expect(request).toMatchObject({ clientId: ids.other, reportTypeId: ids.f1040, assignedToId: ids.admin, title: other.body.title });
    expect(request.items.map((i) => i.title)).toEqual(['1099-B from your broker']);
  });

  it('the list filters by client, year and status', async () => {
    const byYear = (await as<OrganizerSummary[]>('admin', 'GET', `${organizersPath()}?year=2026`)).body;
    expect(byYear.every((o) => o.year === 2026)).toBe(true);
    expect(byYear).toHaveLength(2);
    const reviewed = (await as<OrganizerSummary[]>('admin', 'GET', `${organizersPath()}?status=reviewed&clientId=${ids.own}`)).body;
    expect(reviewed.map((o) => o.id)).toEqual([ids.organizer]);
    expect((await as('admin', 'GET', `${organizersPath()}?status=lost`)).status).toBe(400);
  });
});

describe('organizer links (no account)', () => {
  const publicPath = (token: string) => `/api/public/organizers/${token}`;
  const tokenOf = (url: string) => url.split('/organizer/')[1]!;

  it('staff make a link to a sent organizer; its holder reads, answers and submits it; then the link is gone (410)', async () => {
    const draft = await as<OrganizerDetail>('admin', 'POST', organizersPath(), { clientId: ids.other, templateId: ids.template, year: 2027, dueDate: '2030-03-31' });
    expect((await as('admin', 'POST', `${organizersPath()}/${draft.body.id}/links`, {})).status).toBe(409);
    expect((await as('admin', 'PATCH', `${organizersPath()}/${draft.body.id}`, { status: 'sent' })).status).toBe(200);
    expect((await as('client', 'POST', `${organizersPath()}/${draft.body.id}/links`, {})).status).toBe(403);
    expect((await as('cpaAudit', 'POST', `${organizersPath()}/${draft.body.id}/links`, {})).status).toBe(404);
    const link = await as<{ id: number; url: string; expiresAt: string }>('admin', 'POST', `${organizersPath()}/${draft.body.id}/links`, { email: `holder.${suffix}@example.com` });
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/\/organizer\/[a-z0-9]+\.\S+$/);
    const token = tokenOf(link.body.url);
    const opened = await call<OrganizerDetail & { firmName: string }>('GET', publicPath(token), null);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ id: draft.body.id, firmName: `${ACME} Tax`, status: 'sent', clientName: 'Other Client' });
    expect((await call('PUT', `${publicPath(token)}/answers`, null, { answers: { unknown_q: 1 } })).status).toBe(400);
    const saved = await call<OrganizerDetail>('PUT', `${publicPath(token)}/answers`, null, { answers: { filing_status: 'Single', refund_account: '000999888777' } });
    expect(saved.body).toMatchObject({ status: 'in_progress', answers: { filing_status: 'Single', refund_account: '000999888777' } });
    expect((await call('POST', `${publicPath(token)}/submit`, null)).status).toBe(400);
    const uploaded = await upload(`${publicPath(token)}/files`, null, { questionId: 'statements' }, 'by-link.txt');
    expect(uploaded).toEqual({ status: 201, body: { fileId: expect.any(Number), name: 'by-link.txt' } });
    expect((await upload(`${publicPath(token)}/files`, null, { questionId: 'filing_status' })).status).toBe(400);
    const byLink = (await as<PortalFile[]>('admin', 'GET', `/api/${ACME}/files?clientId=${ids.other}`)).body.find((f) => f.id === uploaded.body.fileId);
    expect(byLink).toMatchObject({ clientId: ids.other, reportTypeId: ids.f1040, fileType: 'report' });
    // Another organizer's upload is not this one's answer.
    expect((await call('PUT', `${publicPath(token)}/answers`, null, { answers: { statements: [{ fileId: ids.statementFile, name: 'statement.txt' }] } })).status).toBe(400);
    expect((await call('PUT', `${publicPath(token)}/answers`, null, { answers: { filing_status: 'Single', sold_shares: false, statements: [uploaded.body] } })).status).toBe(200);
    const submitted = await call<OrganizerDetail>('POST', `${publicPath(token)}/submit`, null);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'submitted', reportFileId: expect.any(Number), requestId: null });
    expect((await call('GET', publicPath(token), null)).status).toBe(410);
    expect((await call('PUT', `${publicPath(token)}/answers`, null, { answers: {} })).status).toBe(410);
    expect((await upload(`${publicPath(token)}/files`, null, { questionId: 'statements' })).status).toBe(410);
  });

  it('staff list an organizer\'s links and revoke one: it no longer opens (410); the others still do', async () => {
    const o = await as<OrganizerDetail>('admin', 'POST', organizersPath(), { clientId: ids.own, templateId: ids.template, year: 2029, dueDate: '2030-03-31', sendNow: true });
    expect(o.status).toBe(201);
    const linksPath = `${organizersPath()}/${o.body.id}/links`;
    const first = (await as<{ id: number; url: string }>('admin', 'POST', linksPath, { email: `spouse.${suffix}@example.com` })).body;
    const second = (await as<{ id: number; url: string }>('admin', 'POST', linksPath, {})).body;
    const listed = await as<RequestLink[]>('cpa', 'GET', linksPath);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: first.id, email: `spouse.${suffix}@example.com`, revokedAt: null }),
      expect.objectContaining({ id: second.id, email: null, revokedAt: null }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(tokenOf(first.url));
    expect((await as('client', 'GET', linksPath)).status).toBe(403);
    expect((await as('client', 'DELETE', `${linksPath}/${first.id}`)).status).toBe(403);
    expect((await as('cpaAudit', 'DELETE', `${linksPath}/${first.id}`)).status).toBe(404);
    expect((await as('betaAdmin', 'DELETE', `/api/${BETA}/organizers/${o.body.id}/links/${first.id}`)).status).toBe(404);
    expect((await as('admin', 'DELETE', `${organizersPath()}/${ids.organizer}/links/${first.id}`)).status).toBe(404);
    expect((await as('admin', 'DELETE', `${linksPath}/999999`)).status).toBe(404);
    const revoked = await as('admin', 'DELETE', `${linksPath}/${first.id}`);
    expect(revoked).toEqual({ status: 200, body: { message: ORGANIZER_LINK_MESSAGES.linkRevoked } });
    expect(await call('GET', publicPath(tokenOf(first.url)), null)).toEqual({ status: 410, body: expect.objectContaining({ message: ORGANIZER_LINK_MESSAGES.linkGone }) });
    expect((await call('PUT', `${publicPath(tokenOf(first.url))}/answers`, null, { answers: {} })).status).toBe(410);
    expect((await call('GET', publicPath(tokenOf(second.url)), null)).status).toBe(200);
    expect((await as<RequestLink[]>('admin', 'GET', linksPath)).body.find((l) => l.id === first.id)?.revokedAt).toEqual(expect.any(String));
  });

  it('a made-up token, or another firm\'s prefix, is 404', async () => {
    expect((await call('GET', publicPath(`${ACME}.${'x'.repeat(43)}`), null)).status).toBe(404);
    expect((await call('GET', publicPath(`nosuchfirm.${'x'.repeat(43)}`), null)).status).toBe(404);
  });
});
