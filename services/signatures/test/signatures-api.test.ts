import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { SecurityEvent } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { SIGNATURE_MESSAGES, type SignatureRequest, type SignatureRequestSummary, type SigningView } from '@ledgerline/contracts/signatures.contracts.ts';

/** Users, clients and report types reach the signatures service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 20_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const mailbox = testMailbox();
const suffix = randomBytes(3).toString('hex');
const ACME = `sigacme${suffix}`;
const BETA = `sigbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const clientEmail = `taxpayer.${suffix}@example.com`;
const scratch = mkdtempSync(join(tmpdir(), 'signatures-api-'));

const base = (tenant = ACME) => `/api/${tenant}/signature-requests`;
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

async function pdf(title: string, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).drawText(`${title} page ${i + 1}`, { x: 50, y: 740, size: 14, font });
  return doc.save();
}

async function uploadPdf(clientId: number, name: string, content: Uint8Array, token = tokens.admin!): Promise<number> {
  const form = new FormData();
  form.set('fileType', 'report');
  form.set('clientId', String(clientId));
  form.set('reportTypeId', String(ids.f8879));
  form.append('file', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
  const r = await fetch(`${portal.gatewayUrl}/api/${ACME}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(r.status).toBe(201);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}

async function raw(path: string, token?: string): Promise<{ status: number; bytes: Buffer; type: string }> {
  const r = await fetch(`${portal.gatewayUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: r.status, bytes: Buffer.from(await r.arrayBuffer()), type: r.headers.get('content-type') ?? '' };
}

function pdfsig(bytes: Buffer): string {
  const file = join(scratch, `${randomBytes(4).toString('hex')}.pdf`);
  writeFileSync(file, bytes);
  const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
}

const mailCount: Record<string, number> = {};
async function nextMail(address: string): Promise<{ Subject: string; Text: string }> {
  mailCount[address] = (mailCount[address] ?? 0) + 1;
  return mailbox.waitForMail(address, mailCount[address], BUS_WAIT_MS);
}
async function nextLink(address: string): Promise<string> {
  const mail = await nextMail(address);
  const token = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mail.Text)?.[1];
  expect(token).toBeDefined();
  return token!;
}
async function nextCode(address: string): Promise<string> {
  const mail = await nextMail(address);
  return /Your signing code: (\d{6})/.exec(mail.Subject)![1]!;
}

const publicCall = <T = Record<string, unknown>>(method: string, token: string, step = '', body?: unknown) =>
  call<T>(method, `/api/public/signing/${token}${step}`, null, body);

/** A signer by link walks every step: consent, view, code, identity, sign. */
/** A 1x1 PNG, as a signature drawn on a phone. */
const DRAWN = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

async function signByLink(token: string, email: string, adoption: Record<string, unknown> = { kind: 'typed', text: 'Pat Spouse' }, values: Record<string, unknown> = {}): Promise<SigningView> {
  expect((await publicCall('POST', token, '/consent')).status).toBe(200);
  expect((await raw(`/api/public/signing/${token}/document`)).status).toBe(200);
  expect((await publicCall('POST', token, '/code')).status).toBe(200);
  const code = await nextCode(email);
  expect((await publicCall('POST', token, '/identity', { code })).status).toBe(200);
  const signed = await publicCall<SigningView>('POST', token, '/sign', { adoption, values, confirm: true });
  expect(signed.status).toBe(200);
  return signed.body;
}

const signatureField = (signerIndex: number, y = 600) => ({ documentIndex: 0, page: 1, x: 50, y, width: 200, height: 40, type: 'signature', signerIndex });
const oneLinkSigner = (email: string, extra: Record<string, unknown> = {}) => ({ name: 'Pat Spouse', email, role: 'spouse', ...extra });

