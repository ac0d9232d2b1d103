import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, GENERATION_YEARS, generationQuerySchema, scheduleDeleteQuerySchema, scheduleInputSchema, scheduleListQuerySchema, scheduleUpdateSchema,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { ScheduleService } from './schedule.service.ts';
import type { ScheduleStore } from './schedule.store.ts';

const yearOf = (value: string | undefined): number => {
  const year = Number(value);
  if (!/^\d{4}$/.test(value ?? '') || year < GENERATION_YEARS.min || year > GENERATION_YEARS.max) throw new Invalid(COMPLIANCE_MESSAGES.year);
  return year;
};

/** Spec 001 §7 "Compliance" schedules; the /api/{tenant} form reaches the same routes through the gateway. */
export function createSchedulesRouter(deps: { api: ApiRegistry; schedules: ScheduleStore; service: ScheduleService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, schedules, service, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, { method: 'get', path: '/api/compliance-schedules', summary: 'Compliance schedules within the caller\'s reach (staff)', query: scheduleListQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return schedules.list(t.db, staffReach(t), query.clientId);
  });

  api.route(router, { method: 'post', path: '/api/compliance-schedules', summary: 'Create a compliance schedule for a client and report type', status: 201, body: scheduleInputSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    return service.create(t, body);
  });

  api.route(router, {
    method: 'put', path: '/api/compliance-schedules/:scheduleId', summary: 'Replace a schedule (the create fields, isActive and periodLagMonths); items made before keep their dates',
    body: scheduleUpdateSchema, before,
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.update(t, parsePathId(params.scheduleId, COMPLIANCE_MESSAGES.scheduleNotFound), body);
  });

  api.route(router, {
    method: 'delete', path: '/api/compliance-schedules/:scheduleId', summary: 'Delete a schedule; ?deleteItems=pending removes its pending items too (none, the default, keeps them)',
    query: scheduleDeleteQuerySchema, before,
  }, async ({ res, params, query }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.delete(t, parsePathId(params.scheduleId, COMPLIANCE_MESSAGES.scheduleNotFound), query.deleteItems);
  });

  api.route(router, {
    method: 'post', path: '/api/compliance-schedules/generate/:year',
    summary: 'Create the year\'s missing tracker items of every active schedule within reach (?clientId: of one client; ?from=YYYY-MM-DD: only periods ending on or after it; ?earlier=filed: the periods before it made as filed)',
    query: generationQuerySchema, pathParams: { year: { type: 'integer', minimum: GENERATION_YEARS.min, maximum: GENERATION_YEARS.max } }, before,
  }, async ({ res, params, query }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.generateAll(t, yearOf(params.year), query.clientId, query.from, query.earlier);
  });

  api.route(router, {
    method: 'post', path: '/api/compliance-schedules/:scheduleId/generate/:year',
    summary: 'Create the year\'s tracker items of a schedule (those missing only; ?from=YYYY-MM-DD: only periods ending on or after it; ?earlier=filed: the periods before it made as filed)',
    query: generationQuerySchema.pick({ from: true, earlier: true }), pathParams: { year: { type: 'integer', minimum: GENERATION_YEARS.min, maximum: GENERATION_YEARS.max } }, before,
  }, async ({ res, params, query }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.generate(t, parsePathId(params.scheduleId, COMPLIANCE_MESSAGES.scheduleNotFound), yearOf(params.year), query.from, query.earlier);
  });
  return router;
}
