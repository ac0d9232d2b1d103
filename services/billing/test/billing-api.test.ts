import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { BillingService, BillingSettings, Invoice, InvoiceSchedule, Receivables } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { gstinCheckCharacter } from '@ledgerline/contracts/tax-ids.ts';
import { checkedPdfText } from './support/checked-pdf.ts';

/** Users and clients reach the billing service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 15_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const UK = `ukfirm${suffix}`;
const INDIA = `infirm${suffix}`;
const BETA = `beta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const gstin = (first14: string) => `${first14}${gstinCheckCharacter(first14)}`;

const invoices = (tenant = UK) => `/api/${tenant}/invoices`;
const draft = (who: string, body: Record<string, unknown>, tenant = UK) => call<Invoice>('POST', invoices(tenant), tokens[who], body);
const act = (who: string, id: number, action: string, tenant = UK, body?: unknown) => call<Invoice>('POST', `${invoices(tenant)}/${id}/${action}`, tokens[who], body);
const fee = (unitPrice = 50000, extra: Record<string, unknown> = {}) => ({ description: 'Self assessment return', unitPrice, ...extra });

async function createClient(tenant: string, key: string, body: Record<string, unknown>): Promise<void> {
  const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, { ...testClient(`${key} ${suffix}`), ...body });
  expect([r.status, r.status === 201 ? '' : r.body]).toEqual([201, '']);
  ids[key] = r.body.id;
}

beforeAll(async () => {
  portal = await startTestPortal();
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const [shortName, country] of [[UK, 'GB'], [INDIA, 'IN'], [BETA, 'US']] as const) {
    const r = await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} Accountants`, shortName, country });
    expect(r.status).toBe(201);
  }
  await createClient(UK, 'own', { jurisdiction: 'UK', state: 'GB-ENG' });
  await createClient(UK, 'other', { jurisdiction: 'UK' });
  await createClient(INDIA, 'mumbai', { jurisdiction: 'IN', state: 'IN-MH', taxIds: [{ type: 'gstin', value: gstin('27AAPFU0939F1Z') }] });
  await createClient(INDIA, 'delhi', { jurisdiction: 'IN', state: 'IN-DL' });
  await createClient(BETA, 'beta', {});
  await cast.user(UK, 'admin', 1, null);
  await cast.user(UK, 'dta', 2, null);
  await cast.user(UK, 'cpa', 3, [ids.own!]);
  await cast.user(UK, 'client', 4, [ids.own!]);
  await cast.user(UK, 'clientOther', 4, [ids.other!]);
  await cast.user(INDIA, 'inAdmin', 1, null);
  await cast.user(BETA, 'betaAdmin', 1, null);
  // The service learns users from events: wait until it knows the Admins.
  for (const [who, tenant] of [['admin', UK], ['inAdmin', INDIA], ['cpa', UK], ['client', UK], ['clientOther', UK], ['dta', UK]] as const) {
    await eventually(async () => expect((await call('GET', invoices(tenant), tokens[who])).status).toBe(200), BUS_WAIT_MS, 200);
  }
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('billing settings', () => {
  it('Admin saves the VAT number (checked for the firm\'s country) and the prefix; staff read them; others are refused', async () => {
    const bad = await call('PUT', `/api/${UK}/billing/settings`, tokens.admin, { taxRegistration: 'GB123456789' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/VAT number/);
    const wrongState = await call('PUT', `/api/${UK}/billing/settings`, tokens.admin, { state: 'IN-MH' });
    expect(wrongState.status).toBe(400);
    const saved = await call<BillingSettings>('PUT', `/api/${UK}/billing/settings`, tokens.admin, {
      invoicePrefix: 'UK-', taxRegistration: 'GB 980 7806 84', address: '1 High Street\nLondon EC1A 1AA', bankDetails: 'Sort code 12-34-56, account 12345678', paymentTermsDays: 15,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ invoicePrefix: 'UK-', taxRegistration: 'GB980780684', country: 'GB', currency: 'GBP', taxName: 'VAT', registrationLabel: 'VAT registration number', onlinePayments: false });
    expect((await call<BillingSettings>('GET', `/api/${UK}/billing/settings`, tokens.cpa)).body.invoicePrefix).toBe('UK-');
    expect((await call('PUT', `/api/${UK}/billing/settings`, tokens.dta, {})).status).toBe(403);
    expect((await call('GET', `/api/${UK}/billing/settings`, tokens.client)).status).toBe(403);
  });
});

describe('the price list', () => {
  it('Admin adds, edits and removes services; staff read; a CPA cannot change them; another firm never sees them', async () => {
    const created = await call<BillingService>('POST', `/api/${UK}/billing/services`, tokens.admin, { name: 'Bookkeeping', defaultPrice: 30000 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Bookkeeping', defaultPrice: 30000, taxTreatment: 'standard', sacCode: null });
    ids.bookkeeping = created.body.id;
    const exempt = await call<BillingService>('POST', `/api/${UK}/billing/services`, tokens.admin, { name: 'Disbursement', defaultPrice: 2500, taxTreatment: 'exempt' });
    ids.exempt = exempt.body.id;
    const edited = await call<BillingService>('PUT', `/api/${UK}/billing/services/${ids.bookkeeping}`, tokens.admin, { name: 'Monthly bookkeeping', defaultPrice: 35000 });
    expect(edited.body).toMatchObject({ name: 'Monthly bookkeeping', defaultPrice: 35000 });
    expect((await call<BillingService[]>('GET', `/api/${UK}/billing/services`, tokens.cpa)).body.map((s) => s.name)).toEqual(['Disbursement', 'Monthly bookkeeping']);
    expect((await call('POST', `/api/${UK}/billing/services`, tokens.cpa, { name: 'x', defaultPrice: 1 })).status).toBe(403);
    expect((await call('GET', `/api/${UK}/billing/services`, tokens.client)).status).toBe(403);
    expect((await call('POST', `/api/${UK}/billing/services`, tokens.admin, { name: 'x', defaultPrice: 10.5 })).status).toBe(400);
    expect((await call<BillingService[]>('GET', `/api/${BETA}/billing/services`, tokens.betaAdmin)).body).toEqual([]);
    expect((await call('PUT', `/api/${BETA}/billing/services/${ids.bookkeeping}`, tokens.betaAdmin, { name: 'x', defaultPrice: 1 })).status).toBe(404);
    const temporary = await call<BillingService>('POST', `/api/${UK}/billing/services`, tokens.admin, { name: 'Temporary', defaultPrice: 1 });
    expect((await call('DELETE', `/api/${UK}/billing/services/${temporary.body.id}`, tokens.admin)).status).toBe(200);
    expect((await call('DELETE', `/api/${UK}/billing/services/${temporary.body.id}`, tokens.admin)).status).toBe(404);
  });
});

describe('invoices', () => {
  it('a draft takes the price list\'s price and VAT 20 %, an exempt service none; it has no number until sent', async () => {
    const r = await draft('admin', { clientId: ids.own, lines: [
      { description: 'Bookkeeping, March', serviceId: ids.bookkeeping }, { description: 'Companies House fee', serviceId: ids.exempt }, fee(12345, { quantity: 1.5, taxRate: 5 }),
    ] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'draft', number: null, currency: 'GBP', clientName: `own ${suffix}`, clientState: 'GB-ENG', issueDate: null, dueDate: null });
    expect(r.body.lines.map((l) => [l.unitPrice, l.taxRate, l.net, l.tax])).toEqual([[35000, 20, 35000, 7000], [2500, 0, 2500, 0], [12345, 5, 18518, 926]]);
    expect(r.body).toMatchObject({ subtotal: 56018, tax: 7926, total: 63944, amountPaid: 0, balance: 63944 });
    ids.first = r.body.id;
  });

  it('edits and deletes a draft only; refuses bad lines with 400 and unknown services', async () => {
    const r = await draft('admin', { clientId: ids.own, lines: [fee()] });
    const patched = await call<Invoice>('PATCH', `${invoices()}/${r.body.id}`, tokens.admin, { lines: [fee(1000)], notes: 'Thank you' });
    expect(patched.body).toMatchObject({ subtotal: 1000, tax: 200, notes: 'Thank you' });
    for (const line of [fee(-1), fee(1, { quantity: 1.001 }), fee(1, { taxRate: 101 }), fee(1, { taxRate: 'x' })]) {
      expect((await draft('admin', { clientId: ids.own, lines: [line] })).status).toBe(400);
    }
    expect((await draft('admin', { clientId: ids.own, lines: [{ description: 'x', serviceId: 999999 }] })).status).toBe(400);
    expect((await draft('admin', { clientId: ids.own, lines: Array.from({ length: 200 }, () => fee(9_000_000_000_000, { quantity: 1000 })) })).status).toBe(400);
    // The terms after the last day the database holds: refused, not a 500.
    const far = await draft('admin', { clientId: ids.own, issueDate: '9999-12-31', lines: [fee(100, { taxRate: 0 })] });
    expect((await act('admin', far.body.id, 'send')).status).toBe(400);
    expect((await call('DELETE', `${invoices()}/${far.body.id}`, tokens.admin)).status).toBe(200);
    expect((await call('DELETE', `${invoices()}/${r.body.id}`, tokens.admin)).status).toBe(200);
    expect((await call('GET', `${invoices()}/${r.body.id}`, tokens.admin)).status).toBe(404);
    // A draft keeps its lines when the service they came from leaves the price list.
    const gone = await call<BillingService>('POST', `/api/${UK}/billing/services`, tokens.admin, { name: 'Withdrawn', defaultPrice: 7000 });
    const d = await draft('admin', { clientId: ids.own, lines: [{ description: 'Withdrawn', serviceId: gone.body.id }] });
    expect((await call('DELETE', `/api/${UK}/billing/services/${gone.body.id}`, tokens.admin)).status).toBe(200);
    const kept = await call<Invoice>('PATCH', `${invoices()}/${d.body.id}`, tokens.admin, { notes: 'Still 70.00' });
    expect(kept.status).toBe(200);
    expect(kept.body.lines[0]).toMatchObject({ unitPrice: 7000, taxRate: 20 });
    expect((await call('DELETE', `${invoices()}/${d.body.id}`, tokens.admin)).status).toBe(200);
  });

  it('sending numbers it with the firm\'s prefix, fills its dates from the terms, and freezes it', async () => {
    const sent = await act('admin', ids.first!, 'send');
    expect(sent.status).toBe(200);
    const today = todayIn('UTC');
    expect(sent.body).toMatchObject({ status: 'sent', number: 'UK-0001', issueDate: today, dueDate: addDays(today, 15) });
    expect((await act('admin', ids.first!, 'send')).status).toBe(409);
    expect((await call('PATCH', `${invoices()}/${ids.first}`, tokens.admin, { notes: 'x' })).status).toBe(409);
    expect((await call('DELETE', `${invoices()}/${ids.first}`, tokens.admin)).status).toBe(409);
    const empty = await draft('admin', { clientId: ids.own });
    expect((await act('admin', empty.body.id, 'send')).status).toBe(400);
  });

  it('staff record a cheque in part (partially paid), then the rest (paid); overpaying and paying a draft are refused', async () => {
    expect((await act('admin', ids.first!, 'payments', UK, { amount: 63945, method: 'cheque' })).status).toBe(400);
    expect((await act('admin', ids.first!, 'payments', UK, { amount: 100, method: 'card' })).status).toBe(400);
    expect((await act('cpa', ids.first!, 'payments', UK, { amount: 100, method: 'cash' })).status).toBe(403);
    const part = await act('admin', ids.first!, 'payments', UK, { amount: 40000, method: 'cheque', reference: 'Cheque 000123' });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ status: 'partially_paid', amountPaid: 40000, balance: 23944 });
    const rest = await act('admin', ids.first!, 'payments', UK, { amount: 23944, method: 'bank_transfer' });
    expect(rest.body).toMatchObject({ status: 'paid', amountPaid: 63944, balance: 0 });
    expect(rest.body.payments.map((p) => [p.amount, p.method, p.reference])).toEqual([[40000, 'cheque', 'Cheque 000123'], [23944, 'bank_transfer', null]]);
    expect((await act('admin', ids.first!, 'void')).status).toBe(409);
    const d = await draft('admin', { clientId: ids.own, lines: [fee()] });
    expect((await act('admin', d.body.id, 'payments', UK, { amount: 1, method: 'cash' })).status).toBe(409);
  });

  it('voiding keeps the number; the next invoice takes the next one', async () => {
    const a = await draft('admin', { clientId: ids.other, lines: [fee()] });
    const sent = await act('admin', a.body.id, 'send');
    expect(sent.body.number).toBe('UK-0002');
    const voided = await act('admin', a.body.id, 'void');
    expect(voided.body).toMatchObject({ status: 'void', number: 'UK-0002', balance: 0 });
    expect(voided.body.voidedAt).not.toBeNull();
    const b = await draft('admin', { clientId: ids.other, lines: [fee()] });
    expect((await act('admin', b.body.id, 'send')).body.number).toBe('UK-0003');
  });

  it('a CPA sees their clients\' invoices only; a Client user their own client\'s sent ones; neither manages', async () => {
    const cpaList = await call<Invoice[]>('GET', invoices(), tokens.cpa);
    expect(cpaList.status).toBe(200);
    expect(new Set(cpaList.body.map((i) => i.clientId))).toEqual(new Set([ids.own]));
    const otherInvoice = (await call<Invoice[]>('GET', invoices(), tokens.admin)).body.find((i) => i.clientId === ids.other)!;
    expect((await call('GET', `${invoices()}/${otherInvoice.id}`, tokens.cpa)).status).toBe(404);
    expect((await draft('cpa', { clientId: ids.own, lines: [fee()] })).status).toBe(403);
    expect((await draft('dta', { clientId: ids.own, lines: [fee()] })).status).toBe(403);
    const clientList = await call<Invoice[]>('GET', invoices(), tokens.client);
    expect(clientList.body.length).toBeGreaterThan(0);
    expect(clientList.body.every((i) => i.clientId === ids.own && i.status !== 'draft')).toBe(true);
    const ownDraft = (await call<Invoice[]>('GET', `${invoices()}?status=draft&clientId=${ids.own}`, tokens.admin)).body[0]!;
    expect((await call('GET', `${invoices()}/${ownDraft.id}`, tokens.client)).status).toBe(404);
    expect((await call('GET', `${invoices()}/${ids.first}`, tokens.clientOther)).status).toBe(404);
    expect((await act('client', ids.first!, 'void')).status).toBe(403);
    expect((await call('GET', `${invoices()}?status=bogus`, tokens.admin)).status).toBe(400);
  });

  it('another firm cannot see or touch them (404)', async () => {
    expect((await call<Invoice[]>('GET', invoices(BETA), tokens.betaAdmin)).body).toEqual([]);
    expect((await call('GET', `${invoices(BETA)}/${ids.first}`, tokens.betaAdmin)).status).toBe(404);
    expect((await act('betaAdmin', ids.first!, 'void', BETA)).status).toBe(404);
    expect((await call('GET', `${invoices(UK)}/${ids.first}`, tokens.betaAdmin)).status).toBeGreaterThanOrEqual(401);
  });
});

const pdf = async (who: string, id: number, tenant = UK) => {
  const r = await fetch(`${portal.gatewayUrl}${invoices(tenant)}/${id}/pdf`, { headers: { authorization: `Bearer ${tokens[who]}` } });
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
};
/** The PDF's text as pdftotext reads it, spaces collapsed. */
const pdfText = (bytes: Buffer): string => execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: bytes, encoding: 'utf8' }).replace(/\s+/g, ' ');

