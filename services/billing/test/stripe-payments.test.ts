import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { checkoutSessionEvent, deliverStripeWebhook, signedStripeEvent, startStripeRecorder, type CreatedCheckoutSession, type StripeRecorder } from '@ledgerline/billing-service/testing/stripe-mock.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { BillingSettings, CheckoutStart, Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/*
 * Online payment through the Stripe adapter. Checkout Sessions are created against Stripe's own
 * API mock, stripe-mock (STRIPE_MOCK_URL; `.ci/run` starts it, so CI fails without it), which
 * checks every parameter against Stripe's API description and answers canned objects: it keeps
 * no state, so the suite records what the adapter sent on the way through and asserts on that
 * and on what the adapter made of the answer. Webhook deliveries are events this suite signs
 * itself with Stripe's own generateTestHeaderString, so the real verification code runs.
 */

const BUS_WAIT_MS = 15_000;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const stripeMockUrl = realServerUrl('STRIPE_MOCK_URL');
const describeOnStripeMock = stripeMockUrl ? describe : describe.skip;
let recorder: StripeRecorder | undefined;
const sessionsCreated = (): CreatedCheckoutSession[] => recorder!.sessionsCreated;
const suffix = randomBytes(3).toString('hex');
const FIRM = `paying${suffix}`;
const OTHER = `notpaying${suffix}`;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

const invoices = (tenant = FIRM) => `/api/${tenant}/invoices`;

const signedEvent = (event: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) => signedStripeEvent(event, options.secret ?? WEBHOOK_SECRET, options);
const sessionEvent = (eventId: string, type: string, session: { id: string; invoiceId: number; amount: number; paid?: boolean; tenant?: string }) =>
  checkoutSessionEvent(eventId, type, { currency: 'gbp', ...session, tenant: session.tenant ?? FIRM });
const deliver = (delivery: { body: string; signature: string | null }, path?: string) => deliverStripeWebhook(portal.gatewayUrl, delivery, path);

async function sentInvoice(amount: number): Promise<Invoice> {
  const d = await call<Invoice>('POST', invoices(), tokens.admin, { clientId: ids.own, lines: [{ description: 'Tax return', unitPrice: amount }] });
  expect(d.status).toBe(201);
  const s = await call<Invoice>('POST', `${invoices()}/${d.body.id}/send`, tokens.admin);
  expect(s.status).toBe(200);
  return s.body;
}

