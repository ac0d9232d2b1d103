import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { JURISDICTIONS, presetApplySchema } from '@ledgerline/contracts/compliance.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { PresetService } from './preset.service.ts';

/** The statutory calendars: listed for staff, applied by an Admin or DTA. */
export function createPresetsRouter(deps: { api: ApiRegistry; presets: PresetService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, presets, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, { method: 'get', path: '/api/compliance-presets', summary: 'Statutory compliance calendars (India, US, UK, Australia) with their sources', before }, async ({ res }) => {
    staffReach(await tenants.ofRequest(res));
    return presets.list();
  });

  api.route(router, {
    method: 'post', path: '/api/compliance-presets/:id/apply', summary: 'Create the calendar\'s schedules for the given clients (entryIds, else the entries that fit each client\'s entity type), its missing report types, and grant them to the staff serving the clients (grantToUserIds)',
    body: presetApplySchema, pathParams: { id: { type: 'string', enum: [...JURISDICTIONS] } }, before,
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return presets.apply(t, params.id ?? '', body);
  });
  return router;
}
