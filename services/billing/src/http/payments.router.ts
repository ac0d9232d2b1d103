import express, { type Router } from 'express';
import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Conflict, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { rawBodyOf } from '@ledgerline/kit/http/service-app.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { BILLING_MESSAGES, type CheckoutStart } from '@ledgerline/contracts/billing.contracts.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import type { BillingFirm, InvoiceService } from '../invoices/invoice.service.ts';
import type { PaymentProvider } from '../payments/payment-provider.ts';

export const STRIPE_WEBHOOK_PATH = '/api/billing/stripe/webhook';

/** Where a client lands back in the portal after paying (or not) online. */
export const invoicePageUrl = (publicBaseUrl: string, tenant: string, invoiceId: number): string =>
  `${publicBaseUrl.replace(/\/$/, '')}/${tenant}/invoices/${invoiceId}`;

/** Online payment: a checkout for whoever may read the invoice, and the provider's webhook. */
export function createPaymentsRouter(deps: {
  api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; service: InvoiceService; logger: Logger;
  firm: (shortName: string) => Promise<BillingFirm>; provider: PaymentProvider | null; publicBaseUrl: string;
}): Router {
  const { api, tenants, service, provider, firm } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, tenants.checkCaller)];

  api.route(router, {
    method: 'post', path: '/api/invoices/:id/checkout', before,
    summary: 'Start paying an invoice\'s balance online (whoever may read it): the address of the provider\'s checkout. 409 when no provider is configured',
  }, async ({ res, params }): Promise<CheckoutStart> => {
    const t = await tenants.ofRequest(res);
    const invoice = await service.get(t, parsePathId(params.id, BILLING_MESSAGES.invoiceNotFound));
    if (!provider) throw new Conflict(BILLING_MESSAGES.noProvider);
    if ((invoice.status !== 'sent' && invoice.status !== 'partially_paid') || invoice.balance <= 0) throw new Conflict(BILLING_MESSAGES.paidAlready);
    const page = invoicePageUrl(deps.publicBaseUrl, t.shortName, invoice.id);
    const f = await firm(t.shortName);
    const { url } = await provider.createCheckout({
      tenant: t.shortName, invoiceId: invoice.id, invoiceNumber: invoice.number!, firmName: f.name, clientName: invoice.clientName,
      currency: invoice.currency, amount: invoice.balance, successUrl: `${page}?payment=done`, cancelUrl: `${page}?payment=cancelled`,
    });
    return { url };
  });

  api.route(router, {
    method: 'post', path: STRIPE_WEBHOOK_PATH, public: true,
    summary: 'Stripe\'s webhook (signed with the endpoint\'s secret; a forged, stale or replayed delivery records nothing). 404 when Stripe is not configured',
  }, async ({ req }) => {
    if (provider?.name !== 'stripe') throw new NotFound(`Not found: ${req.method} ${req.path}`);
    const raw = rawBodyOf(req);
    if (!raw) throw new Invalid('A webhook body must be JSON');
    const payment = provider.paymentOf(raw, req.header('stripe-signature'));
    if (!payment) return { received: true, recorded: false };
    const handle = await tenants.byName(payment.tenant);
    const f = await firm(payment.tenant);
    const recorded = await service.applyPayment(handle.db, payment.tenant, payment.invoiceId, PLATFORM_ADMIN_SCOPE, {
      amount: payment.amount, method: payment.method, receivedOn: todayIn(f.timeZone), reference: payment.reference,
      providerEventId: payment.eventId, recordedById: null,
    }, SYSTEM_ACTOR);
    if (recorded) deps.logger.info({ tenant: payment.tenant, invoiceId: payment.invoiceId, amount: payment.amount, eventId: payment.eventId }, 'online payment recorded');
    return { received: true, recorded };
  });

  return router;
}
