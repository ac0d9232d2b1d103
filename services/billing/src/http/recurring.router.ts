import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { BILLING_MESSAGES, invoiceScheduleInputSchema } from '@ledgerline/contracts/billing.contracts.ts';
import type { RecurringInvoices } from '../invoices/recurring-invoices.ts';

/** A draft's schedule: it issues and sends a copy monthly or quarterly (docs/using/billing.md). */
export function createRecurringRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; recurring: RecurringInvoices }): Router {
  const { api, tenants, recurring } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, tenants.checkCaller)];
  const templateId = (v: string | undefined) => parsePathId(v, BILLING_MESSAGES.invoiceNotFound);

  api.route(router, { method: 'get', path: '/api/invoices/:id/schedule', summary: 'A draft\'s recurring schedule (staff who reach its client); 404 when it has none', before }, async ({ res, params }) =>
    recurring.get(await tenants.ofRequest(res), templateId(params.id)));

  api.route(router, {
    method: 'put', path: '/api/invoices/:id/schedule', before, body: invoiceScheduleInputSchema,
    summary: 'Make a draft recur (Admin): monthly or quarterly from nextIssueDate, each copy numbered and sent at 09:00 in the firm\'s zone',
  }, async ({ res, params, body }) => recurring.set(await tenants.ofRequest(res), templateId(params.id), body));

  api.route(router, { method: 'delete', path: '/api/invoices/:id/schedule', summary: 'Stop a draft\'s recurring schedule (Admin); invoices issued stay', before }, async ({ res, params }) =>
    recurring.stop(await tenants.ofRequest(res), templateId(params.id)));

  return router;
}