describe('the invoice PDF', () => {
  it('staff and the client\'s own user get the PDF of a sent invoice; a Client user of another client and another firm 404', async () => {
    const own = await pdf('client', ids.first!);
    expect(own.status).toBe(200);
    expect(own.type).toBe('application/pdf');
    expect(own.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(own.bytes);
    expect(text).toContain('VAT invoice');
    expect(text).toContain('Invoice number: UK-0001');
    expect(text).toContain('VAT registration number: GB980780684');
    expect((await pdf('cpa', ids.first!)).status).toBe(200);
    expect((await pdf('clientOther', ids.first!)).status).toBe(404);
    expect((await pdf('betaAdmin', ids.first!, BETA)).status).toBe(404);
  });
});

describe('with no payment provider (the embedded default)', () => {
  it('nothing takes a card: checkout answers 409 saying to pay by bank transfer, the webhook does not exist', async () => {
    const r = await act('client', ids.first!, 'checkout');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ message: expect.stringContaining('bank transfer') });
    expect((await call('POST', '/api/billing/stripe/webhook', null, { id: 'evt_1', type: 'checkout.session.completed' })).status).toBe(404);
    expect((await call<BillingSettings>('GET', `/api/${UK}/billing/settings`, tokens.admin)).body.onlinePayments).toBe(false);
    expect((await call<Invoice>('GET', `${invoices()}/${ids.first}`, tokens.client)).body.canPayOnline).toBe(false);
  });
});

