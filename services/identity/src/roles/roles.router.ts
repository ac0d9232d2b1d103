import express, { type RequestHandler, type Router } from 'express';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { roleInputSchema } from '@ledgerline/contracts/identity.contracts.ts';
import { requireTenantAdmin } from '../access-rules.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { RoleStore } from './role.store.ts';
import { ROLES, sameRoleName } from '@ledgerline/kit/auth/roles.ts';

const isClientRoleName = (name: string) => sameRoleName(name, ROLES.client);

export function createRolesRouter(deps: {
  api: ApiRegistry; roles: RoleStore; provider: IdentityProvider; authenticated: RequestHandler[]; tenantOf: (res: express.Response) => Promise<TenantRequest>;
  /** Hands the firm's second-factor policy to the provider again (it covers Client users and staff apart). */
  applyPolicy: (t: TenantRequest) => Promise<void>;
}): Router {
  const { api, roles, provider, tenantOf } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const id = (params: Record<string, string>) => parsePathId(params.id);

  api.route(router, { method: 'get', path: '/api/roles', summary: 'Roles of the firm', before }, async ({ res }) => {
    const t = await tenantOf(res);
    return roles.list(t.db);
  });

  api.route(router, { method: 'post', path: '/api/roles', summary: 'Create a role (Admin)', status: 201, body: roleInputSchema, before }, async ({ res, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const role = await t.db.transaction(async (tx) => {
      const created = await roles.create(tx, body.name, body.revealTaxIds);
      await enqueueEvents(tx, [newEvent('role.upserted', t.company.shortName, created)]);
      return created;
    });
    await provider.upsertRole(t.company.shortName, role.name);
    return role;
  });

  api.route(router, { method: 'put', path: '/api/roles/:id', summary: 'Rename a role, or set whether its users may reveal whole tax IDs (Admin)', body: roleInputSchema, before }, async ({ res, params, body }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const { before: old, after } = await t.db.transaction(async (tx) => {
      const changed = await roles.update(tx, id(params), body);
      await enqueueEvents(tx, [newEvent('role.upserted', t.company.shortName, changed.after)]);
      return changed;
    });
    if (old.name !== after.name) await provider.renameRole(t.company.shortName, old.name, after.name);
    // Whether a role's users are Client users goes by its name: a rename may move them under the other policy.
    if (isClientRoleName(old.name) !== isClientRoleName(after.name)) await deps.applyPolicy(t);
    return after;
  });

  api.route(router, { method: 'delete', path: '/api/roles/:id', summary: 'Delete a role that no user has (Admin)', before }, async ({ res, params }) => {
    const t = await tenantOf(res);
    requireTenantAdmin(t);
    const role = await t.db.transaction(async (tx) => {
      const removed = await roles.delete(tx, id(params));
      await enqueueEvents(tx, [newEvent('role.deleted', t.company.shortName, removed)]);
      return removed;
    });
    await provider.deleteRole(t.company.shortName, role.name);
    return { message: 'Role deleted successfully' };
  });
  return router;
}
