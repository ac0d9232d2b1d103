import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import {
  REPORT_TYPE_DELETED, REPORT_TYPE_UPSERTED, reportTypeInputSchema, type ReportType, type ReportTypeEvent,
} from '@ledgerline/contracts/directory.contracts.ts';
import { requireAdmin } from '../access-rules.ts';
import type { TenantRequest, ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ReportTypeStore } from './report-type.store.ts';

const event = (type: string, t: TenantRequest, r: ReportType) => newEvent<ReportTypeEvent>(type, t.shortName, { id: r.id, name: r.name });

export function createReportTypesRouter(deps: { api: ApiRegistry; reportTypes: ReportTypeStore; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, reportTypes, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (params: Record<string, string>) => parsePathId(params.id);

  /** Admin only; the change and its event commit together. */
  const change = async (res: express.Response, type: string, write: (tx: Queryable) => Promise<ReportType>) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'reportTypes');
    return t.db.transaction(async (tx) => {
      const reportType = await write(tx);
      await enqueueEvents(tx, [event(type, t, reportType)]);
      return reportType;
    });
  };

  api.route(router, { method: 'get', path: '/api/report-types', summary: 'Report types the caller may see', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    return reportTypes.list(t.db, t.scope.reportTypes);
  });

  api.route(router, { method: 'post', path: '/api/report-types', summary: 'Create a report type (Admin)', status: 201, body: reportTypeInputSchema, before }, ({ res, body }) =>
    change(res, REPORT_TYPE_UPSERTED, (tx) => reportTypes.create(tx, body)));

  api.route(router, { method: 'put', path: '/api/report-types/:id', summary: 'Update a report type (Admin)', body: reportTypeInputSchema, before }, ({ res, params, body }) =>
    change(res, REPORT_TYPE_UPSERTED, (tx) => reportTypes.update(tx, id(params), body)));

  api.route(router, { method: 'delete', path: '/api/report-types/:id', summary: 'Delete a report type (Admin)', before }, async ({ res, params }) => {
    await change(res, REPORT_TYPE_DELETED, (tx) => reportTypes.delete(tx, id(params)));
    return { message: 'Report type deleted successfully' };
  });
  return router;
}