describe('receivables', () => {
  it('ages open balances per client into current, 1–30, 31–60, 61–90 and over 90 days past due', async () => {
    const today = todayIn('UTC');
    const ages: [number, number][] = [[5, 100], [-1, 200], [-45, 400], [-75, 800], [-120, 1600]];
    for (const [dueIn, amount] of ages) {
      const d = await draft('admin', { clientId: ids.own, issueDate: addDays(today, Math.min(dueIn, 0) - 1), dueDate: addDays(today, dueIn), lines: [fee(amount, { taxRate: 0 })] });
      expect((await act('admin', d.body.id, 'send')).status).toBe(200);
    }
    const r = await call<Receivables>('GET', `/api/${UK}/billing/receivables`, tokens.cpa);
    expect(r.status).toBe(200);
    const own = r.body.clients.find((c) => c.clientId === ids.own)!;
    expect(own.buckets).toEqual({ current: 100, days1to30: 200, days31to60: 400, days61to90: 800, over90: 1600 });
    expect(r.body.clients.map((c) => c.clientId)).toEqual([ids.own]); // the CPA's clients only
    const all = await call<Receivables>('GET', `/api/${UK}/billing/receivables`, tokens.admin);
    expect(all.body.clients.map((c) => c.clientId).sort()).toEqual([ids.own, ids.other].sort());
    expect(all.body.totals.total).toBe(all.body.clients.reduce((s, c) => s + c.total, 0));
    expect((await call('GET', `/api/${UK}/billing/receivables`, tokens.client)).status).toBe(403);
    expect((await call<Receivables>('GET', `/api/${BETA}/billing/receivables`, tokens.betaAdmin)).body.clients).toEqual([]);
  });
});

