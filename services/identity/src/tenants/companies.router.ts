import express, { type RequestHandler, type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { INTERNAL_TENANTS_PATH, TENANT_LIST_VERSION_HEADER, type TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import { companyInputSchema, firmSettingsInputSchema, tenantListQuerySchema } from '@ledgerline/contracts/identity.contracts.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { canListCompanies, isTenantAdmin, requirePlatformAdmin } from '../access-rules.ts';
import type { CompanyStore } from './company.store.ts';
import { tenantEventPayload, type TenantService } from './tenant.service.ts';

export function createCompaniesRouter(deps: { api: ApiRegistry; companies: CompanyStore; tenants: TenantService; authenticated: RequestHandler[] }): Router {
  const { api, companies, tenants } = deps;
  const router = express.Router();
  const auth = deps.authenticated;
  const id = (params: Record<string, string>) => parsePathId(params.id);

  api.route(router, { method: 'get', path: '/api/companies', summary: 'Firms: all for platform administrators, their own for a firm\'s Admin and DTA', before: auth }, async ({ res }) => {
    const a = authOf(res);
    if (!canListCompanies(a)) throw new Forbidden('You do not have access to the tenant list.');
    const all = await companies.list();
    return a.claims.platformAdmin ? all : all.filter((c) => c.shortName === a.claims.tenant);
  });

  api.route(router, { method: 'post', path: '/api/companies', summary: 'Create a firm: its schema, every service\'s tables, its realm', status: 201, body: companyInputSchema, before: auth }, ({ res, body }) => {
    requirePlatformAdmin(authOf(res));
    return tenants.create(body, authOf(res).token);
  });

  api.route(router, { method: 'put', path: '/api/companies/:id', summary: 'Update a firm (the schema name never changes)', body: companyInputSchema, before: auth }, ({ res, params, body }) => {
    requirePlatformAdmin(authOf(res));
    return tenants.update(id(params), body);
  });

  api.route(router, { method: 'delete', path: '/api/companies/:id', summary: 'Remove a firm\'s record; its data is preserved', before: auth }, async ({ res, params }) => {
    requirePlatformAdmin(authOf(res));
    const removed = await tenants.delete(id(params));
    return { message: 'Tenant Deleted Successfully', company: removed };
  });

  api.route(router, { method: 'post', path: '/api/companies/:id/schema/refresh', summary: 'Apply every service\'s pending migrations to the firm\'s schema', before: auth }, async ({ res, params }) => {
    requirePlatformAdmin(authOf(res));
    const actions = await tenants.refreshSchema(id(params), authOf(res).token);
    return { refreshResult: { actions } };
  });

  api.route(router, { method: 'put', path: '/api/firm-settings', summary: 'A firm Admin sets their firm\'s time zone (null: the platform\'s default)', body: firmSettingsInputSchema, before: auth }, ({ res, body }) => {
    const a = authOf(res);
    if (!isTenantAdmin(a) || !a.tenant) throw new Forbidden('Only administrators can change the firm\'s settings.');
    return tenants.setTimeZone(a.tenant, body.timeZone);
  });

  // Service port only (the gateway never routes /internal): routing and schema followers read it.
  // `?since=<version>`: 304 without a body while the list is unchanged (the pollers' usual answer).
  router.get(INTERNAL_TENANTS_PATH, async (req, res) => {
    const { since } = parseInput(tenantListQuerySchema, req.query);
    const { version, list } = await companies.current();
    res.setHeader(TENANT_LIST_VERSION_HEADER, version);
    if (since === version) {
      res.status(304).end();
      return;
    }
    res.json(list.map(tenantEventPayload) satisfies TenantEventPayload[]);
  });
  return router;
}
