import express, { type Router } from 'express';
import { canReadClient } from '@ledgerline/kit/access/access-scope.ts';
import { actorName } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { DB_INT_MAX, idSchema, intSchema } from '@ledgerline/contracts/scalars.ts';
import type { ClientEngagementDetails, DashboardOverview, UserActivityDetails } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTIVITY_DENIED, visibilityOf } from '../access-rules.ts';
import type { DashboardStore } from './dashboard.store.ts';

export const CLIENT_NOT_FOUND = 'Client not found';

// Platform administrators' entries carry negative user ids (kit/auth/actor-id.ts), so any
// whole number but 0 names a user.
const userIdSchema = intSchema('User id', -DB_INT_MAX, DB_INT_MAX, 'User id must be a whole number').refine((n) => n !== 0, 'User id must be a whole number');
const clientIdSchema = idSchema('Client id', 'Client id must be a positive whole number');

export function createDashboardRouter(deps: { api: ApiRegistry; dashboard: DashboardStore; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, dashboard, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, {
    method: 'get', path: '/api/dashboard', summary: 'Dashboard figures within what the caller may see (a Client user: their own client)', before,
  }, async ({ res }): Promise<DashboardOverview> => {
    const t = await tenants.ofRequest(res);
    return dashboard.overview(t.db, visibilityOf(t));
  });

  api.route(router, {
    method: 'get', path: '/api/dashboard/users/:userId/activity', summary: 'One user\'s activity within the caller\'s reach (a Client user: only their own)', before,
    // Platform administrators' entries carry their id negated.
    pathParams: { userId: { type: 'integer', minimum: -DB_INT_MAX, maximum: DB_INT_MAX, not: { const: 0 } } },
  }, async ({ res, params }): Promise<UserActivityDetails> => {
    const t = await tenants.ofRequest(res);
    const v = visibilityOf(t);
    const userId = parseInput(userIdSchema, params.userId);
    if (v.isClient && userId !== v.userId) throw new Forbidden(ACTIVITY_DENIED.otherUsersActivity);
    const details = await dashboard.userActivity(t.db, v, userId);
    // Nothing visible recorded: the screen shows its empty state; only the caller's own name is known here.
    return { ...details, userName: details.userName ?? (userId === v.userId ? actorName(t.claims) : '') };
  });

  api.route(router, {
    method: 'get', path: '/api/dashboard/clients/:clientId/engagement', summary: 'One client\'s documents and activity (404 outside the caller\'s access list)', before,
  }, async ({ res, params }): Promise<ClientEngagementDetails> => {
    const t = await tenants.ofRequest(res);
    const clientId = parseInput(clientIdSchema, params.clientId);
    // Outside the caller's list it answers as missing, so its existence is not revealed.
    if (!canReadClient(t.scope, clientId)) throw new NotFound(CLIENT_NOT_FOUND);
    const details = await dashboard.clientEngagement(t.db, visibilityOf(t), clientId);
    if (!details) throw new NotFound(CLIENT_NOT_FOUND);
    return details;
  });
  return router;
}
