import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { uploadBlankPdf } from '@ledgerline/kit/testing/upload-blank-pdf.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { SignaturePush, SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';
import { SIGNATURE_PUSH } from '@ledgerline/contracts/signatures.constants.ts';
import { DEFAULT_STAGES, type Pipeline } from '@ledgerline/contracts/stages.contracts.ts';

/*
 * Signature requests and the compliance tracker (issue 41 with issue 42's stages): a request
 * linked to a tracker item moves it to "Ready to sign" when sent (a move the firm can turn off);
 * every step is an activity entry and a push to those who may see it, never to a CPA without
 * the report type, a non-signing client user or another firm. Events travel the broker
 * (RabbitMQ in CI): what follows them is awaited with `eventually`.
 */
const BUS_WAIT_MS = 20_000;

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const mailbox = testMailbox();
const suffix = randomBytes(3).toString('hex');
const ACME = `sgtacme${suffix}`;
const BETA = `sgtbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const YEAR = new Date().getUTCFullYear() + 1;
const spouseEmail = `spouse.${suffix}@example.com`;
const soloEmail = `solo.${suffix}@example.com`;

const path = (p: string, tenant = ACME) => `/api/${tenant}${p}`;
const itemAs = async (who: string, id: number) => (await call<ComplianceItem>('GET', path(`/compliance-tracker/${id}`), tokens[who])).body;
const stageOf = async (id: number) => (await itemAs('admin', id)).stage;
const logs = async (who: string) => (await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=200`), tokens[who])).body.map((l) => l.details);

const newItem = (reportTypeId: number, clientId = ids.own!) => cast.trackerItem(ACME, { clientId, reportTypeId, dueMonth: '4', year: YEAR });


