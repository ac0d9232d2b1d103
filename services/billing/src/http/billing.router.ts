import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { TAX_JURISDICTIONS } from '@ledgerline/contracts/billing-tax.ts';
import {
  BILLING_MESSAGES, billingServiceInputSchema, billingSettingsInputSchema, invoiceInputSchema, invoiceListQuerySchema, invoiceUpdateSchema, paymentInputSchema,
  type BillingSettings, type Invoice,
} from '@ledgerline/contracts/billing.contracts.ts';
import { jurisdictionOfState } from '@ledgerline/contracts/directory.contracts.ts';
import { FIRM_COUNTRY_FACTS } from '@ledgerline/contracts/firm-country.ts';
import { compactTaxId, taxIdProblem } from '@ledgerline/contracts/tax-ids.ts';
import { requireBillingAdmin, requireStaff } from '../access-rules.ts';
import type { BillingFirm } from '../invoices/invoice.service.ts';
import { InvoiceService } from '../invoices/invoice.service.ts';
import type { InvoiceStore } from '../invoices/invoice.store.ts';
import { renderInvoicePdf } from '../invoices/invoice-pdf.ts';

export interface BillingRouterDeps {
  api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; store: InvoiceStore; service: InvoiceService;
  firm: (shortName: string) => Promise<BillingFirm>;
  /** Whether a card/bank-debit provider is configured. */
  onlinePayments: boolean;
  /** Where a client pays an invoice online (printed on its PDF), when a provider is configured. */
  payOnlineUrl?: (shortName: string, invoice: Invoice) => string | null;
}