describe('India: CGST + SGST within the firm\'s State, IGST across, GSTIN and SAC', () => {
  it('splits by the client\'s State and prints the recipient\'s GSTIN', async () => {
    const service = await call<BillingService>('POST', `/api/${INDIA}/billing/services`, tokens.inAdmin, { name: 'Accounting', defaultPrice: 1000000, sacCode: '998222' });
    const line = { description: 'Accounting, FY 2025-26', serviceId: service.body.id };
    // Unregistered, a line gets no GST by default; one given a rate cannot be sent until the GSTIN is set.
    expect((await draft('inAdmin', { clientId: ids.mumbai, lines: [line] }, INDIA)).body.tax).toBe(0);
    const noRegistration = await draft('inAdmin', { clientId: ids.mumbai, lines: [{ ...line, taxRate: 18 }] }, INDIA);
    expect((await act('inAdmin', noRegistration.body.id, 'send', INDIA)).body).toMatchObject({ message: 'Set the firm\'s GSTIN in billing settings before sending a tax invoice' });
    expect((await call('PUT', `/api/${INDIA}/billing/settings`, tokens.inAdmin, { taxRegistration: gstin('27AAPFU0939F1Z'), state: 'IN-MH', address: 'Nariman Point, Mumbai' })).status).toBe(200);
    const intra = await act('inAdmin', noRegistration.body.id, 'send', INDIA);
    expect(intra.status).toBe(200);
    expect(intra.body.lines[0]).toMatchObject({ sacCode: '998222', taxRate: 18, net: 1000000, tax: 180000 });
    expect(intra.body.taxSummary.map((s) => [s.code, s.ratePercent, s.amount])).toEqual([['CGST', 9, 90000], ['SGST', 9, 90000]]);
    expect(intra.body).toMatchObject({ currency: 'INR', clientState: 'IN-MH', number: 'INV-0001', total: 1180000 });
    const inter = await draft('inAdmin', { clientId: ids.delhi, lines: [line] }, INDIA);
    const printed = pdfText((await pdf('inAdmin', intra.body.id, INDIA)).bytes);
    expect(printed).toContain(`Recipient GSTIN: ${gstin('27AAPFU0939F1Z')}`);
    expect(printed).toContain('Place of supply: Maharashtra (IN-MH)');
    expect(printed).toContain('998222');
    expect(inter.body.taxSummary.map((s) => [s.code, s.ratePercent, s.amount])).toEqual([['IGST', 18, 180000]]);
  });
});