const request = (trackerItemId: number | null, extra: Record<string, unknown> = {}) => call<SignatureRequest>('POST', path('/signature-requests'), tokens.admin, {
  clientId: ids.own, reportTypeId: ids.f8879, title: `Form 8879 ${YEAR - 1}`, identity: 'sign_in_second_factor', documents: [{ fileId: ids.pdf }],
  signers: [{ userId: ids.client, role: 'taxpayer', order: 1 }, { name: 'Pat Spouse', email: spouseEmail, role: 'spouse', order: 1 }],
  fields: [0, 1].map((signerIndex) => ({ documentIndex: 0, page: 1, x: 50, y: 600 + signerIndex * 60, width: 200, height: 40, type: 'signature', signerIndex })),
  trackerItemId, sendNow: true, ...extra,
});

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '100', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  for (const shortName of [ACME, BETA]) expect((await call<Company>('POST', '/api/companies', portal.adminToken, { name: `${shortName} CPAs`, shortName })).status).toBe(201);
  for (const [key, name] of [['own', 'Own Client'], ['other', 'Other Client']] as const) ids[key] = await cast.created(path('/clients'), testClient(name));
  for (const [key, name] of [['f8879', 'Form 1040'], ['engagement', 'Engagement letter']] as const) ids[key] = await cast.created(path('/report-types'), { name });
  const user = (tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null = null) =>
    cast.user(tenant, who, roleId, clientIds, reportTypeIds, { email: `${who}.${suffix}@example.com` });
  await user(ACME, 'admin', 1, null);
  await user(ACME, 'cpa', 3, [ids.own!], [ids.f8879!]);
  await user(ACME, 'cpaNoType', 3, [ids.own!], [ids.engagement!]);
  await user(ACME, 'client', 4, [ids.own!]);
  await user(ACME, 'clientOther', 4, [ids.other!]);
  await user(BETA, 'betaAdmin', 1, null);
  ids.pdf = await uploadBlankPdf(portal.gatewayUrl, ACME, tokens.admin!, { clientId: ids.own!, reportTypeId: ids.f8879!, name: 'form-8879.pdf' });
  // The services learn users, clients and report types from events: wait until both know them.
  await eventually(async () => {
    expect((await call<Pipeline[]>('GET', path('/compliance-pipelines'), tokens.admin)).body.map((p) => p.reportTypeId)).toEqual(expect.arrayContaining([ids.f8879, ids.engagement]));
    const r = await request(null, { sendNow: false });
    expect(r.status).toBe(201);
    expect((await call('DELETE', path(`/signature-requests/${r.body.id}`), tokens.admin)).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  cast.closeSockets();
  await portal?.stop();
});

describe('a signature request linked to a tracker item', () => {
  it('sending it moves the item to "Ready to sign"; every step is an activity entry and a push to those who may see it', async () => {
    const pushes: Record<string, SignaturePush[]> = { admin: [], cpa: [], cpaNoType: [], client: [], clientOther: [], betaAdmin: [] };
    for (const who of Object.keys(pushes)) (await cast.signedInSocket(tokens[who]!)).on(SIGNATURE_PUSH, (p: SignaturePush) => pushes[who]!.push(p));
    const item = await newItem(ids.f8879!);
    expect(item.stage).toBe('not-started');
    const sent = await request(item.id);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: 'sent', trackerItemId: item.id });
    await eventually(async () => expect(await stageOf(item.id)).toBe('ready-to-sign'), BUS_WAIT_MS, 300);
    expect(await itemAs('client', item.id)).toMatchObject({ clientStage: 'Ready for your signature' });
    // The spouse signs from the link and the taxpayer declines: each step is pushed and logged.
    const token = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec((await mailbox.waitForMail(spouseEmail, 1, BUS_WAIT_MS)).Text)![1]!;
    const link = (step: string, body?: unknown) => call('POST', `/api/public/signing/${token}${step}`, null, body);
    expect((await link('/consent')).status).toBe(200);
    expect((await fetch(`${portal.gatewayUrl}/api/public/signing/${token}/document`)).status).toBe(200);
    expect((await link('/code')).status).toBe(200);
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(spouseEmail, 2, BUS_WAIT_MS)).Subject)![1]!;
    expect((await link('/identity', { code })).status).toBe(200);
    expect((await link('/sign', { adoption: { kind: 'typed', text: 'Pat Spouse' }, values: {}, confirm: true })).status).toBe(200);
    const own = path(`/signature-requests/${sent.body.id}/signing`);
    expect((await call('POST', `${own}/decline`, tokens.client, { reason: 'Figures to check' })).status).toBe(200);
    const title = `Form 8879 ${YEAR - 1}`;
    await eventually(() => {
      for (const who of ['admin', 'cpa', 'client']) {
        expect(pushes[who]!.filter((p) => p.requestId === sent.body.id).map((p) => p.action)).toEqual(expect.arrayContaining(['sent', 'signed', 'declined']));
      }
    }, BUS_WAIT_MS, 200);
    expect(pushes.admin!.find((p) => p.action === 'signed')).toEqual({
      requestId: sent.body.id, clientId: ids.own, trackerItemId: item.id, title, action: 'signed', status: 'sent', signerName: 'Pat Spouse',
    });
    await eventually(async () => expect(await logs('admin')).toEqual(expect.arrayContaining([
      `Sent "${title}" for signature`, `Pat Spouse signed "${title}"`, `client of ${ACME} declined to sign "${title}"`,
    ])), BUS_WAIT_MS, 300);
    expect(await logs('cpa')).toContain(`Sent "${title}" for signature`);
    // A CPA without the report type, another client's user and another firm hear and read nothing of it.
    for (const who of ['cpaNoType', 'clientOther', 'betaAdmin']) expect(pushes[who]!.filter((p) => p.requestId === sent.body.id)).toEqual([]);
    expect((await logs('cpaNoType')).filter((d) => d?.includes(title))).toEqual([]);
    expect((await call('GET', path(`/signature-requests/${sent.body.id}`), tokens.cpaNoType)).status).toBe(404);
    expect([401, 403, 404]).toContain((await call('GET', path(`/signature-requests/${sent.body.id}`), tokens.betaAdmin)).status);
    expect([401, 403, 404]).toContain((await call('GET', path(`/compliance-tracker/${item.id}`, BETA), tokens.betaAdmin)).status);
  });

  it('once its request completes, the item shows the signed document (its report, when, and what), to those who reach the item only', async () => {
    const item = await newItem(ids.f8879!);
    const declined = await newItem(ids.f8879!, ids.own!);
    const signerEmail = `item.${suffix}@example.com`;
    const sent = await request(item.id, {
      title: `Form 8879 ${YEAR - 1} (item)`, signers: [{ name: 'Ivy Item', email: signerEmail, role: 'taxpayer' }],
      fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }],
    });
    expect(sent.status).toBe(201);
    const token = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec((await mailbox.waitForMail(signerEmail, 1, BUS_WAIT_MS)).Text)![1]!;
    const link = (step: string, body?: unknown) => call('POST', `/api/public/signing/${token}${step}`, null, body);
    expect((await link('/consent')).status).toBe(200);
    expect((await fetch(`${portal.gatewayUrl}/api/public/signing/${token}/document`)).status).toBe(200);
    expect((await link('/code')).status).toBe(200);
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(signerEmail, 2, BUS_WAIT_MS)).Subject)![1]!;
    expect((await link('/identity', { code })).status).toBe(200);
    expect((await link('/sign', { adoption: { kind: 'typed', text: 'Ivy Item' }, values: {}, confirm: true })).status).toBe(200);
    let done!: SignatureRequest;
    await eventually(async () => {
      done = (await call<SignatureRequest>('GET', path(`/signature-requests/${sent.body.id}`), tokens.admin)).body;
      expect(done.signedFileId).not.toBeNull();
      expect((await itemAs('admin', item.id)).signedDocument).not.toBeNull();
    }, BUS_WAIT_MS, 300);
    const shown = { fileId: done.signedFileId, signedAt: done.completedAt, title: `Form 8879 ${YEAR - 1} (item)` };
    expect((await itemAs('admin', item.id)).signedDocument).toEqual(shown);
    expect((await itemAs('client', item.id)).signedDocument).toEqual(shown);
    const listed = (await call<ComplianceItem[]>('GET', path(`/compliance-tracker?clientId=${ids.own}`), tokens.cpa)).body;
    expect(listed.find((i) => i.id === item.id)?.signedDocument).toEqual(shown);
    // Another item of the client, and another firm, show nothing of it.
    expect((await itemAs('admin', declined.id)).signedDocument).toBeNull();
    expect([401, 403, 404]).toContain((await call('GET', path(`/compliance-tracker/${item.id}`, BETA), tokens.betaAdmin)).status);
    expect((await call('GET', path(`/compliance-tracker/${item.id}`), tokens.clientOther)).status).toBe(404);
  });

  it('voiding and completing are activity entries too', async () => {
    const item = await newItem(ids.f8879!);
    const voided = await request(item.id);
    expect((await call('PATCH', path(`/signature-requests/${voided.body.id}`), tokens.admin, { status: 'voided', voidReason: 'wrong year' })).status).toBe(200);
    const alone = await request(null, {
      title: 'Engagement', signers: [{ name: 'Sol Signer', email: soloEmail, role: 'officer' }],
      fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }],
    });
    expect(alone.status).toBe(201);
    const token = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec((await mailbox.waitForMail(soloEmail, 1, BUS_WAIT_MS)).Text)![1]!;
    const link = (step: string, body?: unknown) => call('POST', `/api/public/signing/${token}${step}`, null, body);
    expect((await link('/consent')).status).toBe(200);
    expect((await fetch(`${portal.gatewayUrl}/api/public/signing/${token}/document`)).status).toBe(200);
    expect((await link('/code')).status).toBe(200);
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(soloEmail, 2, BUS_WAIT_MS)).Subject)![1]!;
    expect((await link('/identity', { code })).status).toBe(200);
    expect((await link('/sign', { adoption: { kind: 'typed', text: 'Sol Signer' }, values: {}, confirm: true })).status).toBe(200);
    await eventually(async () => expect(await logs('admin')).toEqual(expect.arrayContaining([
      `Voided signature request "Form 8879 ${YEAR - 1}"`, 'Signature request "Engagement" completed: every signer signed, the sealed PDF is filed',
    ])), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('ready-to-sign');
  });

  it('the firm turns the move off: the item stays put; a request naming another client\'s item moves nothing', async () => {
    const saved = await call<Pipeline>('PUT', path(`/compliance-pipelines/${ids.f8879}`), tokens.admin, { stages: DEFAULT_STAGES, automations: { signatureSent: null } });
    expect(saved).toMatchObject({ status: 200, body: { automations: { signatureSent: null, requestSent: 'waiting-on-client' } } });
    const item = await newItem(ids.f8879!);
    const r = await request(item.id);
    expect(r.status).toBe(201);
    // Behind it on the same queue, a request for an item of a report type whose move is on: once that one moved, the first was handled.
    const engagementItem = await newItem(ids.engagement!);
    expect((await request(engagementItem.id, { reportTypeId: ids.engagement })).status).toBe(201);
    await eventually(async () => expect(await stageOf(engagementItem.id)).toBe('ready-to-sign'), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('not-started');
    // Back on: an item of another client named by a request of this one stays where it was.
    expect((await call('PUT', path(`/compliance-pipelines/${ids.f8879}`), tokens.admin, { stages: DEFAULT_STAGES })).status).toBe(200);
    const foreign = await newItem(ids.f8879!, ids.other!);
    const marker = await newItem(ids.f8879!);
    expect((await request(foreign.id)).status).toBe(201);
    expect((await request(marker.id)).status).toBe(201);
    await eventually(async () => expect(await stageOf(marker.id)).toBe('ready-to-sign'), BUS_WAIT_MS, 300);
    expect(await stageOf(foreign.id)).toBe('not-started');
  });

  it('bad input is a 4xx: a trackerItemId that is not an id', async () => {
    for (const trackerItemId of ['x', -1, 1.5]) expect((await request(trackerItemId as never)).status).toBe(400);
  });
});

