import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate, authOf, type CallerCheck } from '@ledgerline/kit/http/authenticate.ts';
import type { TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import type { AdminAnalytics } from '@ledgerline/contracts/activity.contracts.ts';
import { requirePlatformAdmin } from '../access-rules.ts';
import type { FirmSummaries } from './firm-summaries.ts';

/**
 * GET /api/admin/analytics: the administrator dashboard's documents and top lists across
 * every active firm, merged from one stored summary per firm (FirmSummaries): the work
 * grows with the firms that changed since the last read, not with every firm.
 */
export function createAdminAnalyticsRouter(deps: {
  api: ApiRegistry; summaries: FirmSummaries; tokens: TokenVerifier; checkCaller: CallerCheck;
  /** The firms as identity lists them now (the registry's source: a fresh list, not a snapshot). */
  firms: () => Promise<TenantEventPayload[]>;
}): Router {
  const router = express.Router();
  deps.api.route(router, {
    method: 'get', path: '/api/admin/analytics', summary: 'Documents and top clients, documents and users across every active firm (platform administrators)',
    before: [authenticate(deps.tokens, deps.checkCaller)],
  }, async ({ res }): Promise<AdminAnalytics> => {
    requirePlatformAdmin(authOf(res));
    const active = (await deps.firms()).filter((f) => f.isActive);
    return deps.summaries.analytics(active.map((f) => ({ schema: tenantSchema(f.schemaName), name: f.name })));
  });
  return router;
}