describe('numbering under concurrent sends', () => {
  it('never skips or repeats a number when many drafts are sent at once', async () => {
    const drafts = await Promise.all(Array.from({ length: 12 }, () => draft('admin', { clientId: ids.other, lines: [fee(100)] })));
    const before = (await call<Invoice[]>('GET', `${invoices()}?limit=500`, tokens.admin)).body.filter((i) => i.number).length;
    const sent = await Promise.all(drafts.map((d) => act('admin', d.body.id, 'send')));
    expect(sent.map((s) => s.status)).toEqual(drafts.map(() => 200));
    const numbers = sent.map((s) => Number(s.body.number!.replace('UK-', ''))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => before + 1 + i));
    // Sending the same draft twice at once numbers it once.
    const one = await draft('admin', { clientId: ids.other, lines: [fee(100)] });
    const twice = await Promise.all([act('admin', one.body.id, 'send'), act('admin', one.body.id, 'send')]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    const all = (await call<Invoice[]>('GET', `${invoices()}?limit=500`, tokens.admin)).body.filter((i) => i.number).map((i) => i.number).sort();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(before + 13);
  });
});

describe('recurring invoices (a schedule on a draft)', () => {
  const schedulePath = (id: number, tenant = UK) => `${invoices(tenant)}/${id}/schedule`;
  it('an Admin makes a draft recur monthly or quarterly; staff who reach the client read it; it is stopped; bad input, sent invoices and others are refused', async () => {
    const template = (await draft('admin', { clientId: ids.own, lines: [fee(30000)], notes: 'Monthly bookkeeping' })).body;
    expect((await call('GET', schedulePath(template.id), tokens.admin)).status).toBe(404);
    const today = todayIn('UTC');
    const set = await call<InvoiceSchedule>('PUT', schedulePath(template.id), tokens.admin, { frequency: 'monthly', nextIssueDate: addDays(today, 1), dueInDays: 10 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ templateId: template.id, frequency: 'monthly', nextIssueDate: addDays(today, 1), dueInDays: 10, active: true, pausedReason: null, lastInvoiceId: null });
    // Changed to quarterly, the firm's terms: replaced, not added.
    const quarterly = await call<InvoiceSchedule>('PUT', schedulePath(template.id), tokens.admin, { frequency: 'quarterly', nextIssueDate: addDays(today, 2) });
    expect(quarterly.body).toMatchObject({ frequency: 'quarterly', nextIssueDate: addDays(today, 2), dueInDays: null });
    for (const who of ['dta', 'cpa']) expect((await call<InvoiceSchedule>('GET', schedulePath(template.id), tokens[who])).body.frequency).toBe('quarterly');
    // A Client user never reads drafts' schedules; a CPA and a DTA do not set them.
    expect((await call('GET', schedulePath(template.id), tokens.client)).status).toBe(403);
    for (const who of ['cpa', 'dta', 'client']) expect((await call('PUT', schedulePath(template.id), tokens[who], { frequency: 'monthly', nextIssueDate: addDays(today, 1) })).status).toBe(403);
    for (const bad of [{ frequency: 'weekly', nextIssueDate: addDays(today, 1) }, { frequency: 'monthly' }, { frequency: 'monthly', nextIssueDate: addDays(today, -1) },
      { frequency: 'monthly', nextIssueDate: '2027-02-30' }, { frequency: 'monthly', nextIssueDate: addDays(today, 1), dueInDays: 400 }]) {
      const r = await call('PUT', schedulePath(template.id), tokens.admin, bad);
      expect([r.status, typeof r.body.message]).toEqual([400, 'string']);
    }
    // Only a draft is a template; a draft without lines is refused as for sending.
    expect((await call('PUT', schedulePath(ids.first!), tokens.admin, { frequency: 'monthly', nextIssueDate: addDays(today, 1) })).status).toBe(409);
    const empty = (await draft('admin', { clientId: ids.own, lines: [] })).body;
    expect((await call('PUT', schedulePath(empty.id), tokens.admin, { frequency: 'monthly', nextIssueDate: addDays(today, 1) })).status).toBe(400);
    // Another firm: 404 in its own, refused in this one.
    expect((await call('GET', schedulePath(template.id, BETA), tokens.betaAdmin)).status).toBe(404);
    expect((await call('DELETE', schedulePath(template.id, BETA), tokens.betaAdmin)).status).toBe(404);
    expect((await call('GET', schedulePath(template.id), tokens.betaAdmin)).status).toBeGreaterThanOrEqual(401);
    // Stopped: gone, and stopping again is 404.
    expect((await call('DELETE', schedulePath(template.id), tokens.cpa)).status).toBe(403);
    expect((await call('DELETE', schedulePath(template.id), tokens.admin)).body).toEqual({ message: 'Schedule stopped' });
    expect((await call('GET', schedulePath(template.id), tokens.admin)).status).toBe(404);
    expect((await call('DELETE', schedulePath(template.id), tokens.admin)).status).toBe(404);
  });
});

