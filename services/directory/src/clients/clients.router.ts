import express, { type Router } from 'express';
import { canReadClient } from '@ledgerline/kit/access/access-scope.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { clientPayloadSchema, clientSearchQuerySchema } from '@ledgerline/contracts/directory.contracts.ts';
import { requireAdmin, requireTaxIdReveal } from '../access-rules.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ClientService } from './client.service.ts';
import type { RolePermissions } from './role-permissions.ts';
import { CLIENT_NOT_FOUND, type ClientStore } from './client.store.ts';

export function createClientsRouter(deps: { api: ApiRegistry; clients: ClientStore; clientService: ClientService; permissions: RolePermissions; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, clients, clientService, permissions, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (params: Record<string, string>) => parsePathId(params.id);

  api.route(router, { method: 'get', path: '/api/clients', summary: 'Clients the caller may see; search matches name, email, phone, IDs, address', query: clientSearchQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return clients.list(t.db, { search: query.search, ids: t.scope.clients });
  });

  api.route(router, { method: 'get', path: '/api/clients/:id', summary: 'One client (404 outside the caller\'s access list)', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const clientId = id(params);
    // Outside the caller's list it answers as missing: its existence is not revealed.
    if (!canReadClient(t.scope, clientId)) throw new NotFound(CLIENT_NOT_FOUND);
    return clients.get(t.db, clientId);
  });

  api.route(router, { method: 'get', path: '/api/clients/:id/tax-ids', summary: 'The client\'s whole tax IDs (roles with the reveal tax IDs permission, Admin by default); recorded as a security event', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const clientId = id(params);
    if (!canReadClient(t.scope, clientId)) throw new NotFound(CLIENT_NOT_FOUND);
    await requireTaxIdReveal(t, permissions);
    return clientService.revealTaxIds(t, clientId);
  });

  api.route(router, { method: 'post', path: '/api/clients', summary: 'Create a client, validated by the firm\'s field settings (Admin)', status: 201, body: clientPayloadSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'clients');
    return clientService.create(t, body);
  });

  api.route(router, { method: 'put', path: '/api/clients/:id', summary: 'Update a client (Admin)', body: clientPayloadSchema, before }, async ({ res, body, params }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'clients');
    return clientService.update(t, id(params), body);
  });

  api.route(router, { method: 'delete', path: '/api/clients/:id', summary: 'Delete a client; its files, work data and access entries follow (Admin)', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'clients');
    await clientService.delete(t, id(params));
    return { message: 'Client deleted successfully' };
  });
  return router;
}