/** Issue 43 calls (plain /api/… and, through the gateway, /api/{tenant}/…). */
export function createBillingRouter(deps: BillingRouterDeps): Router {
  const { api, tenants, store, service, firm } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, tenants.checkCaller)];
  const invoiceId = (v: string | undefined) => parsePathId(v, BILLING_MESSAGES.invoiceNotFound);
  const serviceId = (v: string | undefined) => parsePathId(v, BILLING_MESSAGES.serviceNotFound);

  const settingsOf = async (t: Awaited<ReturnType<ServiceTenants['ofRequest']>>): Promise<BillingSettings> => {
    const f = await firm(t.shortName);
    const { nextSequence: _n, ...s } = await store.settings(t.db);
    const rule = TAX_JURISDICTIONS[f.country];
    return { ...s, country: f.country, currency: f.currency, taxName: rule.taxName, registrationLabel: rule.registration?.label ?? null, onlinePayments: deps.onlinePayments };
  };

  // Settings

  api.route(router, { method: 'get', path: '/api/billing/settings', summary: 'The firm\'s billing settings: invoice prefix, address, tax registration, state, terms, bank details (staff)', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    requireStaff(t.scope);
    return settingsOf(t);
  });

  api.route(router, { method: 'put', path: '/api/billing/settings', summary: 'Save the firm\'s billing settings (Admin); the tax registration is checked for the firm\'s country', body: billingSettingsInputSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireBillingAdmin(t.scope);
    const f = await firm(t.shortName);
    const rule = TAX_JURISDICTIONS[f.country];
    let taxRegistration = body.taxRegistration;
    if (taxRegistration && rule.registration) {
      const problem = taxIdProblem(rule.registration.taxIdType, taxRegistration);
      if (problem) throw new Invalid(problem);
      taxRegistration = compactTaxId(taxRegistration);
    }
    if (body.state && jurisdictionOfState(body.state) !== FIRM_COUNTRY_FACTS[f.country].jurisdiction) throw new Invalid('state must be in the firm\'s country');
    await store.saveSettings(t.db, { ...body, taxRegistration });
    return settingsOf(t);
  });

  // The price list

  api.route(router, { method: 'get', path: '/api/billing/services', summary: 'The firm\'s price list (staff)', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    requireStaff(t.scope);
    return store.services(t.db);
  });

  api.route(router, { method: 'post', path: '/api/billing/services', summary: 'Add a service to the price list (Admin)', status: 201, body: billingServiceInputSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireBillingAdmin(t.scope);
    const id = await store.saveService(t.db, body);
    return store.service(t.db, id!);
  });

  api.route(router, { method: 'put', path: '/api/billing/services/:id', summary: 'Replace a service of the price list (Admin); invoices keep their lines', body: billingServiceInputSchema, before }, async ({ res, body, params }) => {
    const t = await tenants.ofRequest(res);
    requireBillingAdmin(t.scope);
    const id = await store.saveService(t.db, body, serviceId(params.id));
    if (id === null) throw new NotFound(BILLING_MESSAGES.serviceNotFound);
    return store.service(t.db, id);
  });

  api.route(router, { method: 'delete', path: '/api/billing/services/:id', summary: 'Remove a service from the price list (Admin); invoices keep their lines', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    requireBillingAdmin(t.scope);
    if (!await store.deleteService(t.db, serviceId(params.id))) throw new NotFound(BILLING_MESSAGES.serviceNotFound);
    return { message: BILLING_MESSAGES.serviceDeleted };
  });

  // Receivables

  api.route(router, { method: 'get', path: '/api/billing/receivables', summary: 'Open balances per client by days past due: current, 1–30, 31–60, 61–90, over 90 (staff, their clients)', before }, async ({ res }) =>
    service.receivables(await tenants.ofRequest(res)));

  // Invoices

  api.route(router, { method: 'get', path: '/api/invoices', summary: 'Invoices the caller reaches, newest first (a Client user: their own, sent ones only)', query: invoiceListQuerySchema, before }, async ({ res, query }) =>
    service.list(await tenants.ofRequest(res), query));

  api.route(router, { method: 'post', path: '/api/invoices', summary: 'Draft an invoice (Admin): lines default to the price list\'s price and the jurisdiction\'s rate', status: 201, body: invoiceInputSchema, before }, async ({ res, body }) =>
    service.create(await tenants.ofRequest(res), body));

  const issuerOf = async (t: Awaited<ReturnType<ServiceTenants['ofRequest']>>, invoice: Invoice) => {
    const [f, settings] = await Promise.all([firm(t.shortName), store.settings(t.db)]);
    return {
      name: f.name, address: settings.address, taxRegistration: settings.taxRegistration, bankDetails: settings.bankDetails,
      payOnlineUrl: deps.payOnlineUrl ? deps.payOnlineUrl(t.shortName, invoice) : null,
    };
  };
  const sendPdf = (res: express.Response, pdf: Uint8Array, name: string) => {
    res.status(200).type('application/pdf').setHeader('content-disposition', `inline; filename="${name.replace(/[^A-Za-z0-9.\-_]/g, '_')}"`);
    res.setHeader('cache-control', 'private, no-store');
    res.end(Buffer.from(pdf));
  };

  api.route(router, {
    method: 'post', path: '/api/invoices/preview', body: invoiceInputSchema, before,
    summary: 'The PDF a draft with this body (as for creating one) would print, marked DRAFT – PREVIEW (Admin): nothing is saved and no number is taken',
  }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    const invoice = await service.preview(t, body);
    sendPdf(res, await renderInvoicePdf(invoice, await issuerOf(t, invoice), { preview: true }), 'invoice-preview.pdf');
  });

  api.route(router, { method: 'get', path: '/api/invoices/:id', summary: 'An invoice with its lines, tax and payments; canPayOnline says whether Pay now can work', before }, async ({ res, params }) => {
    const invoice = InvoiceService.shown(await service.get(await tenants.ofRequest(res), invoiceId(params.id)));
    return { ...invoice, canPayOnline: deps.onlinePayments && (invoice.status === 'sent' || invoice.status === 'partially_paid') && invoice.balance > 0 };
  });

  api.route(router, { method: 'get', path: '/api/invoices/:id/pdf', summary: 'The invoice as a PDF with every field its jurisdiction requires (who may read the invoice)', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const invoice = await service.get(t, invoiceId(params.id));
    sendPdf(res, await renderInvoicePdf(invoice, await issuerOf(t, invoice)), `${invoice.number ?? `draft-${invoice.id}`}.pdf`);
  });

  api.route(router, { method: 'patch', path: '/api/invoices/:id', summary: 'Edit a draft invoice (Admin)', body: invoiceUpdateSchema, before }, async ({ res, params, body }) =>
    service.update(await tenants.ofRequest(res), invoiceId(params.id), body));

  api.route(router, { method: 'delete', path: '/api/invoices/:id', summary: 'Delete a draft invoice (Admin); a sent one is voided instead', before }, async ({ res, params }) =>
    service.delete(await tenants.ofRequest(res), invoiceId(params.id)));

  api.route(router, { method: 'post', path: '/api/invoices/:id/send', summary: 'Send a draft (Admin): it takes the firm\'s next invoice number and its dates', before }, async ({ res, params }) =>
    service.send(await tenants.ofRequest(res), invoiceId(params.id)));

  api.route(router, { method: 'post', path: '/api/invoices/:id/void', summary: 'Void a sent invoice (Admin); it keeps its number', before }, async ({ res, params }) =>
    service.void(await tenants.ofRequest(res), invoiceId(params.id)));

  api.route(router, { method: 'post', path: '/api/invoices/:id/payments', summary: 'Record a cheque, cash or bank transfer received (Admin): part leaves it partially paid, the balance pays it', status: 201, body: paymentInputSchema, before }, async ({ res, params, body }) =>
    service.recordPayment(await tenants.ofRequest(res), invoiceId(params.id), body));

  return router;
}
