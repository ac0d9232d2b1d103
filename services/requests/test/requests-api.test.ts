import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { addDays } from '@ledgerline/contracts/firm-time-zone.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { mailpit } from '@ledgerline/kit/testing/mailpit.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { REQUEST_MESSAGES, type CreatedRequestLink, type DocumentRequest, type DocumentRequestPush, type DocumentRequestSummary, type PublicDocumentRequest, type RequestLink, type RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';

/** Users, clients and report types reach the requests service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 15_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const mail = mailpit();
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const linkRecipient = `client.${suffix}@example.com`;

const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const requestsPath = (tenant = ACME) => `/api/${tenant}/document-requests`;

const create = (who: string, body: Record<string, unknown>, tenant = ACME) => call<DocumentRequest>('POST', requestsPath(tenant), tokens[who], body);
const get = (who: string, id: number, tenant = ACME) => call<DocumentRequest>('GET', `${requestsPath(tenant)}/${id}`, tokens[who]);
const listOf = async (who: string, query = '') => {
  const r = await call<DocumentRequestSummary[]>('GET', `${requestsPath()}${query}`, tokens[who]);
  expect(r.status).toBe(200);
  return r.body;
};
const decide = (who: string, id: number, itemId: number, body: Record<string, unknown>) =>
  call<DocumentRequest>('PATCH', `${requestsPath()}/${id}/items/${itemId}`, tokens[who], body);

async function upload(path: string, token: string | null, name: string, content: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: 'text/plain' }), name);
  const r = await fetch(`${portal.gatewayUrl}${path}`, { method: 'POST', body: form, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const sampleItems = [
  { title: 'Sales register', description: 'All sales invoices of the month' },
  { title: 'Purchase register' },
  { title: 'Bank statements', required: false },
];

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '200', REQUEST_LINK_ATTEMPTS_PER_MINUTE: '1000', REQUEST_LINK_RENEWALS_PER_MINUTE: '4', ...(mail ? { SMTP_URL: mail.smtpUrl } : {}) });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) await cast.firm(shortName);
  await cast.clients(ACME, { own: 'Own Client', other: 'Other Client' });
  await cast.clients(BETA, { beta: 'Beta Client' });
  await cast.reportTypes(ACME, { gst: 'GST returns', audit: 'Audit' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], [ids.gst!]);
  await cast.user(ACME, 'cpaOther', 3, [ids.other!], [ids.gst!]);
  await cast.user(ACME, 'cpaAudit', 3, [ids.own!], [ids.audit!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(ACME, 'clientOther', 4, [ids.other!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  // The service learns users and clients from events: wait until it knows the CPA and the client's user.
  await eventually(async () => {
    const r = await create('admin', { clientId: ids.own, title: 'warm-up', dueDate: dueIn(10), assignedToId: ids.cpa, items: [{ title: 'x' }] });
    expect(r.status).toBe(201);
    expect(r.body.assignedToName).toBe(`cpa of ${ACME}`);
    expect((await call('PATCH', `${requestsPath()}/${r.body.id}`, tokens.admin, { status: 'cancelled' })).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await portal?.stop();
});

describe('request templates (Admin, DTA)', () => {
  it('Admin creates, DTA edits, staff read, Admin deletes', async () => {
    const created = await call<RequestTemplate>('POST', `/api/${ACME}/request-templates`, tokens.admin, { name: 'GSTR-3B', reportTypeId: ids.gst, items: sampleItems });
    expect(created.status).toBe(201);
    expect(created.body.items).toEqual([
      { title: 'Sales register', description: 'All sales invoices of the month', required: true },
      { title: 'Purchase register', description: null, required: true },
      { title: 'Bank statements', description: null, required: false },
    ]);
    const edited = await call<RequestTemplate>('PUT', `/api/${ACME}/request-templates/${created.body.id}`, tokens.dta, { name: 'GSTR-3B monthly', items: sampleItems.slice(0, 2) });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'GSTR-3B monthly', reportTypeId: null });
    const read = await call<RequestTemplate[]>('GET', `/api/${ACME}/request-templates`, tokens.cpa);
    expect(read.body.map((t) => t.name)).toContain('GSTR-3B monthly');
    ids.template = created.body.id;
    const doomed = await call<RequestTemplate>('POST', `/api/${ACME}/request-templates`, tokens.admin, { name: 'Doomed', items: [{ title: 'x' }] });
    expect((await call('DELETE', `/api/${ACME}/request-templates/${doomed.body.id}`, tokens.admin)).body).toMatchObject({ message: REQUEST_MESSAGES.templateDeleted });
    expect((await call('DELETE', `/api/${ACME}/request-templates/${doomed.body.id}`, tokens.admin)).status).toBe(404);
  });

  it('CPA and Client users may not manage templates; clients may not read them; another firm sees none', async () => {
    for (const who of ['cpa', 'client']) {
      const r = await call('POST', `/api/${ACME}/request-templates`, tokens[who], { name: 'x', items: [{ title: 'x' }] });
      expect(r.status).toBe(403);
    }
    expect((await call('POST', `/api/${ACME}/request-templates`, tokens.cpa, { name: 'x', items: [{ title: 'x' }] })).body).toMatchObject({ message: REQUEST_MESSAGES.templatesDenied });
    expect((await call('GET', `/api/${ACME}/request-templates`, tokens.client)).status).toBe(403);
    expect((await call<RequestTemplate[]>('GET', `/api/${BETA}/request-templates`, tokens.betaAdmin)).body).toEqual([]);
    expect((await call('PUT', `/api/${BETA}/request-templates/${ids.template}`, tokens.betaAdmin, { name: 'x', items: [{ title: 'x' }] })).status).toBe(404);
    expect((await call('GET', `/api/${ACME}/request-templates`, tokens.betaAdmin)).status).toBeGreaterThanOrEqual(401);
  });

  it('refuses a template without a name or items', async () => {
    expect((await call('POST', `/api/${ACME}/request-templates`, tokens.admin, { name: ' ', items: [{ title: 'x' }] })).body).toMatchObject({ message: 'name is required' });
    expect((await call('POST', `/api/${ACME}/request-templates`, tokens.admin, { name: 'x', items: [] })).body).toMatchObject({ message: 'A template needs at least one item' });
  });
});

describe('document requests: creation, rules and access', () => {
  it.each([
    [{ title: 'x', dueDate: dueIn(5), items: [{ title: 'x' }] }, 'clientId must be a valid id'],
    [{ clientId: 1, title: 'x', dueDate: '2030-02-30', items: [{ title: 'x' }] }, 'dueDate must be a valid date (YYYY-MM-DD)'],
    [{ clientId: 1, title: 'x', dueDate: dueIn(5) }, REQUEST_MESSAGES.itemsRequired],
    [{ clientId: 1, title: 'x', dueDate: dueIn(5), templateId: 1, items: [{ title: 'x' }] }, REQUEST_MESSAGES.templateOrItems],
    [{ clientId: 1, title: 'x', dueDate: dueIn(5), items: [{ title: 'x' }], reminderEveryDays: 31 }, 'reminderEveryDays must be a whole number from 1 to 30'],
  ])('%j → 400 %s', async (body, message) => {
    const r = await create('admin', body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message });
  });

  it('creates from a template with the request\'s report type on every item, defaults and progress', async () => {
    const r = await create('cpa', { clientId: ids.own, title: 'March GSTR-3B', message: 'For the March return', dueDate: dueIn(10), reportTypeId: ids.gst, templateId: ids.template });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      clientId: ids.own, clientName: 'Own Client', status: 'open', reminderEveryDays: 3, reportTypeId: ids.gst, trackerItemId: null,
      assignedToId: ids.cpa, createdById: ids.cpa, progress: { required: 2, done: 0, uploaded: 0 },
    });
    expect(r.body.items.map((i) => [i.title, i.required, i.reportTypeId, i.status])).toEqual([
      ['Sales register', true, ids.gst, 'requested'], ['Purchase register', true, ids.gst, 'requested'],
    ]);
    ids.march = r.body.id;
  });

  it('the reviewer must be staff of this firm; an unknown template or client answers 404', async () => {
    expect((await create('admin', { clientId: ids.own, title: 'x', dueDate: dueIn(5), items: [{ title: 'x' }], assignedToId: ids.client })).body).toMatchObject({ message: REQUEST_MESSAGES.assigneeNotStaff });
    expect((await create('admin', { clientId: ids.own, title: 'x', dueDate: dueIn(5), templateId: 999_999 })).status).toBe(404);
    expect((await create('admin', { clientId: 999_999, title: 'x', dueDate: dueIn(5), items: [{ title: 'x' }] })).status).toBe(404);
  });

  it('access matrix: Client users and CPAs without the client or the report type are refused; another firm sees nothing', async () => {
    const body = { clientId: ids.own, title: 'x', dueDate: dueIn(5), reportTypeId: ids.gst, items: [{ title: 'x' }] };
    expect((await create('client', body)).status).toBe(403);
    expect((await create('client', body)).body).toMatchObject({ message: REQUEST_MESSAGES.clientsCannotManage });
    expect((await create('cpaOther', body)).status).toBe(404);
    expect((await create('cpaAudit', body)).status).toBe(404);
    for (const who of ['admin', 'dta', 'cpa', 'client']) expect([who, (await get(who, ids.march!)).status]).toEqual([who, 200]);
    for (const who of ['cpaOther', 'cpaAudit', 'clientOther']) expect([who, (await get(who, ids.march!)).status]).toEqual([who, 404]);
    expect((await get('betaAdmin', ids.march!, BETA)).status).toBe(404);
    expect((await get('betaAdmin', ids.march!)).status).toBeGreaterThanOrEqual(401);
    expect((await listOf('cpaOther')).map((r) => r.id)).not.toContain(ids.march);
    expect((await listOf('cpaAudit')).map((r) => r.id)).not.toContain(ids.march);
    expect((await listOf('clientOther')).map((r) => r.id)).not.toContain(ids.march);
    expect((await call<DocumentRequestSummary[]>('GET', requestsPath(BETA), tokens.betaAdmin)).body).toEqual([]);
    for (const [method, path] of [['PATCH', ''], ['POST', '/send'], ['POST', '/links'], ['GET', '/links']] as const) {
      expect([method, path, (await call(method, `${requestsPath()}/${ids.march}${path}`, tokens.client, method === 'GET' ? undefined : {})).status]).toEqual([method, path, 403]);
    }
  });

  it('lists with filters: client, status, overdue', async () => {
    const late = await create('admin', { clientId: ids.other, title: 'Late one', dueDate: dueIn(-3), items: [{ title: 'Ledger' }] });
    expect(late.status).toBe(201);
    const all = await listOf('admin');
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([ids.march, late.body.id]));
    expect((await listOf('admin', `?clientId=${ids.other}`)).every((r) => r.clientId === ids.other)).toBe(true);
    expect((await listOf('admin', '?overdue=true')).map((r) => r.id)).toEqual([late.body.id]);
    expect((await listOf('admin', '?status=cancelled')).every((r) => r.status === 'cancelled')).toBe(true);
    expect((await listOf('client')).map((r) => r.clientId).every((c) => c === ids.own)).toBe(true);
    expect((await call('GET', `${requestsPath()}?status=done`, tokens.admin)).status).toBe(400);
  });

  it('PATCH edits, cancels and reopens (staff only)', async () => {
    const r = await call<DocumentRequest>('PATCH', `${requestsPath()}/${ids.march}`, tokens.admin, { reminderEveryDays: 5, assignedToId: ids.dta });
    expect(r.body).toMatchObject({ reminderEveryDays: 5, assignedToId: ids.dta, assignedToName: `dta of ${ACME}` });
    expect((await call<DocumentRequest>('PATCH', `${requestsPath()}/${ids.march}`, tokens.admin, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await call<DocumentRequest>('PATCH', `${requestsPath()}/${ids.march}`, tokens.admin, { status: 'open', assignedToId: ids.admin })).body.status).toBe('open');
    expect((await call('PATCH', `${requestsPath()}/${ids.march}`, tokens.admin, { status: 'completed' })).status).toBe(400);
  });
});

describe('items: upload, reject, not applicable, accept, completion', () => {
  it('a Client user uploads for an item: the file is a report of the client with the item\'s report type, found by content', async () => {
    const request = (await get('client', ids.march!)).body;
    const [sales, purchases] = request.items;
    const r = await upload(`${requestsPath()}/${ids.march}/items/${sales!.id}/files`, tokens.client!, 'sales-march.txt', `Sales register march ${suffix} zucchini`);
    expect(r.status).toBe(201);
    const item = (r.body as unknown as DocumentRequest).items.find((i) => i.id === sales!.id)!;
    expect(item.status).toBe('uploaded');
    expect(item.files).toEqual([expect.objectContaining({ fileName: 'sales-march.txt', uploadedByName: `client of ${ACME}`, viaLink: false })]);
    const files = await call<PortalFile[]>('GET', `/api/${ACME}/files?clientId=${ids.own}`, tokens.admin);
    expect(files.body.find((f) => f.id === item.files[0]!.fileId)).toMatchObject({ clientId: ids.own, reportTypeId: ids.gst, fileType: 'report' });
    await eventually(async () => {
      const found = await call<PortalFile[]>('GET', `/api/${ACME}/files?search=zucchini`, tokens.admin);
      expect(found.body.map((f) => f.id)).toContain(item.files[0]!.fileId);
    }, 20_000, 300);
    // The list says how many items wait for review, to staff and to the client alike.
    const listed = async (who: string) => (await listOf(who)).find((x) => x.id === ids.march)!.progress;
    expect(await listed('admin')).toEqual({ required: 2, done: 0, uploaded: 1 });
    expect(await listed('client')).toEqual({ required: 2, done: 0, uploaded: 1 });
    ids.sales = sales!.id;
    ids.purchases = purchases!.id;
  });

  it('another client\'s user, another firm and a CPA without the report type cannot upload', async () => {
    for (const who of ['clientOther', 'cpaAudit']) {
      expect([who, (await upload(`${requestsPath()}/${ids.march}/items/${ids.sales}/files`, tokens[who]!, 'x.txt', 'x')).status]).toEqual([who, 404]);
    }
    expect((await upload(`${requestsPath(BETA)}/${ids.march}/items/${ids.sales}/files`, tokens.betaAdmin!, 'x.txt', 'x')).status).toBe(404);
    expect((await upload(`${requestsPath()}/${ids.march}/items/999999/files`, tokens.client!, 'x.txt', 'x')).body).toMatchObject({ message: REQUEST_MESSAGES.itemNotFound });
  });

  it('a rejection needs a comment and returns the item to the client as requested with the reason', async () => {
    expect((await decide('admin', ids.march!, ids.sales!, { status: 'rejected' })).body).toMatchObject({ message: REQUEST_MESSAGES.rejectionNeedsComment });
    const r = await decide('admin', ids.march!, ids.sales!, { status: 'rejected', comment: 'Page 2 is missing' });
    expect(r.status).toBe(200);
    expect(r.body.items.find((i) => i.id === ids.sales)).toMatchObject({ status: 'requested', staffComment: 'Page 2 is missing' });
    // Sent back, it waits for the client again, not for review.
    expect(r.body.progress).toEqual({ required: 2, done: 0, uploaded: 0 });
    expect((await listOf('admin')).find((x) => x.id === ids.march)!.progress.uploaded).toBe(0);
    expect((await get('client', ids.march!)).body.items.find((i) => i.id === ids.sales)!.staffComment).toBe('Page 2 is missing');
    await eventually(async () => {
      const mine = await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.client);
      expect(mine.body.map((n) => n.message).join('\n')).toContain('Page 2 is missing');
    }, BUS_WAIT_MS, 300);
  });

  it('client users only mark not applicable (with a comment); staff only accept or reject', async () => {
    expect((await decide('client', ids.march!, ids.purchases!, { status: 'accepted' })).body).toMatchObject({ message: REQUEST_MESSAGES.clientMayOnlyMarkNotApplicable });
    expect((await decide('client', ids.march!, ids.purchases!, { status: 'not_applicable' })).body).toMatchObject({ message: REQUEST_MESSAGES.notApplicableNeedsComment });
    expect((await decide('admin', ids.march!, ids.purchases!, { status: 'not_applicable', comment: 'x' })).body).toMatchObject({ message: REQUEST_MESSAGES.staffDecision });
    expect((await decide('admin', ids.march!, ids.purchases!, { status: 'accepted' })).body).toMatchObject({ message: REQUEST_MESSAGES.nothingToAccept });
    expect((await decide('clientOther', ids.march!, ids.purchases!, { status: 'not_applicable', comment: 'x' })).status).toBe(404);
    const r = await decide('client', ids.march!, ids.purchases!, { status: 'not_applicable', comment: 'No purchases in March' });
    expect(r.body.items.find((i) => i.id === ids.purchases)).toMatchObject({ status: 'not_applicable', clientComment: 'No purchases in March' });
  });

  it('when every required item is accepted or not applicable the request completes and the reviewer is told', async () => {
    expect((await upload(`${requestsPath()}/${ids.march}/items/${ids.sales}/files`, tokens.client!, 'sales-march-v2.txt', 'Sales register, all pages')).status).toBe(201);
    // The client's "does not apply" already counts: accepting the last upload completes the request.
    const done = await decide('admin', ids.march!, ids.sales!, { status: 'accepted' });
    expect(done.body).toMatchObject({ status: 'completed', progress: { required: 2, done: 2 } });
    expect(done.body.items.find((i) => i.id === ids.sales)!.files.map((f) => f.fileName)).toEqual(['sales-march.txt', 'sales-march-v2.txt']);
    await eventually(async () => {
      const mine = await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.admin);
      expect(mine.body.map((n) => n.title)).toContain('Documents complete: March GSTR-3B');
    }, BUS_WAIT_MS, 300);
    expect((await decide('client', ids.march!, ids.sales!, { status: 'not_applicable', comment: 'x' })).body).toMatchObject({ message: REQUEST_MESSAGES.notOpen });
    expect((await call('PATCH', `${requestsPath()}/${ids.march}`, tokens.admin, { status: 'open' })).status).toBe(409);
  });
});

describe('send and links', () => {
  let request: DocumentRequest;
  let link: CreatedRequestLink;
  const token = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const publicPath = (t: string) => `/api/public/document-requests/${t}`;

  beforeAll(async () => {
    request = (await create('admin', { clientId: ids.own, title: 'Form 1040 2025', message: 'For your return', dueDate: dueIn(20), items: [{ title: 'W-2s' }, { title: '1099s' }, { title: 'Prior-year return', required: false }] })).body;
  });

  it('send notifies the client\'s users now', async () => {
    const r = await call(`POST`, `${requestsPath()}/${request.id}/send`, tokens.admin);
    expect(r.body).toMatchObject({ message: REQUEST_MESSAGES.sent });
    await eventually(async () => {
      const mine = await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.client);
      expect(mine.body.map((n) => n.title)).toContain(`${ACME} Tax asks for documents: Form 1040 2025`);
    }, BUS_WAIT_MS, 300);
  });

  it('staff add an item to the sent request: it joins the end of the list, counts as outstanding, and the client is told', async () => {
    // A request of its own, sent: the link tests below count the shared one's items.
    const sent = (await create('admin', { clientId: ids.own, title: 'Form 1040 2025, more', dueDate: dueIn(20), items: [{ title: 'W-2s' }, { title: '1099s' }, { title: 'Prior-year return', required: false }] })).body;
    expect((await call('POST', `${requestsPath()}/${sent.id}/send`, tokens.admin)).status).toBe(200);
    const add = (who: string, body: Record<string, unknown>, id = sent.id, tenant = ACME) =>
      call<DocumentRequest>('POST', `${requestsPath(tenant)}/${id}/items`, tokens[who], body);
    const added = await add('cpa', { title: 'Form 1098 (mortgage interest)', description: 'From your lender' });
    expect(added.status).toBe(201);
    expect(added.body.items.map((i) => [i.title, i.required, i.status])).toEqual([
      ['W-2s', true, 'requested'], ['1099s', true, 'requested'], ['Prior-year return', false, 'requested'], ['Form 1098 (mortgage interest)', true, 'requested'],
    ]);
    expect(added.body.items.at(-1)).toMatchObject({ description: 'From your lender' });
    expect(added.body.progress).toMatchObject({ required: 3, done: 0 });
    await eventually(async () => {
      const mine = await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.client);
      expect(mine.body.map((n) => n.title)).toContain('One more document: Form 1098 (mortgage interest)');
    }, BUS_WAIT_MS, 300);

    // The access rule of the request: staff who reach it; a Client user, staff without its client, another firm cannot.
    expect(await add('client', { title: 'Sneaky' })).toMatchObject({ status: 403, body: { message: REQUEST_MESSAGES.clientsCannotManage } });
    expect((await add('cpaOther', { title: 'Not mine' })).status).toBe(404);
    expect((await add('betaAdmin', { title: 'Other firm' }, sent.id, BETA)).status).toBe(404);
    expect((await add('betaAdmin', { title: 'Other firm' })).status).toBeGreaterThanOrEqual(401);
    expect((await add('admin', { title: '' })).status).toBe(400);
    expect((await add('admin', { title: 'x' }, 999_999)).status).toBe(404);
    expect((await get('admin', sent.id)).body.items).toHaveLength(4);

    // Only while the request is open.
    const closed = await create('admin', { clientId: ids.own, title: 'Closed one', dueDate: dueIn(5), items: [{ title: 'x' }] });
    expect((await call('PATCH', `${requestsPath()}/${closed.body.id}`, tokens.admin, { status: 'cancelled' })).status).toBe(200);
    expect(await add('admin', { title: 'Too late' }, closed.body.id)).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.notOpen } });
  });

  it('creates a link (until 14 days after the due date, or a chosen number of days up to 90 past it), lists it without its token, e-mails it to the recipient', async () => {
    // Due in 20 days: 110 days from now is 90 past the due date, 111 is one too many.
    expect((await call('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, { expiresInDays: 111 })).body).toMatchObject({ message: REQUEST_MESSAGES.linkTooLong });
    const longest = await call<CreatedRequestLink>('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, { expiresInDays: 110 });
    expect(longest.status).toBe(201);
    expect((await call('DELETE', `${requestsPath()}/${request.id}/links/${longest.body.id}`, tokens.admin)).status).toBe(200);
    expect((await call('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, { email: 'not-an-address' })).status).toBe(400);
    const r = await call<CreatedRequestLink>('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, { email: linkRecipient });
    expect(r.status).toBe(201);
    link = r.body;
    expect(link.url).toMatch(new RegExp(`/document-request/${ACME}\\.[A-Za-z0-9_-]{43}$`));
    // The end of the 14th day after the due date, in the firm's zone (within a day of UTC's).
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.parse(`${addDays(request.dueDate, 14)}T00:00:00Z`));
    expect(Date.parse(link.expiresAt)).toBeLessThan(Date.parse(`${addDays(request.dueDate, 16)}T00:00:00Z`));
    const listed = await call<RequestLink[]>('GET', `${requestsPath()}/${request.id}/links`, tokens.admin);
    expect(listed.body.filter((l) => !l.revokedAt)).toEqual([expect.objectContaining({ id: link.id, email: linkRecipient, revokedAt: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(token(link.url));
    if (mail) {
      const received = await mail.waitForMail(linkRecipient);
      expect(received.Subject).toBe(`${ACME} Tax asks for documents: Form 1040 2025`);
      expect(received.From.Name).toBe(`${ACME} Tax via Ledgerline`);
      expect(received.Text).toContain(link.url);
      expect(received.Text).toContain(`by ${clientDate(request.dueDate, 'US')}`);
    }
  });

  it('send now e-mails the links\' recipients what is still needed (read from the SMTP server in CI)', async () => {
    expect((await call('POST', `${requestsPath()}/${request.id}/send`, tokens.admin)).status).toBe(200);
    if (!mail) return;
    const sent = await mail.waitForMail(linkRecipient, 2);
    expect(sent.Subject).toBe(`${ACME} Tax asks for documents: Form 1040 2025`);
    expect(sent.Text).toContain('Still needed: W-2s, 1099s.');
    // A fresh link of its own, which opens the request.
    const fresh = /\/document-request\/(\S+)/.exec(sent.Text)?.[1];
    expect(fresh).toBeDefined();
    expect(sent.Text).not.toContain(link.url);
    expect((await call('GET', publicPath(fresh!))).status).toBe(200);
  });

  it('the public call shows what is needed, never file names; uploads and not-applicable work by link only', async () => {
    const t = token(link.url);
    const shown = await call<PublicDocumentRequest>('GET', publicPath(t));
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      firmName: `${ACME} Tax`, clientName: 'Own Client', title: 'Form 1040 2025', message: 'For your return', dueDate: request.dueDate,
      dueDateText: clientDate(request.dueDate, 'US'), allDone: false,
      items: request.items.map((i) => ({ id: i.id, title: i.title, description: null, required: i.required, status: 'requested', fileCount: 0, returnedReason: null })),
    });
    const [w2, n1099, prior] = request.items;
    const up = await upload(`${publicPath(t)}/items/${w2!.id}/files`, null, 'w2-secret-name.txt', 'W-2 wages 1000');
    expect(up.status).toBe(201);
    expect(JSON.stringify(up.body)).not.toContain('w2-secret-name');
    expect((up.body as unknown as PublicDocumentRequest).items[0]).toMatchObject({ status: 'uploaded', fileCount: 1 });
    expect((await call('POST', `${publicPath(t)}/items/${prior!.id}/not-applicable`, null, {})).body).toMatchObject({ message: REQUEST_MESSAGES.notApplicableNeedsComment });
    expect((await call<PublicDocumentRequest>('POST', `${publicPath(t)}/items/${prior!.id}/not-applicable`, null, { comment: 'First year' })).body.items[2]).toMatchObject({ status: 'not_applicable' });
    const staffView = (await get('admin', request.id)).body;
    expect(staffView.items[0]!.files).toEqual([expect.objectContaining({ fileName: 'w2-secret-name.txt', viaLink: true, uploadedByName: `Own Client (upload link sent to ${linkRecipient})` })]);
    // The files service's own rules apply to link uploads, with its messages.
    expect(await upload(`${publicPath(t)}/items/${n1099!.id}/files`, null, '1099.pdf', 'not a pdf at all')).toMatchObject({ status: 415 });
    expect(await upload(`${publicPath(t)}/items/${n1099!.id}/files`, null, 'empty.txt', '')).toMatchObject({ status: 400, body: { message: 'The file "empty.txt" is empty.' } });
    expect((await get('admin', request.id)).body.items[1]).toMatchObject({ status: 'requested', files: [] });
  });

  it('a link takes only what its page offers (images, PDF, Office documents, CSV, text, ZIP), each checked by its content', async () => {
    const t = token(link.url);
    const item = request.items[1]!;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), Buffer.alloc(64, 1)]);
    const executable = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0)]);
    const refused = (name: string) => ({ status: 415, body: { message: `The file "${name}" is not a type this request takes: send images (JPEG, PNG, GIF, BMP, WebP), PDF, Word or Excel documents, CSV, text or ZIP files.` } });
    for (const [name, content] of [
      ['setup.exe', executable], ['invoice.html', '<html><script>alert(1)</script></html>'], ['chart.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['run.js', 'alert(1)'], ['README', 'no extension'], ['clip.mp4', Buffer.alloc(64, 0)], ['archive.tar', Buffer.alloc(1024, 0)],
    ] as const) {
      expect(await upload(`${publicPath(t)}/items/${item.id}/files`, null, name, content)).toMatchObject(refused(name));
    }
    // Offered types whose bytes are something else: refused by content.
    expect(await upload(`${publicPath(t)}/items/${item.id}/files`, null, 'scan.png', executable)).toMatchObject({ status: 415, body: { message: 'The file "scan.png" is not a real .png file: its content does not match its extension.' } });
    expect(await upload(`${publicPath(t)}/items/${item.id}/files`, null, 'statement.xlsx', 'plain text')).toMatchObject({ status: 415 });
    expect((await get('admin', request.id)).body.items[1]).toMatchObject({ files: [] });
    for (const [name, content] of [['scan.png', png], ['ledger.csv', 'date,amount\n2025-01-01,10'], ['bundle.zip', zip], ['statement.xlsx', zip]] as const) {
      expect([name, (await upload(`${publicPath(t)}/items/${item.id}/files`, null, name, content)).status]).toEqual([name, 201]);
    }
    // The portal's own item upload takes the same list.
    expect(await upload(`${requestsPath()}/${request.id}/items/${item.id}/files`, tokens.admin!, 'tool.exe', executable)).toMatchObject(refused('tool.exe'));
  });

  it('a returned item shows the firm\'s reason on the link page and in an e-mail to the link\'s recipient with a fresh link', async () => {
    const t = token(link.url);
    const w2 = request.items[0]!;
    expect((await decide('admin', request.id, w2.id, { status: 'rejected', comment: 'Page 2 is missing' })).status).toBe(200);
    const shown = (await call<PublicDocumentRequest>('GET', publicPath(t))).body;
    expect(shown.items[0]).toMatchObject({ status: 'requested', returnedReason: 'Page 2 is missing' });
    expect(shown.allDone).toBe(false);
    if (mail) {
      let received: Awaited<ReturnType<typeof mail.waitForMail>> | undefined;
      await eventually(async () => {
        received = (await mail.messagesTo(linkRecipient)).find((m) => m.Subject.startsWith('Please look again: W-2s'));
        expect(received).toBeDefined();
      }, BUS_WAIT_MS, 300);
      expect(received!.Text).toContain('The reason: Page 2 is missing');
      expect(received!.Text).toMatch(/\/document-request\/\S+/);
    }
    // Sent again, the reason goes; with everything in, the page says all done.
    for (const item of request.items.slice(0, 2)) expect((await upload(`${publicPath(t)}/items/${item.id}/files`, null, 'again.txt', 'content')).status).toBe(201);
    const done = (await call<PublicDocumentRequest>('GET', publicPath(t))).body;
    expect(done.allDone).toBe(true);
    expect(done.items[0]!.returnedReason).toBeNull();
  });

  it('send now with nothing still needed sends nothing and says so', async () => {
    expect((await call('POST', `${requestsPath()}/${request.id}/send`, tokens.admin)).body).toMatchObject({ message: REQUEST_MESSAGES.nothingToSend });
    if (mail) expect((await mail.messagesTo(linkRecipient)).filter((m) => m.Subject === `${ACME} Tax asks for documents: Form 1040 2025`)).toHaveLength(2);
  });

  it('"e-mail me a new link" answers the same whatever the token (live, revoked, unknown, another firm), and is rate-limited per address', async () => {
    const tried = [token(link.url), `${ACME}.${'B'.repeat(43)}`, `${BETA}.${'C'.repeat(43)}`, 'nosuchfirm.abcdefghijklmnopqrstuvwxyz'];
    const answers: { status: number; body: unknown }[] = [];
    // Four a minute per address: a fifth within the same minute is refused (a minute boundary may pass once, hence the longer loop).
    for (let i = 0; i < 10 && !answers.some((a) => a.status === 429); i++) answers.push(await call('POST', `${publicPath(tried[i % tried.length]!)}/new-link`));
    const accepted = answers.filter((a) => a.status !== 429);
    expect(accepted.length).toBeGreaterThanOrEqual(4);
    for (const a of accepted) expect(a).toEqual({ status: 202, body: { message: REQUEST_MESSAGES.newLinkOnItsWay } });
    expect(answers.at(-1)!.status).toBe(429);
  });

  it('an unknown token is 404; a revoked link, or a request completed or cancelled, answers 410 with a message', async () => {
    expect((await call('GET', publicPath(`${ACME}.${'A'.repeat(43)}`))).status).toBe(404);
    expect((await call('GET', publicPath('nosuchfirm.abc'))).status).toBe(404);
    const second = (await call<CreatedRequestLink>('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, { expiresInDays: 90 })).body;
    expect((await call('DELETE', `${requestsPath()}/${request.id}/links/${second.id}`, tokens.admin)).body).toMatchObject({ message: REQUEST_MESSAGES.linkRevoked });
    const revoked = await call('GET', publicPath(token(second.url)));
    expect(revoked).toMatchObject({ status: 410, body: { message: REQUEST_MESSAGES.linkGone } });
    expect((await upload(`${publicPath(token(second.url))}/items/${request.items[0]!.id}/files`, null, 'x.txt', 'x')).status).toBe(410);
    expect((await call('DELETE', `${requestsPath()}/${request.id}/links/999999`, tokens.admin)).status).toBe(404);
    expect((await call('PATCH', `${requestsPath()}/${request.id}`, tokens.admin, { status: 'cancelled' })).status).toBe(200);
    expect(await call('GET', publicPath(token(link.url)))).toMatchObject({ status: 410, body: { message: REQUEST_MESSAGES.requestDone } });
  });
});

describe('POST /compliance-tracker/{id}/document-request (answered by compliance, made here)', () => {
  let item: ComplianceItem;
  const trackerPath = (id: number, tenant = ACME) => `/api/${tenant}/compliance-tracker/${id}/document-request`;

  beforeAll(async () => {
    const year = new Date().getUTCFullYear() + 1;
    // No grants: the CPA serving the client keeps their own report types, so GSTR-3B stays outside them.
    expect((await call('POST', `/api/${ACME}/compliance-presets/india/apply`, tokens.admin, { clientIds: [ids.own], grantToUserIds: [] })).status).toBe(200);
    expect((await call('POST', `/api/${ACME}/compliance-schedules/generate/${year}?clientId=${ids.own}`, tokens.admin)).status).toBeLessThan(300);
    const items = await call<ComplianceItem[]>('GET', `/api/${ACME}/compliance-tracker?clientId=${ids.own}&limit=500`, tokens.admin);
    item = items.body.find((i) => i.reportTypeName === 'GSTR-3B')!;
    expect(item).toBeDefined();
  });

  it('makes a request for the item\'s client and report type from the calendar\'s checklist, due 7 days before the item', async () => {
    const r = await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, {});
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      clientId: ids.own, reportTypeId: item.reportTypeId, trackerItemId: item.id, title: `GSTR-3B — ${item.period}`,
      dueDate: addDays(item.dueDate, -7), assignedToId: ids.admin, progress: { required: 3, done: 0 },
    });
    expect(r.body.items.map((i) => i.title)).toEqual(['Sales register', 'Purchase register', 'Bank statements']);
    expect(r.body.items.every((i) => i.reportTypeId === item.reportTypeId)).toBe(true);
    expect((await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, { daysBefore: 10 })).body.dueDate).toBe(addDays(item.dueDate, -10));
  });

  it('the tracker item shows its request and progress (from the requests service\'s events), and "documents in" once it completes', async () => {
    const trackerItem = async (who = 'admin') => {
      const r = await call<ComplianceItem[]>('GET', `/api/${ACME}/compliance-tracker?clientId=${ids.own}&limit=500`, tokens[who]);
      return r.body.find((i) => i.id === item.id)!;
    };
    const r = await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, { daysBefore: 3 });
    await eventually(async () => expect((await trackerItem()).documentRequest).toEqual({ id: r.body.id, status: 'open', required: 3, done: 0, revision: expect.any(Number) }), BUS_WAIT_MS, 300);
    // The client says each item does not apply: each moves the count, the last completes the request.
    const notApplicable = (itemId: number) => decide('client', r.body.id, itemId, { status: 'not_applicable', comment: 'Nothing this month' });
    expect((await notApplicable(r.body.items[0]!.id)).body.progress).toEqual({ required: 3, done: 1, uploaded: 0 });
    await eventually(async () => expect((await trackerItem()).documentRequest).toMatchObject({ id: r.body.id, status: 'open', done: 1 }), BUS_WAIT_MS, 300);
    for (const i of r.body.items.slice(1)) expect((await notApplicable(i.id)).status).toBe(200);
    await eventually(async () => expect((await trackerItem()).documentRequest).toEqual({ id: r.body.id, status: 'completed', required: 3, done: 3, revision: expect.any(Number) }), BUS_WAIT_MS, 300);
    // The client's own user reads it on their tracker too; a tracker item without a request answers null.
    expect((await trackerItem('client')).documentRequest).toMatchObject({ id: r.body.id, status: 'completed' });
    const items = await call<ComplianceItem[]>('GET', `/api/${ACME}/compliance-tracker?clientId=${ids.own}&limit=500`, tokens.admin);
    expect(items.body.find((i) => i.id !== item.id)!.documentRequest).toBeNull();
    // A cancelled request leaves the item free for a new one: the tracker shows the newest that is not cancelled.
    const next = await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, {});
    await eventually(async () => expect((await trackerItem()).documentRequest).toMatchObject({ id: next.body.id, status: 'open' }), BUS_WAIT_MS, 300);
    expect((await call('PATCH', `${requestsPath()}/${next.body.id}`, tokens.admin, { status: 'cancelled' })).status).toBe(200);
    await eventually(async () => expect((await trackerItem()).documentRequest).toMatchObject({ id: r.body.id, status: 'completed' }), BUS_WAIT_MS, 300);
  });

  it('the firm\'s own template for the report type wins; a templateId wins over both', async () => {
    const own = await call<RequestTemplate>('POST', `/api/${ACME}/request-templates`, tokens.admin, { name: 'Our GSTR-3B', reportTypeId: item.reportTypeId, items: [{ title: 'GST workbook' }] });
    expect((await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, {})).body.items.map((i) => i.title)).toEqual(['GST workbook']);
    expect((await call<DocumentRequest>('POST', trackerPath(item.id), tokens.admin, { templateId: ids.template })).body.items.map((i) => i.title)).toEqual(['Sales register', 'Purchase register']);
    expect((await call('POST', trackerPath(item.id), tokens.admin, { templateId: 999_999 })).status).toBe(404);
    await call('DELETE', `/api/${ACME}/request-templates/${own.body.id}`, tokens.admin);
  });

  it('refused to Client users, a CPA without the item\'s report type, another firm; a missing item is 404; bad input 400', async () => {
    expect((await call('POST', trackerPath(item.id), tokens.client, {})).status).toBe(403);
    expect((await call('POST', trackerPath(item.id), tokens.cpa, {})).status).toBe(404);
    expect((await call('POST', trackerPath(item.id, BETA), tokens.betaAdmin, {})).status).toBe(404);
    expect((await call('POST', trackerPath(999_999), tokens.admin, {})).status).toBe(404);
    expect(await call('POST', trackerPath(item.id), tokens.admin, { daysBefore: -1 })).toMatchObject({ status: 400, body: { message: 'daysBefore must be a whole number from 0 to 365' } });
  });
});

describe('activity log and pushes', () => {
  /** The pushes one user's socket received, as they came. */
  async function listen(who: string): Promise<DocumentRequestPush[]> {
    const socket = connect(portal.gatewayUrl, { path: '/socket.io', auth: { token: tokens[who] }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('connect_error', reject); });
    const received: DocumentRequestPush[] = [];
    socket.on(DOCUMENT_REQUEST_PUSH, (p: DocumentRequestPush) => received.push(p));
    return received;
  }
  const entries = async (who: string, clientId: number) =>
    (await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?clientId=${clientId}&limit=1000`, tokens[who])).body;

  it('uploads (signed in and by link, with address and browser), decisions, completion and cancellation are logged and pushed to those who reach the request only', async () => {
    const client = await listen('client');
    const cpa = await listen('cpa');
    const others = [await listen('clientOther'), await listen('cpaOther'), await listen('betaAdmin')];
    const request = (await create('admin', { clientId: ids.own, reportTypeId: ids.gst, title: `Audit pack ${suffix}`, dueDate: dueIn(15), items: [{ title: 'Ledger' }, { title: 'Invoices' }, { title: 'Notes', required: false }] })).body;
    const [ledger, invoices, notes] = request.items;
    const link = (await call<CreatedRequestLink>('POST', `${requestsPath()}/${request.id}/links`, tokens.admin, {})).body;
    const token = link.url.slice(link.url.lastIndexOf('/') + 1);

    const byLink = await upload(`/api/public/document-requests/${token}/items/${ledger!.id}/files`, null, 'ledger.txt', 'General ledger', { 'user-agent': 'PhoneBrowser/1.0' });
    expect(byLink.status).toBe(201);
    expect((await upload(`${requestsPath()}/${request.id}/items/${invoices!.id}/files`, tokens.client!, 'invoices.txt', 'Invoices of the year')).status).toBe(201);
    expect((await decide('client', request.id, notes!.id, { status: 'not_applicable', comment: 'No notes this year' })).status).toBe(200);
    expect((await decide('admin', request.id, invoices!.id, { status: 'rejected', comment: 'Page 3 missing' })).status).toBe(200);
    expect((await upload(`${requestsPath()}/${request.id}/items/${invoices!.id}/files`, tokens.client!, 'invoices-all.txt', 'All invoices')).status).toBe(201);
    for (const item of [ledger!, invoices!]) expect((await decide('admin', request.id, item.id, { status: 'accepted' })).status).toBe(200);
    const cancelled = (await create('admin', { clientId: ids.own, title: `Spare ${suffix}`, dueDate: dueIn(15), items: [{ title: 'x' }] })).body;
    expect((await call('PATCH', `${requestsPath()}/${cancelled.id}`, tokens.admin, { status: 'cancelled' })).status).toBe(200);

    // Events of one transaction share an instant, and deliveries may interleave: the entries are compared as a set.
    const mine = (log: ActivityLog[]) => log.filter((e) => e.details?.includes(`Audit pack ${suffix}`) || e.details?.includes(`Spare ${suffix}`));
    let log: ActivityLog[] = [];
    const entry = (details: string) => log.find((e) => e.details === details);
    await eventually(async () => {
      log = mine(await entries('admin', ids.own!));
      expect(log.map((e) => e.details).sort()).toEqual([
        `Uploaded ledger.txt for "Ledger" by upload link — document request "Audit pack ${suffix}"`,
        `Uploaded invoices.txt for "Invoices" — document request "Audit pack ${suffix}"`,
        `Marked "Notes" as not applicable — document request "Audit pack ${suffix}": No notes this year`,
        `Returned "Invoices" — document request "Audit pack ${suffix}": Page 3 missing`,
        `Uploaded invoices-all.txt for "Invoices" — document request "Audit pack ${suffix}"`,
        `Accepted "Ledger" — document request "Audit pack ${suffix}"`,
        `Accepted "Invoices" — document request "Audit pack ${suffix}"`,
        `Document request "Audit pack ${suffix}" completed: every required item is in`,
        `Cancelled document request "Spare ${suffix}"`,
      ].sort());
    }, BUS_WAIT_MS, 300);
    const linkFile = (await get('admin', request.id)).body.items[0]!.files[0]!;
    expect(entry(`Uploaded ledger.txt for "Ledger" by upload link — document request "Audit pack ${suffix}"`)).toMatchObject({
      action: 'update', fileId: linkFile.fileId, fileName: 'ledger.txt', userId: ids.admin, userName: 'Own Client (upload link)',
      clientId: ids.own, clientName: 'Own Client', address: expect.stringMatching(/\S/), userAgent: 'PhoneBrowser/1.0',
    });
    expect(entry(`Uploaded invoices.txt for "Invoices" — document request "Audit pack ${suffix}"`)).toMatchObject({ userId: ids.client, userName: `client of ${ACME}`, address: null, userAgent: null });
    expect(entry(`Returned "Invoices" — document request "Audit pack ${suffix}": Page 3 missing`)).toMatchObject({ userId: ids.admin, userName: `admin of ${ACME}` });
    // The client's user reads their client's entries, without where a link upload came from; another client's user and another firm do not.
    const seenByClient = mine(await entries('client', ids.own!));
    expect(seenByClient).toHaveLength(9);
    expect(seenByClient.find((e) => e.fileName === 'ledger.txt')).toMatchObject({ address: null, userAgent: null });
    expect(mine(await entries('clientOther', ids.own!))).toEqual([]);
    expect((await call('GET', `/api/${BETA}/activity-logs?clientId=${ids.own}`, tokens.betaAdmin)).body).toEqual([]);

    // Pushes: the client's user and the CPA serving the client saw every change (best effort, in no promised order); the others nothing.
    const actions = (received: DocumentRequestPush[]) => received.filter((p) => p.requestId === request.id).map((p) => p.action).sort();
    const expected = ['created', 'link_created', 'item_uploaded', 'item_uploaded', 'item_not_applicable', 'item_rejected', 'item_uploaded', 'item_accepted', 'item_accepted', 'completed'].sort();
    await eventually(async () => {
      expect(actions(client)).toEqual(expected);
      expect(actions(cpa)).toEqual(expected);
    }, BUS_WAIT_MS, 200);
    expect(client.find((p) => p.action === 'completed')).toEqual({
      requestId: request.id, clientId: ids.own, trackerItemId: null, title: `Audit pack ${suffix}`, status: 'completed', progress: { required: 2, done: 2 }, revision: expect.any(Number), action: 'completed', actorName: 'System',
    });
    // Each push names its revision, one per change, so a screen can keep the newest of pushes that crossed.
    const revisions = client.filter((p) => p.requestId === request.id).map((p) => p.revision).sort((a, b) => a - b);
    expect(new Set(revisions).size).toBe(expected.length);
    expect(client.find((p) => p.action === 'completed')!.revision).toBe(revisions.at(-1));
    expect(JSON.stringify(client)).not.toContain('PhoneBrowser');
    expect(client.map((p) => p.requestId)).toContain(cancelled.id);
    for (const other of others) expect(other).toEqual([]);
  });
});
