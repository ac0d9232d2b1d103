import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { io as connect, type Socket } from 'socket.io-client';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { mailpit } from '@ledgerline/kit/testing/mailpit.ts';
import { startSmtpCapture } from '@ledgerline/kit/testing/smtp-capture.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient, type TestUser } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { INVOICE_PUSH, type Invoice, type InvoicePush } from '@ledgerline/contracts/billing.contracts.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/*
 * What billing tells when an invoice moves (issue 43): activity entries, pushes to those who
 * reach the client, the invoice e-mail with a link that opens it, and receipts for payments
 * staff record and the provider's webhook reports. Mails go to a real SMTP server: Mailpit in
 * CI, a capturing server of the suite's own otherwise.
 */

const BUS_WAIT_MS = 15_000;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const PUBLIC = 'https://portal.example';
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
let capture: Awaited<ReturnType<typeof startSmtpCapture>> | undefined;
const mail = mailpit();
const suffix = randomBytes(3).toString('hex');
const FIRM = `notices${suffix}`;
const BETA = `betanotices${suffix}`;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const address = (who: string) => `${who.toLowerCase()}.${suffix}@example.com`;
const sockets: Socket[] = [];

/** Subject and text of every mail to `to`, oldest first (quoted-printable undone for the captured ones). */
async function mailsTo(to: string): Promise<{ subject: string; text: string }[]> {
  if (mail) return (await mail.messagesTo(to)).map((m) => ({ subject: m.Subject, text: m.Text }));
  const decode = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  return capture!.mails.filter((m) => m.to === to).map((m) => {
    const unfolded = m.body.replace(/\r?\n[ \t]+/g, ' ');
    return { subject: /^Subject: (.*)$/m.exec(unfolded)?.[1]?.trim() ?? '', text: decode(m.body) };
  });
}

async function listen(who: string): Promise<InvoicePush[]> {
  const socket = connect(portal.gatewayUrl, { path: '/socket.io', auth: { token: tokens[who] }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('connect_error', reject); });
  const received: InvoicePush[] = [];
  socket.on(INVOICE_PUSH, (p: InvoicePush) => received.push(p));
  return received;
}

const invoices = (tenant = FIRM) => `/api/${tenant}/invoices`;
async function sentInvoice(clientKey: string, amount: number, tenant = FIRM, admin = 'admin'): Promise<Invoice> {
  const d = await call<Invoice>('POST', invoices(tenant), tokens[admin], { clientId: ids[clientKey], lines: [{ description: 'Form 1040 preparation', unitPrice: amount }], dueDate: '2099-01-31' });
  expect(d.status).toBe(201);
  const s = await call<Invoice>('POST', `${invoices(tenant)}/${d.body.id}/send`, tokens[admin]);
  expect(s.status).toBe(200);
  return s.body;
}

async function webhookPays(invoice: Invoice, amount: number): Promise<void> {
  const body = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', api_version: '2025-01-27', created: Math.floor(Date.now() / 1000), type: 'checkout.session.completed',
    data: { object: { id: `cs_test_${randomBytes(6).toString('hex')}`, object: 'checkout.session', payment_status: 'paid', amount_total: amount, currency: 'usd', metadata: { tenant: FIRM, invoiceId: String(invoice.id) } } },
  });
  const r = await fetch(`${portal.gatewayUrl}/api/billing/stripe/webhook`, {
    method: 'POST', body, headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) },
  });
  expect([r.status, await r.json()]).toEqual([200, { received: true, recorded: true }]);
}

