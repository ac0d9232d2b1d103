import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { clientFieldSettingsInputSchema, DEFAULT_CLIENT_FIELD_SETTINGS, type ClientFieldSettings } from '@ledgerline/contracts/directory.contracts.ts';
import { requireAdmin } from '../access-rules.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ClientFieldSettingsStore } from './client-field-settings.store.ts';

export function createClientFieldSettingsRouter(deps: { api: ApiRegistry; settings: ClientFieldSettingsStore; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, settings, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const body = clientFieldSettingsInputSchema;

  api.route(router, { method: 'get', path: '/api/client-field-settings', summary: 'The firm\'s client field settings, or the defaults with id null', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    const saved = await settings.find(t.db);
    return saved ?? ({ id: null, ...DEFAULT_CLIENT_FIELD_SETTINGS, createdAt: null, updatedAt: null } satisfies ClientFieldSettings);
  });

  api.route(router, { method: 'post', path: '/api/client-field-settings', summary: 'Save the firm\'s first client field settings (Admin)', status: 201, body, before }, async ({ res, body: input }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'settings');
    return settings.create(t.db, input);
  });

  // The spec's UI sends PUT once an id exists; with or without the id in the path.
  for (const path of ['/api/client-field-settings', '/api/client-field-settings/:id']) {
    api.route(router, { method: 'put', path, summary: 'Update the firm\'s client field settings (Admin)', body, before }, async ({ res, params, body: input }) => {
      const t = await tenants.ofRequest(res);
      requireAdmin(t, 'settings');
      return settings.update(t.db, input, params.id === undefined ? undefined : parsePathId(params.id));
    });
  }
  return router;
}
