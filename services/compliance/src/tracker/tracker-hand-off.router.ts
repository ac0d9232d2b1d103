import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { callAsCaller } from '@ledgerline/kit/http/call-as-caller.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants, TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES, type ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { REQUEST_DEFAULTS, TRACKER_REQUEST_PATH, trackerRequestInputSchema } from '@ledgerline/contracts/requests.contracts.ts';
import { TRACKER_ORGANIZER_PATH, trackerOrganizerInputSchema } from '@ledgerline/contracts/organizers.contracts.ts';
import { trackerSignatureRequestInputSchema } from '@ledgerline/contracts/signatures.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { TrackerStore } from './tracker.store.ts';

/**
 * What a tracker item hands to another service: the gateway routes the tracker's paths here,
 * so this service answers them, checks that the caller reaches the item, and passes the work
 * to its owner on that service's port with the caller's own token (its access rules apply too):
 * - POST /api/compliance-tracker/{id}/document-request: a document request (requests service);
 * - POST /api/compliance-tracker/{id}/signature-request: a signature request (signatures service, issue 41);
 * - POST /api/compliance-tracker/{id}/organizer: an organizer (requests service, issue 42).
 */
export function createTrackerHandOffRouter(deps: {
  api: ApiRegistry; items: TrackerStore; tokens: TokenVerifier; tenants: ServiceTenants; requestsUrl: () => string; signaturesUrl: () => string;
}): Router {
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const reachableItem = async (t: TenantRequest, id: string | undefined): Promise<ComplianceItem> => {
    const item = await deps.items.get(t.db, staffReach(t), parsePathId(id, COMPLIANCE_MESSAGES.itemNotFound));
    if (!item) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
    return item;
  };

  deps.api.route(router, {
    method: 'post', path: '/api/compliance-tracker/:id/document-request', status: 201, body: trackerRequestInputSchema, before,
    summary: 'Ask the item\'s client for the documents its filing needs (template, else the firm\'s or the calendar\'s checklist for its report type), due daysBefore (default 7) days before the item',
  }, async ({ res, params, body }) => {
    const t = await deps.tenants.ofRequest(res);
    const item = await reachableItem(t, params.id);
    return handOff(`${deps.requestsUrl()}${TRACKER_REQUEST_PATH}`, t, {
      ...body, trackerItemId: item.id, clientId: item.clientId, reportTypeId: item.reportTypeId, reportTypeName: item.reportTypeName, period: item.period, itemDueDate: item.dueDate,
    }, { service: 'requests', refused: 'The document request was refused.' });
  });

  deps.api.route(router, {
    method: 'post', path: '/api/compliance-tracker/:id/signature-request', status: 201, body: trackerSignatureRequestInputSchema, before,
    summary: 'A signature request for the item (e.g. its Form 8879): its client, report type and link to the item are the item\'s; the title defaults to the item\'s return and period. Sent at once with sendNow, which moves the item to Ready to sign',
  }, async ({ res, params, body }) => {
    const t = await deps.tenants.ofRequest(res);
    const item = await reachableItem(t, params.id);
    return handOff(`${deps.signaturesUrl()}/api/signature-requests`, t, {
      ...body, title: body.title ?? `${item.reportTypeName} ${item.period}`, clientId: item.clientId, reportTypeId: item.reportTypeId, trackerItemId: item.id,
    }, { service: 'signatures', refused: 'The signature request was refused.' });
  });
  deps.api.route(router, {
    method: 'post', path: '/api/compliance-tracker/:id/organizer', status: 201, body: trackerOrganizerInputSchema, before,
    summary: 'An organizer for the item\'s client and year (the year its period starts in): templateId, else the template of the item\'s report type (400 when none); due dueDate, else the request lead days (7) before the item. Sent at once unless sendNow is false',
  }, async ({ res, params, body }) => {
    const t = await deps.tenants.ofRequest(res);
    const item = await reachableItem(t, params.id);
    return handOff(`${deps.requestsUrl()}${TRACKER_ORGANIZER_PATH}`, t, {
      ...body, trackerItemId: item.id, clientId: item.clientId, reportTypeId: item.reportTypeId, reportTypeName: item.reportTypeName, period: item.period,
      year: Number(item.periodStart.slice(0, 4)), itemDueDate: item.dueDate, daysBefore: REQUEST_DEFAULTS.trackerLeadDays,
    }, { service: 'requests', refused: 'The organizer was refused.' });
  });
  return router;
}

/** The owning service's answer, or its refusal as the same kind of error. */
const handOff = (url: string, t: TenantRequest, body: unknown, names: { service: string; refused: string }): Promise<unknown> =>
  callAsCaller(url, t, { method: 'POST', body }, names);