describe('POST /compliance-tracker/{id}/signature-request', () => {
  const fromItem = (who: string, itemId: number | string, extra: Record<string, unknown> = {}, tenant = ACME) =>
    call<SignatureRequest & { message?: string }>('POST', path(`/compliance-tracker/${itemId}/signature-request`, tenant), tokens[who], {
      identity: 'sign_in_second_factor', documents: [{ fileId: ids.pdf }],
      signers: [{ userId: ids.client, role: 'taxpayer' }],
      fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }],
      ...extra,
    });

  it("takes the item's client, report type and link, titles it after the item's return, and sent at once moves the item to Ready to sign", async () => {
    const item = await newItem(ids.f8879!);
    const r = await fromItem('cpa', item.id, { sendNow: true, clientId: ids.other, reportTypeId: ids.engagement });
    expect(r.status).toBe(201);
    // What the body says of client or report type is not taken: the item decides.
    expect(r.body).toMatchObject({ status: 'sent', clientId: ids.own, reportTypeId: ids.f8879, trackerItemId: item.id, title: `${item.reportTypeName} ${item.period}` });
    await eventually(async () => expect(await stageOf(item.id)).toBe('ready-to-sign'), BUS_WAIT_MS, 300);
    const draft = await fromItem('admin', item.id, { title: 'Form 8879 (amended)' });
    expect(draft.body).toMatchObject({ status: 'draft', title: 'Form 8879 (amended)', trackerItemId: item.id });
  });

  it('refuses whoever does not reach the item (a CPA without its report type, a Client user, another firm) and bad input, with a 4xx', async () => {
    const item = await newItem(ids.f8879!);
    expect((await fromItem('cpaNoType', item.id)).status).toBe(404);
    expect([403, 404]).toContain((await fromItem('client', item.id)).status);
    expect([401, 403, 404]).toContain((await fromItem('betaAdmin', item.id, {}, BETA)).status);
    expect((await fromItem('admin', 'nope')).status).toBe(400);
    expect((await fromItem('admin', 99_999_999)).status).toBe(404);
    const bad = await fromItem('admin', item.id, { signers: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('A request needs at least one signer');
    // The signatures service's own rules hold too: a file that is not one of the client's PDFs.
    expect((await fromItem('admin', item.id, { documents: [{ fileId: 99_999_999 }] })).status).toBeGreaterThanOrEqual(400);
    expect((await call<SignatureRequest[]>('GET', path(`/signature-requests?clientId=${ids.own}`), tokens.admin)).body.filter((q) => q.trackerItemId === item.id)).toEqual([]);
  });
});