describe('the editor\'s live preview (POST /invoices/preview)', () => {
  const preview = async (who: string, body: unknown, tenant = UK) => {
    const r = await fetch(`${portal.gatewayUrl}${invoices(tenant)}/preview`, {
      method: 'POST', headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const numberOf = (invoice: Invoice) => Number(/(\d+)$/.exec(invoice.number!)![1]);

  it('answers the PDF the draft would print, marked DRAFT – PREVIEW, in a file qpdf accepts; it saves nothing', async () => {
    const before = (await call<Invoice[]>('GET', `${invoices()}?limit=500`, tokens.admin)).body.length;
    const r = await preview('admin', { clientId: ids.own, lines: [fee(50000, { quantity: 2 })], dueDate: '2099-03-31', notes: 'Thank you' });
    expect([r.status, r.type]).toEqual([200, 'application/pdf']);
    const text = checkedPdfText(r.bytes);
    expect(text).toContain('DRAFT – PREVIEW');
    expect(text).toContain('VAT invoice');
    expect(text).toContain('Invoice number: not numbered (draft)');
    expect(text).toContain('Self assessment return');
    // Two at £500.00 with VAT 20 %, as creating the draft would compute it.
    expect(text).toContain('£1,200.00');
    expect(text).toContain('Thank you');
    expect((await call<Invoice[]>('GET', `${invoices()}?limit=500`, tokens.admin)).body).toHaveLength(before);
  });

  it('takes no number: the invoice sent after previews takes the one after the invoice sent before them', async () => {
    const first = (await draft('admin', { clientId: ids.own, lines: [fee()] })).body;
    const firstNumber = numberOf((await act('admin', first.id, 'send')).body);
    for (let i = 0; i < 3; i++) expect((await preview('admin', { clientId: ids.own, lines: [fee(1000 * (i + 1))] })).status).toBe(200);
    const second = (await draft('admin', { clientId: ids.own, lines: [fee()] })).body;
    expect(numberOf((await act('admin', second.id, 'send')).body)).toBe(firstNumber + 1);
  });

  it('is the Admin\'s, as creating invoices; bad bodies are 400; another firm\'s client is 404', async () => {
    for (const who of ['dta', 'cpa', 'client']) expect((await preview(who, { clientId: ids.own, lines: [fee()] })).status).toBe(403);
    for (const bad of [{}, { clientId: ids.own, lines: 'x' }, { clientId: ids.own, lines: [{ description: 'x', unitPrice: -1 }] }, { clientId: 'one', lines: [] }]) {
      expect((await preview('admin', bad)).status).toBe(400);
    }
    expect((await preview('admin', { clientId: 999_999, lines: [fee()] })).status).toBe(404);
    expect((await preview('betaAdmin', { clientId: ids.own, lines: [fee()] })).status).toBeGreaterThanOrEqual(401);
    // Its own firm's preview: its own (US) invoice, nothing of this firm's registration.
    const beta = await preview('betaAdmin', { clientId: ids.beta, lines: [fee()] }, BETA);
    expect(beta.status).toBe(200);
    expect(checkedPdfText(beta.bytes)).not.toContain('GB980780684');
    expect((await preview('betaAdmin', { clientId: 999_999, lines: [fee()] }, BETA)).status).toBe(404);
  });
});