beforeAll(async () => {
  recorder = stripeMockUrl ? await startStripeRecorder(stripeMockUrl) : undefined;
  portal = await startTestPortal({
    STRIPE_SECRET_KEY: 'sk_test_ledgerline', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_BASE_URL: 'https://portal.example',
    // Without stripe-mock (outside CI) nothing answers there: the checkout tests are skipped.
    STRIPE_API_BASE_URL: recorder?.url ?? 'http://127.0.0.1:9',
  });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [FIRM, OTHER]) {
    expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} LLP`, shortName, country: 'GB' })).status).toBe(201);
  }
  for (const [key, tenant] of [['own', FIRM], ['other', OTHER]] as const) {
    const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, { ...testClient(`${key} ${suffix}`), jurisdiction: 'UK' });
    expect(r.status).toBe(201);
    ids[key] = r.body.id;
  }
  for (const [who, tenant, roleId, clientIds] of [['admin', FIRM, 1, null], ['client', FIRM, 4, [ids.own!]], ['otherAdmin', OTHER, 1, null]] as const) {
    const user = await createSignedInUser(call, tokens.platform, tenant, { username: `${who}_${tenant}`, fullName: who, roleId, clientIds: clientIds ? [...clientIds] : null, reportTypeIds: null });
    tokens[who] = user.token;
    await eventually(async () => expect((await call('GET', invoices(tenant), user.token)).status).toBe(200), BUS_WAIT_MS, 200);
  }
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await recorder?.close();
});

describeOnStripeMock('checkout on stripe-mock', () => {
  it('the client\'s user starts a Checkout Session for the balance, returning to the invoice\'s page', async () => {
    expect((await call<BillingSettings>('GET', `/api/${FIRM}/billing/settings`, tokens.admin)).body.onlinePayments).toBe(true);
    const invoice = await sentInvoice(12000); // no VAT number set: no VAT, a plain invoice
    expect((await call<Invoice>('GET', `${invoices()}/${invoice.id}`, tokens.client)).body.canPayOnline).toBe(true);
    const before = sessionsCreated().length;
    const r = await call<CheckoutStart>('POST', `${invoices()}/${invoice.id}/checkout`, tokens.client);
    expect(r.status).toBe(200);
    expect(sessionsCreated()).toHaveLength(before + 1);
    const { sent, answer } = sessionsCreated()[before]!;
    expect(sent.get('mode')).toBe('payment');
    expect(sent.get('line_items[0][price_data][unit_amount]')).toBe('12000');
    expect(sent.get('line_items[0][price_data][currency]')).toBe('gbp');
    expect(sent.get('metadata[tenant]')).toBe(FIRM);
    expect(sent.get('metadata[invoiceId]')).toBe(String(invoice.id));
    expect(sent.get('allowed_payment_method_types[0]')).toBe('card');
    expect(sent.get('success_url')).toBe(`https://portal.example/${FIRM}/invoices/${invoice.id}?payment=done`);
    expect(sent.get('cancel_url')).toBe(`https://portal.example/${FIRM}/invoices/${invoice.id}?payment=cancelled`);
    expect(sent.get('client_reference_id')).toBe(`${FIRM}:${invoice.id}`);
    // The client is sent to the checkout page of the session Stripe answered with.
    expect(answer.id).toMatch(/^cs_test_/);
    expect(r.body.url).toBe(answer.url);
  });

  it('a dollar invoice (a US firm) also offers US bank debit', async () => {
    const usFirm = `dollars${suffix}`;
    expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${usFirm} CPAs`, shortName: usFirm, country: 'US' })).status).toBe(201);
    const client = await call<Client>('POST', `/api/${usFirm}/clients`, tokens.platform, { ...testClient(`us ${suffix}`), jurisdiction: 'US' });
    const admin = await createSignedInUser(call, portal.adminToken, usFirm, { username: `admin_${usFirm}`, fullName: 'US admin', roleId: 1, clientIds: null, reportTypeIds: null });
    await eventually(async () => expect((await call('GET', invoices(usFirm), admin.token)).status).toBe(200), BUS_WAIT_MS, 200);
    const draft = await call<Invoice>('POST', invoices(usFirm), admin.token, { clientId: client.body.id, lines: [{ description: 'Form 1040 preparation', unitPrice: 45000 }] });
    expect((await call('POST', `${invoices(usFirm)}/${draft.body.id}/send`, admin.token)).status).toBe(200);
    const before = sessionsCreated().length;
    expect((await call<CheckoutStart>('POST', `${invoices(usFirm)}/${draft.body.id}/checkout`, admin.token)).status).toBe(200);
    const { sent } = sessionsCreated()[before]!;
    expect(sent.get('line_items[0][price_data][currency]')).toBe('usd');
    expect([sent.get('allowed_payment_method_types[0]'), sent.get('allowed_payment_method_types[1]')]).toEqual(['card', 'us_bank_account']);
  });
});

describe('checkout refusals (before any call to Stripe)', () => {
  it('refuses a draft (the client cannot see it: 404) and a paid invoice (409); another firm cannot start one (404)', async () => {
    const d = await call<Invoice>('POST', invoices(), tokens.admin, { clientId: ids.own, lines: [{ description: 'x', unitPrice: 100 }] });
    expect((await call('POST', `${invoices()}/${d.body.id}/checkout`, tokens.client)).status).toBe(404);
    expect((await call('POST', `${invoices()}/${d.body.id}/checkout`, tokens.admin)).status).toBe(409);
    const paid = await sentInvoice(500);
    await call('POST', `${invoices()}/${paid.id}/payments`, tokens.admin, { amount: 500, method: 'cash' });
    expect((await call('POST', `${invoices()}/${paid.id}/checkout`, tokens.client)).status).toBe(409);
    expect((await call('POST', `${invoices(OTHER)}/${paid.id}/checkout`, tokens.otherAdmin)).status).toBe(404);
  });
});

describe('webhook', () => {
  it('records a paid Checkout Session once, whatever the retries, and marks the invoice paid', async () => {
    const invoice = await sentInvoice(25000);
    const session = { id: `cs_test_${suffix}a`, invoiceId: invoice.id, amount: 25000 };
    const delivery = signedEvent(sessionEvent(`evt_${suffix}a`, 'checkout.session.completed', session));
    expect(await deliver(delivery)).toEqual({ status: 200, body: { received: true, recorded: true } });
    // The same event again (Stripe retries until it sees a 2xx), and another event about the same session.
    expect((await deliver(delivery)).body.recorded).toBe(false);
    expect((await deliver(signedEvent(sessionEvent(`evt_${suffix}b`, 'checkout.session.async_payment_succeeded', session)))).body.recorded).toBe(false);
    const after = await call<Invoice>('GET', `${invoices()}/${invoice.id}`, tokens.client);
    expect(after.body).toMatchObject({ status: 'paid', amountPaid: 25000, balance: 0 });
    expect(after.body.payments.map((p) => [p.amount, p.method, p.reference])).toEqual([[25000, 'card', session.id]]);
  });

  it('a card paying the rest after a cheque in part: partially paid, then paid (through the firm\'s path too)', async () => {
    const invoice = await sentInvoice(30000);
    expect((await call<Invoice>('POST', `${invoices()}/${invoice.id}/payments`, tokens.admin, { amount: 10000, method: 'cheque' })).body.status).toBe('partially_paid');
    const delivery = signedEvent(sessionEvent(`evt_${suffix}c`, 'checkout.session.completed', { id: `cs_test_${suffix}c`, invoiceId: invoice.id, amount: 20000 }));
    expect((await deliver(delivery, `/api/${FIRM}/billing/stripe/webhook`)).body.recorded).toBe(true);
    expect((await call<Invoice>('GET', `${invoices()}/${invoice.id}`, tokens.admin)).body).toMatchObject({ status: 'paid', amountPaid: 30000, balance: 0 });
  });

  it('refuses forged, unsigned and stale deliveries (400) and records nothing; an unpaid session records nothing', async () => {
    const invoice = await sentInvoice(4000);
    const event = sessionEvent(`evt_${suffix}d`, 'checkout.session.completed', { id: `cs_test_${suffix}d`, invoiceId: invoice.id, amount: 4000 });
    const forged = await deliver(signedEvent(event, { secret: 'whsec_not_the_endpoints' }));
    expect(forged).toEqual({ status: 400, body: { message: 'Webhook signature verification failed' } });
    expect((await deliver({ body: JSON.stringify(event), signature: null })).status).toBe(400);
    const genuine = signedEvent(event);
    expect((await deliver({ body: genuine.body.replace('"amount_total":4000', '"amount_total":1'), signature: genuine.signature })).status).toBe(400);
    expect((await deliver(signedEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).status).toBe(400);
    const unpaid = signedEvent(sessionEvent(`evt_${suffix}e`, 'checkout.session.completed', { id: `cs_test_${suffix}e`, invoiceId: invoice.id, amount: 4000, paid: false }));
    expect((await deliver(unpaid)).body).toEqual({ received: true, recorded: false });
    expect((await call<Invoice>('GET', `${invoices()}/${invoice.id}`, tokens.admin)).body).toMatchObject({ status: 'sent', amountPaid: 0 });
  });

  it('an event naming another firm\'s invoice id pays nothing in this firm', async () => {
    const own = await sentInvoice(700);
    const elsewhere = signedEvent(sessionEvent(`evt_${suffix}f`, 'checkout.session.completed', { id: `cs_test_${suffix}f`, invoiceId: own.id, amount: 700, tenant: OTHER }));
    expect((await deliver(elsewhere)).status).toBe(404);
    expect((await call<Invoice>('GET', `${invoices()}/${own.id}`, tokens.admin)).body.amountPaid).toBe(0);
  });
});