beforeAll(async () => {
  if (!mail) capture = await startSmtpCapture();
  portal = await startTestPortal({
    SMTP_URL: mail ? mail.smtpUrl : capture!.url, SCHEDULER_POLL_MS: '200', PUBLIC_BASE_URL: PUBLIC,
    // A provider configured for the webhook; no checkout is started here, so no Stripe API is needed.
    STRIPE_SECRET_KEY: 'sk_test_ledgerline', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE_URL: 'http://127.0.0.1:9',
  });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [FIRM, BETA]) {
    expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} CPAs`, shortName, country: 'US' })).status).toBe(201);
  }
  for (const [key, tenant] of [['own', FIRM], ['other', FIRM], ['beta', BETA]] as const) {
    const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, testClient(`${key} ${suffix}`));
    expect(r.status).toBe(201);
    ids[key] = r.body.id;
  }
  const users: [string, string, number, number[] | null][] = [
    ['admin', FIRM, 1, null], ['cpa', FIRM, 3, [ids.own!]], ['cpaOther', FIRM, 3, [ids.other!]], ['client', FIRM, 4, [ids.own!]], ['clientOther', FIRM, 4, [ids.other!]], ['betaAdmin', BETA, 1, null],
  ];
  for (const [who, tenant, roleId, clientIds] of users) {
    // An address of the suite's own, so suites sharing a Mailpit never read each other's mail.
    const user: TestUser & { email: string } = { username: `${who}_${tenant}`, fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds: null, email: address(who) };
    const created = await createSignedInUser(call, tokens.platform, tenant, user);
    ids[who] = created.id;
    tokens[who] = created.token;
    await eventually(async () => expect((await call('GET', invoices(tenant), created.token)).status).toBe(200), BUS_WAIT_MS, 200);
  }
}, 180_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await portal?.stop();
  await capture?.close();
});

describe('the reminder settings', () => {
  it('default to 3 days before, on the due date and every 7 days after; an Admin changes them, within bounds', async () => {
    const path = `/api/${FIRM}/billing/settings`;
    expect((await call('GET', path, tokens.admin)).body).toMatchObject({ remindersEnabled: true, reminderDaysBefore: 3, reminderEveryDaysAfter: 7 });
    for (const bad of [{ reminderEveryDaysAfter: 91 }, { reminderDaysBefore: -1 }, { reminderDaysBefore: 1.5 }, { remindersEnabled: 'yes' }]) {
      expect((await call('PUT', path, tokens.admin, bad)).status).toBe(400);
    }
    expect((await call('PUT', path, tokens.cpa, { reminderDaysBefore: 5 })).status).toBe(403);
    expect((await call('PUT', path, tokens.admin, { reminderDaysBefore: 5, reminderEveryDaysAfter: 14 })).body).toMatchObject({ remindersEnabled: true, reminderDaysBefore: 5, reminderEveryDaysAfter: 14 });
    expect((await call('PUT', path, tokens.admin, {})).body).toMatchObject({ reminderDaysBefore: 3, reminderEveryDaysAfter: 7 });
  });
});

describe('an invoice sent, paid in part by cheque, then in full by card; another voided', () => {
  it('is logged, pushed to those who reach the client only, and mailed to the client\'s users with a link and receipts', async () => {
    const [client, cpa, admin] = [await listen('client'), await listen('cpa'), await listen('admin')];
    const others = [await listen('clientOther'), await listen('cpaOther'), await listen('betaAdmin')];

    const invoice = await sentInvoice('own', 100_000);
    expect(invoice.number).toBe('INV-0001');
    const cheque = await call<Invoice>('POST', `${invoices()}/${invoice.id}/payments`, tokens.admin, { amount: 40_000, method: 'cheque', reference: 'Cheque 1017', receivedOn: '2026-03-02' });
    expect([cheque.status, cheque.body.status]).toEqual([201, 'partially_paid']);
    await webhookPays(invoice, 60_000);
    expect((await call<Invoice>('GET', `${invoices()}/${invoice.id}`, tokens.admin)).body.status).toBe('paid');
    const voided = await sentInvoice('own', 25_000);
    expect((await call<Invoice>('POST', `${invoices()}/${voided.id}/void`, tokens.admin)).body.status).toBe('void');
    const otherClients = await sentInvoice('other', 5_000);
    await sentInvoice('beta', 7_000, BETA, 'betaAdmin');

    // Activity: one entry per change, by who made it (the webhook's payment by the System).
    const entries = async (who: string, clientId: number) =>
      (await call<ActivityLog[]>('GET', `/api/${FIRM}/activity-logs?clientId=${clientId}&limit=1000`, tokens[who])).body.filter((e) => e.details?.includes('nvoice'));
    let log: ActivityLog[] = [];
    await eventually(async () => {
      log = await entries('admin', ids.own!);
      expect(log.map((e) => e.details).sort()).toEqual([
        'Sent invoice INV-0001 for $1,000.00',
        'Invoice INV-0001 paid in part: $400.00 received, $600.00 still due',
        'Invoice INV-0001 paid in full ($600.00 received)',
        'Sent invoice INV-0002 for $250.00',
        'Voided invoice INV-0002',
      ].sort());
    }, BUS_WAIT_MS, 300);
    expect(log.find((e) => e.details === 'Sent invoice INV-0001 for $1,000.00')).toMatchObject({ action: 'update', userId: ids.admin, userName: `admin of ${FIRM}`, clientId: ids.own, fileId: null });
    expect(log.find((e) => e.details?.includes('paid in full'))).toMatchObject({ userId: 0, userName: 'System' });
    // The client's own user reads them; another client's user and another firm do not.
    expect(await entries('client', ids.own!)).toHaveLength(5);
    expect(await entries('clientOther', ids.own!)).toEqual([]);
    // Another firm's log holds only its own invoice (its client has the same id), and its Admin cannot read this firm's.
    await eventually(async () => expect((await call<ActivityLog[]>('GET', `/api/${BETA}/activity-logs?limit=1000`, tokens.betaAdmin)).body.map((e) => e.details)).toEqual(['Sent invoice INV-0001 for $70.00']), BUS_WAIT_MS, 300);
    expect((await call('GET', `/api/${FIRM}/activity-logs?clientId=${ids.own}`, tokens.betaAdmin)).status).toBeGreaterThanOrEqual(400);

    // Pushes: the client's user, the CPA serving the client and the Admin heard every change; nobody else did.
    const heard = (received: InvoicePush[], id: number) => received.filter((p) => p.invoiceId === id).map((p) => p.action).sort();
    await eventually(async () => {
      for (const r of [client, cpa, admin]) {
        expect(heard(r, invoice.id)).toEqual(['paid', 'partially_paid', 'sent']);
        expect(heard(r, voided.id)).toEqual(['sent', 'voided']);
      }
      expect(heard(admin, otherClients.id)).toEqual(['sent']);
      // On the real broker the other client's users may hear of it a moment after the Admin.
      expect(others[0]!.map((p) => p.invoiceId)).toEqual([otherClients.id]);
      expect(others[1]!.map((p) => p.invoiceId)).toEqual([otherClients.id]);
    }, BUS_WAIT_MS, 200);
    expect(client.find((p) => p.invoiceId === invoice.id && p.action === 'partially_paid')).toEqual({
      invoiceId: invoice.id, number: 'INV-0001', clientId: ids.own, action: 'partially_paid', status: 'partially_paid', balance: 60_000, currency: 'USD',
    });
    expect(others[2]!.every((p) => p.clientId === ids.beta)).toBe(true);
    for (const r of [client, cpa]) expect(heard(r, otherClients.id)).toEqual([]);

    // Mails: the invoice with a link that opens it, the cheque's receipt, the card's receipt, and the second invoice; no receipt for a void.
    let mine: { subject: string; text: string }[] = [];
    await eventually(async () => {
      mine = await mailsTo(address('client'));
      expect(mine.map((m) => m.subject).sort()).toEqual([
        `Invoice INV-0001 from ${FIRM} CPAs`,
        'Receipt: $400.00 paid on invoice INV-0001',
        'Receipt: $600.00 paid on invoice INV-0001',
        `Invoice INV-0002 from ${FIRM} CPAs`,
      ].sort());
    }, BUS_WAIT_MS, 300);
    const sentMail = mine.find((m) => m.subject === `Invoice INV-0001 from ${FIRM} CPAs`)!;
    expect(sentMail.text).toContain(`${FIRM} CPAs has sent own ${suffix} invoice INV-0001 for $1,000.00, due`);
    expect(sentMail.text).toContain(`View invoice: ${PUBLIC}/${FIRM}/invoices/${invoice.id}`);
    expect(sentMail.text).toContain('Open the invoice to pay it by card');
    const chequeReceipt = mine.find((m) => m.subject === 'Receipt: $400.00 paid on invoice INV-0001')!;
    expect(chequeReceipt.text).toContain('received $400.00 by cheque on Mar 2, 2026 for invoice INV-0001');
    expect(chequeReceipt.text).toContain('$600.00 of $1,000.00 is still to pay');
    expect(mine.find((m) => m.subject === 'Receipt: $600.00 paid on invoice INV-0001')!.text).toContain('by card');
    expect(mine.find((m) => m.subject === 'Receipt: $600.00 paid on invoice INV-0001')!.text).toContain('is paid in full');
    // Staff get none of these mails; another client's user only their own invoice's.
    await eventually(async () => expect((await mailsTo(address('clientOther'))).map((m) => m.subject)).toEqual([`Invoice INV-0003 from ${FIRM} CPAs`]), BUS_WAIT_MS, 300);
    expect(await mailsTo(address('admin'))).toEqual([]);
    expect(await mailsTo(address('cpa'))).toEqual([]);
  });
});

describe('documents released on payment', () => {
  async function upload(name: string, clientId: number | null): Promise<number> {
    const form = new FormData();
    form.append('fileType', clientId ? 'company_document' : 'firm_document');
    if (clientId) form.append('clientId', String(clientId));
    else form.append('documentType', 'partnership_deed');
    form.append('file', new Blob([`Contents of ${name}`], { type: 'text/plain' }), name);
    const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
    const body = (await r.json()) as { files: { id: number }[] };
    expect(r.status).toBe(201);
    return body.files[0]!.id;
  }
  const download = async (who: string, fileId: number) => {
    const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files/${fileId}`, { headers: { authorization: `Bearer ${tokens[who]}` } });
    return { status: r.status, text: await r.text() };
  };
  const hold = (who: string, fileId: number, invoiceId: number, tenant = FIRM) => call('PUT', `/api/${tenant}/files/${fileId}/payment-hold`, tokens[who], { invoiceId });
  const listed = async (who: string, fileId: number) =>
    (await call<{ id: number; waitingForPayment?: unknown }[]>('GET', `/api/${FIRM}/files?clientId=${ids.own}&limit=500`, tokens[who])).body.find((f) => f.id === fileId);

  it('a client\'s document held for an invoice is listed to its client as waiting and cannot be opened until the invoice is paid (the webhook\'s payment releases it)', async () => {
    const invoice = await sentInvoice('own', 90_000);
    const signed8879 = await upload(`Signed 8879 ${suffix}.txt`, ids.own!);
    // The files service learns the invoice from billing's event: the hold is accepted once it has.
    await eventually(async () => expect((await hold('admin', signed8879, invoice.id)).status).toBe(200), BUS_WAIT_MS, 200);
    expect(await listed('client', signed8879)).toMatchObject({ waitingForPayment: { invoiceId: invoice.id, invoiceNumber: invoice.number } });
    expect(await download('client', signed8879)).toEqual({ status: 403, text: expect.stringContaining(`This document is released once invoice ${invoice.number} is paid.`) });
    expect((await call('POST', `/api/${FIRM}/files/${signed8879}/public-link`, tokens.client)).status).toBe(403);
    // Staff open it meanwhile.
    expect((await download('admin', signed8879)).status).toBe(200);
    expect((await download('cpa', signed8879)).status).toBe(200);

    // Paid in part: still waiting. Paid in full by card: released.
    expect((await call('POST', `${invoices()}/${invoice.id}/payments`, tokens.admin, { amount: 30_000, method: 'cheque' })).status).toBe(201);
    expect((await download('client', signed8879)).status).toBe(403);
    await webhookPays(invoice, 60_000);
    await eventually(async () => expect(await download('client', signed8879)).toEqual({ status: 200, text: `Contents of Signed 8879 ${suffix}.txt` }), BUS_WAIT_MS, 200);
    expect(await listed('client', signed8879)).not.toHaveProperty('waitingForPayment');
    // Nothing to wait for on a paid invoice.
    expect((await hold('admin', signed8879, invoice.id)).status).toBe(409);
  });

  it('an Admin releases one by hand; only Admins hold, only for a sent invoice of the file\'s own client; another firm cannot', async () => {
    const invoice = await sentInvoice('own', 10_000);
    const otherInvoice = await sentInvoice('other', 10_000);
    const file = await upload(`Engagement letter ${suffix}.txt`, ids.own!);
    const firmFile = await upload(`Firm policy ${suffix}.txt`, null);
    await eventually(async () => expect((await hold('admin', file, invoice.id)).status).toBe(200), BUS_WAIT_MS, 200);
    await eventually(async () => expect((await hold('admin', file, otherInvoice.id)).status).toBe(404), BUS_WAIT_MS, 200);
    expect((await hold('admin', file, 999_999)).status).toBe(404);
    expect((await hold('admin', firmFile, invoice.id)).status).toBe(409);
    for (const who of ['cpa', 'client']) expect((await hold(who, file, invoice.id)).status).toBe(403);
    expect((await call('PUT', `/api/${FIRM}/files/${file}/payment-hold`, tokens.admin, { invoiceId: 'x' })).status).toBe(400);
    expect((await hold('betaAdmin', file, invoice.id)).status).toBeGreaterThanOrEqual(401);
    expect((await hold('betaAdmin', file, invoice.id, BETA)).status).toBe(404);
    expect((await download('client', file)).status).toBe(403);

    expect((await call('DELETE', `/api/${FIRM}/files/${file}/payment-hold`, tokens.cpa)).status).toBe(403);
    expect((await call('DELETE', `/api/${FIRM}/files/${file}/payment-hold`, tokens.admin)).body).toEqual({ message: 'Released' });
    expect((await download('client', file)).status).toBe(200);
    expect((await call('DELETE', `/api/${FIRM}/files/${file}/payment-hold`, tokens.admin)).status).toBe(404);
    // Another client's user never sees the file, held or not.
    expect((await download('clientOther', file)).status).toBe(404);
  });
});
