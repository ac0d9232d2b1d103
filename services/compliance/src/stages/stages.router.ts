import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES } from '@ledgerline/contracts/compliance.contracts.ts';
import { pipelineInputSchema, STAGE_MESSAGES, trackerPatchSchema } from '@ledgerline/contracts/stages.contracts.ts';
import type { StageService } from './stage.service.ts';

/** Issue 42: the firm's pipelines (read by staff, saved by Admins) and an item's move along its own. */
export function createStagesRouter(deps: { api: ApiRegistry; stages: StageService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, stages, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, {
    method: 'get', path: '/api/compliance-pipelines', before,
    summary: 'Each report type\'s stages (the default pipeline where the firm saved none) and its automatic moves; staff, the report types they reach',
  }, async ({ res }) => stages.list(await tenants.ofRequest(res)));

  api.route(router, {
    method: 'put', path: '/api/compliance-pipelines/:reportTypeId', body: pipelineInputSchema, before,
    summary: 'Save a report type\'s pipeline: its stages in order (staff and client names, null hides one from clients) and the stage each automatic move goes to (null: off); Admins',
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    return stages.save(t, parsePathId(params.reportTypeId, STAGE_MESSAGES.reportTypeNotFound), body);
  });

  api.route(router, {
    method: 'patch', path: '/api/compliance-tracker/:id', body: trackerPatchSchema, before,
    summary: 'Move an item to a stage of its report type\'s pipeline (by stage id or staff name); an activity entry and a push follow',
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    return stages.move(t, parsePathId(params.id, COMPLIANCE_MESSAGES.itemNotFound), body.stage);
  });
  return router;
}
