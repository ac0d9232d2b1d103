import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { DomainError, NotFound, Unavailable, type ErrorKind } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES } from '@ledgerline/contracts/compliance.contracts.ts';
import { TRACKER_REQUEST_PATH, trackerRequestInputSchema } from '@ledgerline/contracts/requests.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { TrackerStore } from './tracker.store.ts';

const KIND_OF_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };

/**
 * POST /api/compliance-tracker/{id}/document-request: the gateway routes the tracker's paths
 * here, so this service answers it; the request itself belongs to the requests service,
 * called on its port with the caller's own token (its access rules apply too).
 */
export function createTrackerDocumentRequestRouter(deps: { api: ApiRegistry; items: TrackerStore; tokens: TokenVerifier; tenants: ServiceTenants; requestsUrl: () => string }): Router {
  const router = express.Router();
  deps.api.route(router, {
    method: 'post', path: '/api/compliance-tracker/:id/document-request', status: 201, body: trackerRequestInputSchema, before: [authenticate(deps.tokens, deps.tenants.checkCaller)],
    summary: 'Ask the item\'s client for the documents its filing needs (template, else the firm\'s or the calendar\'s checklist for its report type), due daysBefore (default 7) days before the item',
  }, async ({ res, params, body }) => {
    const t = await deps.tenants.ofRequest(res);
    const item = await deps.items.get(t.db, staffReach(t), parsePathId(params.id, COMPLIANCE_MESSAGES.itemNotFound));
    if (!item) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
    let r: Response;
    try {
      r = await fetch(`${deps.requestsUrl()}${TRACKER_REQUEST_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName, 'content-type': 'application/json' },
        body: JSON.stringify({
          ...body, trackerItemId: item.id, clientId: item.clientId, reportTypeId: item.reportTypeId, reportTypeName: item.reportTypeName, period: item.period, itemDueDate: item.dueDate,
        }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      throw new Unavailable('The requests service is unavailable. Please try again.');
    }
    const reply = (await r.json().catch(() => ({}))) as { message?: string };
    if (r.ok) return reply;
    const kind = KIND_OF_STATUS[r.status];
    if (kind) throw new DomainError(kind, reply.message ?? 'The document request was refused.');
    throw new Unavailable(`The requests service answered ${r.status}. Please try again.`);
  });
  return router;
}
