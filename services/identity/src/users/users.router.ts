import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { storedUserScope } from '@ledgerline/kit/access/access-scope.ts';
import { mayMessage } from '@ledgerline/kit/access/message-partners.ts';
import { Conflict, NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { internalUserAccessPath, type StoredUserAccess } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { idSchema } from '@ledgerline/contracts/scalars.ts';
import { reportAccessGrantSchema, userInputSchema, userUpdateSchema, type User, type UserSummary } from '@ledgerline/contracts/identity.contracts.ts';
import { isTenantAdmin, requireSelfOrManager, requireStaff, requireTenantAdmin } from '../access-rules.ts';
import { storedUserOf } from '../auth/authenticate-caller.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { UserService } from './user.service.ts';
import type { UserStore } from './user.store.ts';

const scopeOf = (u: User) => storedUserScope({ role: u.role, clientIds: u.clientIds ?? [], reportTypeIds: u.reportTypeIds ?? [] });

const listQuery = z.object({ clientId: idSchema('clientId').optional() });

export function createUsersRouter(deps: {
  api: ApiRegistry; users: UserStore; userService: UserService; authenticated: RequestHandler[]; tenantOf: (res: express.Response) => Promise<TenantRequest>;
}): Router {
  const { api, users, userService, tenantOf } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const id = (params: Record<string, string>) => parsePathId(params.id);

  // The messaging screen's people picker calls this path too (spec 001 §7 "Messaging"): whoever
  // may not manage users gets the users they may message, themselves included, and of them
  // only what the picker shows (others' access lists are the Admin's business, as in client-access).
  api.route(router, { method: 'get', path: '/api/users', summary: 'Users of the firm (Admin); anyone else: the users they may message, themselves included', query: listQuery, before }, async ({ res, query }) => {
    const t = await tenantOf(res);
    const all = await users.list(t.db, query);
    if (isTenantAdmin(t)) return all;
    const caller = storedUserOf(res);
    if (!caller) throw new Unauthenticated();
    const callerScope = scopeOf(caller);
    return all.filter((u) => u.id === caller.id || mayMessage(callerScope, scopeOf(u)))
      .map((u): UserSummary => ({ id: u.id, username: u.username, fullName: u.fullName, role: u.role }));
  });

  // Service port only (the gateway never routes /internal): a service whose read model does not
  // know a user yet (made a moment ago) asks for their access with its caller's token.
  router.get(internalUserAccessPath(':id'), ...before, async (req, res) => {
    const t = await tenantOf(res);
    const user = await users.find(t.db, id(req.params as Record<string, string>));
    if (!user) throw new NotFound('User not found');
    const stored: StoredUserAccess = { roleId: user.roleId, role: user.role, clientIds: user.clientIds ?? [], reportTypeIds: user.reportTypeIds ?? [] };
    res.json(stored);
  });

  api.route(router, { method: 'get', path: '/api/users/:id', summary: 'One user (staff, or the user)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    const userId = id(params);
    if (t.claims.sub !== String(userId)) requireStaff(t);
    return users.get(t.db, userId);
  });

  api.route(router, { method: 'get', path: '/api/users/:id/client-access', summary: 'Client ids the user may see, in order (a Client user\'s first is their client)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    const userId = id(params);
    requireSelfOrManager(t, userId);
    return (await users.get(t.db, userId)).clientIds ?? [];
  });

  api.route(router, { method: 'get', path: '/api/users/:id/report-access', summary: 'Report type ids the user may see', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    const userId = id(params);
    requireSelfOrManager(t, userId);
    return (await users.get(t.db, userId)).reportTypeIds ?? [];
  });

  api.route(router, {
    method: 'post', path: '/api/users/:id/report-access', summary: 'Add report types to a CPA\'s or custom-role user\'s list, keeping the rest (Admin); answers the ids added',
    body: reportAccessGrantSchema, before,
  }, async ({ res, params, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return userService.grantReportTypes(t, id(params), body.reportTypeIds);
  });

  api.route(router, { method: 'post', path: '/api/users', summary: 'Create a user (Admin)', status: 201, body: userInputSchema, before }, async ({ res, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return userService.create(t, body);
  });

  api.route(router, { method: 'put', path: '/api/users/:id', summary: 'Update a user; a blank password keeps the current one (Admin)', body: userUpdateSchema, before }, async ({ res, params, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return userService.update(t, id(params), body);
  });

  api.route(router, { method: 'delete', path: '/api/users/:id', summary: 'Delete a user (Admin)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const userId = id(params);
    if (!t.claims.platformAdmin && t.claims.sub === String(userId)) throw new Conflict('You cannot delete your own account.');
    await userService.delete(t, userId);
    return { message: 'User deleted successfully.' };
  });
  return router;
}
