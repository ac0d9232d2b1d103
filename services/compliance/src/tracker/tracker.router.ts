import express, { type Response, type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES, trackerClientQuerySchema, trackerExtendSchema, trackerListQuerySchema, trackerUpdateSchema } from '@ledgerline/contracts/compliance.contracts.ts';
import { readReach, staffReach } from '../access-rules.ts';
import type { TrackerService } from './tracker.service.ts';
import type { ItemList, TrackerStore } from './tracker.store.ts';

/** Spec 001 §7 "Compliance" tracker: reads for staff within their lists and Client users (own client); PUT for staff. */
export function createTrackerRouter(deps: { api: ApiRegistry; items: TrackerStore; service: TrackerService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, items, service, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens)];
  // The store hands lists over as JSON text written by PostgreSQL: sent as they are.
  const sendList = (res: Response, list: ItemList) => {
    if (list.total !== null) res.setHeader('X-Total-Count', String(list.total));
    if (list.capped) res.setHeader('X-Total-Count-Capped', 'true');
    if (list.dayCounts !== undefined) res.setHeader('X-Day-Counts', list.dayCounts);
    res.type('application/json').send(list.json);
  };
  const paging = ', paged with limit and offset (X-Total-Count)';

  api.route(router, { method: 'get', path: '/api/compliance-tracker', summary: `Tracker items by client and status, or by due-date range (the extended due date once extended), soonest due first${paging}; with a range, perDay caps each due day's items and X-Day-Counts tells each day's totals`, query: trackerListQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    sendList(res, await items.list(t.db, readReach(t), query));
  });

  api.route(router, { method: 'get', path: '/api/compliance-tracker/overdue', summary: `Items past the day they are due in effect (the extended due date once extended) and not filed${paging}`, query: trackerClientQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    sendList(res, await items.overdue(t.db, readReach(t), query.clientId, query));
  });

  api.route(router, { method: 'get', path: '/api/compliance-tracker/upcoming', summary: `Items due within 30 days and not filed${paging}`, query: trackerClientQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    sendList(res, await items.upcoming(t.db, readReach(t), query.clientId, query));
  });

  // An insight's or a notification's link opens one item (/compliance?item=12): read like the lists.
  api.route(router, { method: 'get', path: '/api/compliance-tracker/:id', summary: 'One tracker item within the caller\'s reach (staff within their lists, a Client user their own client\'s)', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const item = await items.get(t.db, readReach(t), parsePathId(params.id, COMPLIANCE_MESSAGES.itemNotFound));
    if (!item) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
    return item;
  });

  api.route(router, { method: 'put', path: '/api/compliance-tracker/:id', summary: 'Update an item\'s status, filed date, extension, remarks or assignee', body: trackerUpdateSchema, before }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.update(t, parsePathId(params.id, COMPLIANCE_MESSAGES.itemNotFound), body);
  });

  api.route(router, {
    method: 'post', path: '/api/compliance-tracker/:id/extend',
    summary: 'Mark an item extended: to extendedDueDate when given, else the day its calendar entry\'s extension rule gives (Form 4868, 7004), moved to a business day',
    body: trackerExtendSchema, before,
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    staffReach(t);
    return service.extend(t, parsePathId(params.id, COMPLIANCE_MESSAGES.itemNotFound), body);
  });
  return router;
}
