import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { storedUserScope } from '@ledgerline/kit/access/access-scope.ts';
import { mayMessage } from '@ledgerline/kit/access/message-partners.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { hasRole, ROLES, sameRoleName } from '@ledgerline/kit/auth/roles.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { emailPreferencesSchema } from '@ledgerline/contracts/notifications.contracts.ts';
import { INTERNAL_INVITED_CLIENT_USERS_PATH, invitationAcceptSchema, invitationQuerySchema, invitedClientUserSchema } from '@ledgerline/contracts/identity.contracts.ts';
import type { InvitationService } from './invitation.service.ts';
import type { RoleStore } from '../roles/role.store.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
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

/** A user's own settings are theirs alone (an Admin changes what the firm decides, not what they receive). */
function requireSelf(t: TenantRequest, userId: number): void {
  if (t.claims.sub !== String(userId) || t.claims.platformAdmin) throw new Forbidden('You can change only your own settings.');
}

export function createUsersRouter(deps: {
  api: ApiRegistry; users: UserStore; roles: RoleStore; throttle: LoginThrottle; userService: UserService; invitations: InvitationService; authenticated: RequestHandler[]; tenantOf: (res: express.Response) => Promise<TenantRequest>;
}): Router {
  const { api, users, roles, userService, invitations, tenantOf } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const id = (params: Record<string, string>) => parsePathId(params.id);
  // The public invitation calls: a link that is not (or no longer) valid counts against the
  // asking address like a wrong password, so no address tries tokens at length (DESIGN §8).
  const guarded = async <T>(req: express.Request, run: () => Promise<T>): Promise<T> => {
    const key = `invitation:${req.header(TENANT_HEADER) ?? ''}`;
    deps.throttle.assertAllowed(key, clientAddress(req));
    try {
      return await run();
    } catch (err) {
      if (err instanceof NotFound) deps.throttle.recordFailure(key, clientAddress(req));
      throw err;
    }
  };

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

  // Service port only: the client import (directory) makes each row's contacts Client users
  // and invites them, with the importing Admin's or DTA's token (issue 40).
  router.post(INTERNAL_INVITED_CLIENT_USERS_PATH, express.json(), ...before, async (req, res) => {
    const t = await tenantOf(res);
    if (!isTenantAdmin(t) && !hasRole(t.claims, ROLES.dta)) throw new Forbidden('Only administrators and DTAs can import clients.');
    const input = invitedClientUserSchema.parse(req.body);
    const clientRole = (await roles.list(t.db)).find((r) => sameRoleName(r.name, ROLES.client));
    if (!clientRole) throw new Invalid('This firm has no Client role.');
    const user = await userService.create(t, { ...input, password: undefined, roleId: clientRole.id, reportTypeIds: null, invite: true });
    res.status(201).json(user);
  });

  api.route(router, {
    method: 'post', path: '/api/users/:id/invite', status: 201,
    summary: 'E-mails the user a link to set their password (7 days, once); sending again revokes the earlier link (Admin)', before,
  }, async ({ res, params }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return invitations.send(t, id(params));
  });

  api.route(router, { method: 'delete', path: '/api/users/:id/invite', summary: 'Revokes the user\'s pending invitation (Admin)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    return invitations.revoke(t, id(params));
  });

  api.route(router, { method: 'get', path: '/api/users/:id/email-preferences', summary: 'The kinds of e-mail the user turned off (the user themself)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    const userId = id(params);
    requireSelf(t, userId);
    return userService.emailPreferences(t, userId);
  });

  api.route(router, {
    method: 'put', path: '/api/users/:id/email-preferences', summary: 'Turns kinds of e-mail off or on (the user themself)', body: emailPreferencesSchema, before,
  }, async ({ res, params, body }) => {
    const t = await tenantOf(res);
    const userId = id(params);
    requireSelf(t, userId);
    return userService.setEmailPreferences(t, userId, body.off);
  });

  api.route(router, {
    method: 'get', path: '/api/auth/invitation', public: true, query: invitationQuerySchema,
    summary: 'What an invitation link\'s page shows (the firm, the person, how they may sign in); the link stays usable',
  }, ({ req, query }) => guarded(req, () => invitations.info(req.header(TENANT_HEADER) ?? null, query.token)));

  api.route(router, {
    method: 'post', path: '/api/auth/invitation', public: true, body: invitationAcceptSchema,
    summary: 'Uses an invitation link: sets the password (optional for a Client user who may sign in with an e-mailed code)',
  }, ({ req, body }) => guarded(req, () => invitations.accept(req.header(TENANT_HEADER) ?? null, body.token, body.password)));

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