async function createSent(body: Record<string, unknown>, status = 'sent'): Promise<SignatureRequest> {
  const r = await call<SignatureRequest>('POST', base(), tokens.admin, { clientId: ids.own, reportTypeId: ids.f8879, documents: [{ fileId: ids.pdfOwn }], sendNow: true, ...body });
  expect(r.status).toBe(201);
  expect(r.body.status).toBe(status);
  return r.body;
}

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '100', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) await cast.firm(shortName, 'CPAs');
  await cast.clients(ACME, { own: 'Own Client', other: 'Other Client' });
  await cast.clients(BETA, { beta: 'Beta Client' });
  await cast.reportTypes(ACME, { f8879: 'Form 8879', engagement: 'Engagement letter' });
  const user = (tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null = null, email?: string) =>
    cast.user(tenant, who, roleId, clientIds, reportTypeIds, email ? { email } : {});
  await user(ACME, 'admin', 1, null);
  await user(ACME, 'cpa', 3, [ids.own!], [ids.f8879!]);
  await user(ACME, 'cpaNoClient', 3, [ids.other!], [ids.f8879!]);
  await user(ACME, 'cpaNoType', 3, [ids.own!], [ids.engagement!]);
  await user(ACME, 'client', 4, [ids.own!], null, clientEmail);
  await user(ACME, 'clientOther', 4, [ids.other!]);
  await user(BETA, 'betaAdmin', 1, null);
  ids.pdfOwn = await uploadPdf(ids.own!, 'form-8879.pdf', await pdf('Form 8879', 2));
  ids.pdfOther = await uploadPdf(ids.other!, 'other.pdf', await pdf('Other'));
  // The service learns users and clients from events: wait until it knows the client's user.
  await eventually(async () => {
    const r = await call<SignatureRequest>('POST', base(), tokens.admin, {
      clientId: ids.own, reportTypeId: ids.f8879, title: 'warm-up', identity: 'sign_in_second_factor', documents: [{ fileId: ids.pdfOwn }],
      signers: [{ userId: ids.client, role: 'taxpayer' }],
    });
    expect(r.status).toBe(201);
    expect(r.body.signers[0]).toMatchObject({ email: clientEmail, name: `client of ${ACME}` });
    expect((await call('DELETE', `${base()}/${r.body.id}`, tokens.admin)).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('making a signature request (staff)', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    clientId: ids.own, reportTypeId: ids.f8879, title: 'Form 8879 (2026)', identity: 'sign_in_second_factor', documents: [{ fileId: ids.pdfOwn }],
    signers: [oneLinkSigner(`x.${suffix}@example.com`)], fields: [signatureField(0)], ...extra,
  });

  it('refuses Client users (403), a CPA without the client or the report type (404) and another firm (404)', async () => {
    expect((await call('POST', base(), tokens.client, body())).status).toBe(403);
    expect((await call('POST', base(), tokens.cpaNoClient, body())).status).toBe(404);
    expect((await call('POST', base(), tokens.cpaNoType, body())).status).toBe(404);
    const draft = await call<SignatureRequest>('POST', base(), tokens.cpa, body());
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', documents: [{ fileId: ids.pdfOwn, name: 'form-8879.pdf', pages: 2 }] });
    expect(draft.body.documents[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const who of ['cpaNoClient', 'cpaNoType', 'clientOther', 'client']) {
      expect((await call('GET', `${base()}/${draft.body.id}`, tokens[who])).status).toBe(404);
      expect((await call<SignatureRequestSummary[]>('GET', base(), tokens[who])).body.map((r) => r.id)).not.toContain(draft.body.id);
    }
    expect((await call('GET', `${base(BETA)}/${draft.body.id}`, tokens.betaAdmin)).status).toBe(404);
    expect((await call('GET', `${base(ACME)}/${draft.body.id}`, tokens.betaAdmin)).status).toBe(403);
    expect((await call<SignatureRequestSummary[]>('GET', base(BETA), tokens.betaAdmin)).body).toEqual([]);
    // Both path forms.
    expect((await call('GET', `/api/signature-requests/${draft.body.id}`, tokens.cpa)).status).toBe(200);
  });

  it('checks documents, fields, signers and the identity option', async () => {
    const refused = async (extra: Record<string, unknown>, status: number, message?: string) => {
      const r = await call<{ message: string }>('POST', base(), tokens.admin, body(extra));
      expect(r.status).toBe(status);
      if (message) expect(r.body.message).toContain(message);
    };
    await refused({ documents: [{ fileId: ids.pdfOther }] }, 400, SIGNATURE_MESSAGES.documentNotOfClient);
    await refused({ fields: [{ ...signatureField(0), page: 3 }] }, 400, SIGNATURE_MESSAGES.fieldOutsidePage);
    await refused({ fields: [{ ...signatureField(0), x: 500 }] }, 400, SIGNATURE_MESSAGES.fieldOutsidePage);
    await refused({ fields: [signatureField(1)] }, 400, SIGNATURE_MESSAGES.fieldSigner);
    await refused({ signers: [{ role: 'taxpayer' }] }, 400, SIGNATURE_MESSAGES.signerNeedsUserOrEmail);
    await refused({ signers: [{ userId: ids.clientOther, role: 'taxpayer' }] }, 400, SIGNATURE_MESSAGES.signerNotClientUser);
    await refused({ identity: 'knowledge' }, 400, SIGNATURE_MESSAGES.knowledgeNeeded);
    await refused({ identity: 'provider' }, 409, SIGNATURE_MESSAGES.providerUnavailable);
    await refused({ identity: 'other' }, 400);
    await refused({ documents: [] }, 400);
    // A draft without a field for its signer cannot be sent.
    const draft = await call<SignatureRequest>('POST', base(), tokens.admin, body({ fields: [] }));
    expect((await call<{ message: string }>('POST', `${base()}/${draft.body.id}/send`, tokens.admin)).body.message).toContain(SIGNATURE_MESSAGES.noFieldsForSigner);
  });

  it('edits a draft; a sent request can only be voided; delete only when not open', async () => {
    const draft = await call<SignatureRequest>('POST', base(), tokens.admin, body());
    const edited = await call<SignatureRequest>('PATCH', `${base()}/${draft.body.id}`, tokens.cpa, { title: 'Engagement 2027', fields: [signatureField(0, 100)] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Engagement 2027', fields: [{ y: 100, index: 0 }] });
    expect((await call('PATCH', `${base()}/${draft.body.id}`, tokens.cpaNoType, { title: 'x' })).status).toBe(404);
    expect((await call('PATCH', `${base()}/${draft.body.id}`, tokens.admin, { identity: 'provider' })).status).toBe(409);
    expect((await call('POST', `${base()}/${draft.body.id}/send`, tokens.client)).status).toBe(403);
    expect((await call('GET', `${base()}/${draft.body.id}/document`, tokens.admin)).status).toBe(409);
    expect((await call('GET', `${base()}/${draft.body.id}/certificate`, tokens.admin)).status).toBe(409);
    expect((await call('POST', `${base()}/${draft.body.id}/send`, tokens.admin)).status).toBe(200);
    const token = await nextLink(`x.${suffix}@example.com`);
    expect((await call('PATCH', `${base()}/${draft.body.id}`, tokens.admin, { title: 'Too late' })).status).toBe(409);
    expect((await call('DELETE', `${base()}/${draft.body.id}`, tokens.admin)).status).toBe(409);
    expect((await publicCall('GET', token)).status).toBe(200);
    // Remind: a new link, the old one stops working.
    expect((await call('POST', `${base()}/${draft.body.id}/remind`, tokens.cpa)).status).toBe(200);
    const fresh = await nextLink(`x.${suffix}@example.com`);
    expect((await publicCall('GET', token)).status).toBe(410);
    expect((await publicCall('GET', fresh)).status).toBe(200);
    const voided = await call<SignatureRequest>('PATCH', `${base()}/${draft.body.id}`, tokens.admin, { status: 'voided', voidReason: 'Wrong year' });
    expect(voided.body).toMatchObject({ status: 'voided', voidReason: 'Wrong year' });
    expect((await publicCall('GET', fresh)).status).toBe(410);
    expect((await call('POST', `${base()}/${draft.body.id}/remind`, tokens.admin)).status).toBe(409);
    expect((await call('DELETE', `${base()}/${draft.body.id}`, tokens.admin)).status).toBe(200);
    expect((await call('GET', `${base()}/${draft.body.id}`, tokens.admin)).status).toBe(404);
  });
});

describe('an 8879 for a married couple with sign_in_second_factor', () => {
  const spouse = `spouse.${suffix}@example.com`;
  let request: SignatureRequest;

  it('the taxpayer signs in the portal, the spouse by link; the sealed PDF verifies and becomes a report of the client', async () => {
    request = await createSent({
      title: 'Form 8879 (2026)', identity: 'sign_in_second_factor',
      signers: [{ userId: ids.client, role: 'taxpayer', order: 1 }, { name: 'Pat Spouse', email: spouse, role: 'spouse', order: 2 }],
      fields: [
        signatureField(0, 600), { documentIndex: 0, page: 1, x: 300, y: 600, width: 120, height: 20, type: 'date', signerIndex: 0 },
        signatureField(1, 660), { documentIndex: 0, page: 2, x: 50, y: 100, width: 150, height: 20, type: 'text', signerIndex: 1, label: 'PIN' },
        { documentIndex: 0, page: 2, x: 300, y: 100, width: 14, height: 14, type: 'checkbox', signerIndex: 1 },
      ],
    });
    // A Client user signer is sent to the portal (no link).
    const notice = await nextMail(clientEmail);
    expect(notice.Subject).toBe('Please sign: Form 8879 (2026)');
    expect(notice.Text).toContain(`/sign/portal/${ACME}/${request.id}`);
    const own = `${base()}/${request.id}/signing`;
    const mine = await call<SigningView>('GET', own, tokens.client);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ you: { role: 'taxpayer', yourTurn: true }, identity: 'sign_in_second_factor' });
    expect(mine.body.disclosure.paragraphs.join(' ')).toContain('paper');
    expect(mine.body.fields.map((f) => f.type)).toEqual(['signature', 'date']);
    expect((await call('GET', own, tokens.clientOther)).status).toBe(404);
    expect((await call('GET', own, tokens.admin)).status).toBe(404);

    const sign = () => call<{ message: string }>('POST', `${own}/sign`, tokens.client, { adoption: { kind: 'typed', text: 'Taylor Taxpayer' }, confirm: true });
    expect((await sign()).body.message).toBe(SIGNATURE_MESSAGES.consentFirst);
    expect((await call('POST', `${own}/consent`, tokens.client)).status).toBe(200);
    expect((await sign()).body.message).toBe(SIGNATURE_MESSAGES.viewFirst);
    const viewed = await raw(`${own}/document`, tokens.client);
    expect(viewed.status).toBe(200);
    expect(viewed.type).toContain('application/pdf');
    expect((await sign()).body.message).toBe(SIGNATURE_MESSAGES.identityFirst);
    expect((await call('POST', `${own}/code`, tokens.client)).status).toBe(200);
    const code = await nextCode(clientEmail);
    expect((await call('POST', `${own}/identity`, tokens.client, { code: code === '000000' ? '111111' : '000000' })).status).toBe(400);
    expect((await call('POST', `${own}/identity`, tokens.client, { code })).status).toBe(200);
    const signed = await sign();
    expect(signed.status).toBe(200);
    expect((await sign()).status).toBe(409);

    // The spouse is e-mailed only now (order 2).
    const token = await nextLink(spouse);
    const view = await publicCall<SigningView>('GET', token);
    expect(view.body).toMatchObject({ you: { role: 'spouse', yourTurn: true }, signers: [{ status: 'signed' }, { status: 'pending' }] });
    expect((await publicCall<{ message: string }>('POST', token, '/sign', { adoption: { kind: 'typed', text: 'P' }, confirm: false })).status).toBe(400);
    // A drawn signature that is not a PNG, a value for another signer's field, a missing required value: 400.
    expect((await publicCall('POST', token, '/consent')).status).toBe(200);
    expect((await raw(`/api/public/signing/${token}/document`)).status).toBe(200);
    expect((await publicCall('POST', token, '/code')).status).toBe(200);
    expect((await publicCall('POST', token, '/identity', { code: await nextCode(spouse) })).status).toBe(200);
    const broken = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really')]).toString('base64');
    expect((await publicCall('POST', token, '/sign', { adoption: { kind: 'drawn', png: broken }, values: { 3: '4321', 4: true }, confirm: true })).status).toBe(400);
    expect((await publicCall('POST', token, '/sign', { adoption: { kind: 'drawn', png: DRAWN }, values: { 1: '01/01/2027', 3: '4321', 4: true }, confirm: true })).status).toBe(400);
    expect((await publicCall('POST', token, '/sign', { adoption: { kind: 'drawn', png: DRAWN }, values: { 4: true }, confirm: true })).status).toBe(400);
    const done = await signByLink(token, spouse, { kind: 'drawn', png: DRAWN }, { 3: '4321', 4: true });
    expect(done.status).toBe('completed');
    // A used link is gone.
    expect((await publicCall('GET', token)).status).toBe(410);
    // Every signer is told; a link signer is told to ask the firm for a copy.
    const toSpouse = await nextMail(spouse);
    expect(toSpouse.Subject).toBe('Signed: Form 8879 (2026)');
    expect(toSpouse.Text).toContain('ask them for a copy');
    expect((await nextMail(clientEmail)).Text).toContain('download the signed document in the portal');

    const after = await call<SignatureRequest>('GET', `${base()}/${request.id}`, tokens.cpa);
    expect(after.body.status).toBe('completed');
    expect(after.body.signers.map((s) => s.identityResult)).toEqual([`passed: code e-mailed to ${clientEmail}`, `passed: code e-mailed to ${spouse}`]);
    expect(after.body.signers.every((s) => s.viewedAt && s.consentedAt && s.signedAt && s.address && s.browser)).toBe(true);
    expect(after.body.events.map((e) => e.action)).toEqual(expect.arrayContaining(['created', 'sent', 'consented', 'viewed', 'identity failed', 'identity passed', 'signed', 'completed']));

    const signedPdf = await raw(`${base()}/${request.id}/document`, tokens.cpa);
    expect(signedPdf.status).toBe(200);
    const check = pdfsig(signedPdf.bytes);
    expect(check).toContain('Signature is Valid');
    expect(check).toContain('Total document signed');
    expect((await PDFDocument.load(signedPdf.bytes)).getPageCount()).toBe(3);
    const certificate = await raw(`${base()}/${request.id}/certificate`, tokens.admin);
    expect(pdfsig(certificate.bytes)).toContain('Signature is Valid');
    expect((await raw(`${base()}/${request.id}/document`, tokens.client)).status).toBe(200);
    for (const who of ['cpaNoType', 'clientOther']) expect((await raw(`${base()}/${request.id}/document`, tokens[who])).status).toBe(404);

    await eventually(async () => {
      const filed = (await call<SignatureRequest>('GET', `${base()}/${request.id}`, tokens.admin)).body;
      expect(filed.signedFileId).not.toBeNull();
      const files = await call<PortalFile[]>('GET', `/api/${ACME}/files?clientId=${ids.own}`, tokens.admin);
      expect(files.body.find((f) => f.id === filed.signedFileId)).toMatchObject({ clientId: ids.own, reportTypeId: ids.f8879, fileType: 'report', originalName: 'Form 8879 (2026) - signed.pdf' });
      const stored = await raw(`/api/${ACME}/files/${filed.signedFileId}`, tokens.admin);
      expect(stored.bytes.equals(signedPdf.bytes)).toBe(true);
    }, BUS_WAIT_MS, 300);
  });
});

describe('refusals on the signer side', () => {
  it('knowledge: wrong answers past the limit lock the signer out; answers match ignoring case and punctuation', async () => {
    const a = `kba.a.${suffix}@example.com`;
    const b = `kba.b.${suffix}@example.com`;
    const request = await createSent({
      title: 'Engagement letter', identity: 'knowledge',
      signers: [
        oneLinkSigner(a, { knowledge: [{ question: 'Prior-year AGI', answer: '$52,300' }] }),
        oneLinkSigner(b, { knowledge: [{ question: 'Last year\'s refund', answer: '1,200.00' }] }),
      ],
      fields: [signatureField(0), signatureField(1, 660)],
    });
    const tokenA = await nextLink(a);
    const tokenB = await nextLink(b);
    expect((await publicCall<SigningView>('GET', tokenA)).body.knowledgeQuestions).toEqual(['Prior-year AGI']);
    expect((await publicCall('POST', tokenA, '/consent')).status).toBe(200);
    expect((await publicCall('POST', tokenA, '/identity', { answers: ['51000'] })).status).toBe(400);
    expect((await publicCall('POST', tokenA, '/identity', { answers: ['50000'] })).status).toBe(400);
    const locked = await publicCall<{ message: string }>('POST', tokenA, '/identity', { answers: ['1'] });
    expect(locked.status).toBe(403);
    expect(locked.body.message).toBe(SIGNATURE_MESSAGES.lockedOut);
    expect((await publicCall('POST', tokenA, '/identity', { answers: ['$52,300'] })).status).toBe(403);
    expect((await raw(`/api/public/signing/${tokenA}/document`)).status).toBe(200);
    expect((await publicCall('POST', tokenA, '/sign', { adoption: { kind: 'typed', text: 'A' }, confirm: true })).status).toBe(403);
    expect((await publicCall<SigningView>('GET', tokenA)).body.you.lockedOut).toBe(true);

    expect((await publicCall('POST', tokenB, '/identity', { answers: ['1200'] })).status).toBe(200);
    expect((await publicCall('POST', tokenB, '/code')).status).toBe(409);
    // Every wrong try and the lock-out are security events of the firm (identity's log), with the signer, the request and the address;
    // the signed-in client's wrong e-mailed code (above) too. Another firm's log has none of them.
    await eventually(async () => {
      const failed = (await call<SecurityEvent[]>('GET', `/api/${ACME}/security-events?kind=signing-identity-failed`, tokens.admin)).body;
      const byA = failed.filter((e) => e.username === a);
      expect(byA).toHaveLength(3);
      expect(byA[0]).toMatchObject({ userId: null, method: expect.stringContaining(`wrong knowledge answers: signature request ${request.id} ("Engagement letter"), signer Pat Spouse <${a}>`) });
      expect(byA[0]!.address).toBeTruthy();
      expect(failed.find((e) => e.userId === ids.client)?.method).toContain('wrong e-mailed code: signature request');
      const locks = (await call<SecurityEvent[]>('GET', `/api/${ACME}/security-events?kind=signing-locked-out`, tokens.admin)).body;
      expect(locks.map((e) => e.username)).toEqual([a]);
    }, BUS_WAIT_MS, 300);
    expect((await call<SecurityEvent[]>('GET', `/api/${BETA}/security-events?kind=signing-identity-failed`, tokens.betaAdmin)).body).toEqual([]);
  });

  it('a declined request ends, its links are gone; an expired one answers 410; the provider check is unavailable', async () => {
    const d = `decline.${suffix}@example.com`;
    const declined = await createSent({ title: 'Engagement letter', identity: 'sign_in_second_factor', signers: [oneLinkSigner(d)], fields: [signatureField(0)] });
    const token = await nextLink(d);
    expect((await publicCall('POST', token, '/decline', {})).status).toBe(400);
    expect((await publicCall<SigningView>('POST', token, '/decline', { reason: 'The fee is wrong' })).body.status).toBe('declined');
    expect((await publicCall('GET', token)).status).toBe(410);
    const seen = await call<SignatureRequest>('GET', `${base()}/${declined.id}`, tokens.admin);
    expect(seen.body.signers[0]).toMatchObject({ status: 'declined', declineReason: 'The fee is wrong' });

    const e = `expired.${suffix}@example.com`;
    const expired = await createSent({ title: 'Old 8879', dueDate: inDays(-3), identity: 'sign_in_second_factor', signers: [oneLinkSigner(e)], fields: [signatureField(0)] }, 'expired');
    const old = await nextLink(e);
    expect((await publicCall('GET', old)).status).toBe(410);

    expect((await publicCall('GET', `${ACME}.${'x'.repeat(43)}`)).status).toBe(410);
    expect((await publicCall('GET', `nosuchfirm.${'x'.repeat(43)}`)).status).toBe(410);
    expect((await call<SignatureRequest>('GET', `${base()}/${expired.id}`, tokens.admin)).body.status).toBe('expired');
  });
});
