import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { REQUEST_MESSAGES, TRACKER_REQUEST_PATH, trackerDocumentRequestSchema, type RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import type { Firm } from '../requests/request-reminders.ts';
import type { RequestService } from '../requests/request.service.ts';
import type { RequestStore } from '../requests/request.store.ts';
import { STATUTORY_TEMPLATES } from './statutory-templates.ts';

/**
 * The request behind "Request documents" on a tracker item. The gateway routes
 * /compliance-tracker/… to compliance, which checks the item is within the caller's reach
 * and calls here on the service port with the caller's token: the request is made with the
 * caller's own rights. Its items: the template asked for, else the firm's template for the
 * item's report type, else the statutory calendar's checklist of that report type. Due
 * `daysBefore` days before the item (not before today).
 */
export function createTrackerRequestsRouter(deps: { tokens: TokenVerifier; tenants: ServiceTenants; store: RequestStore; service: RequestService; firm: (shortName: string) => Promise<Firm> }): Router {
  const router = express.Router();
  router.post(TRACKER_REQUEST_PATH, authenticate(deps.tokens, deps.tenants.checkCaller), async (req, res) => {
    const t = await deps.tenants.ofRequest(res);
    const input = parseInput(trackerDocumentRequestSchema, req.body ?? {});
    const templates = await deps.store.templates(t.db);
    let items: RequestTemplate['items'] | undefined;
    if (input.templateId) {
      items = templates.find((x) => x.id === input.templateId)?.items;
      if (!items) throw new NotFound(REQUEST_MESSAGES.templateNotFound);
    } else {
      items = templates.find((x) => x.reportTypeId === input.reportTypeId)?.items ?? STATUTORY_TEMPLATES[input.reportTypeName];
      if (!items) throw new Invalid(REQUEST_MESSAGES.noTemplate);
    }
    const today = todayIn((await deps.firm(t.shortName)).timeZone);
    const wanted = addDays(input.itemDueDate, -input.daysBefore);
    const request = await deps.service.create(t, {
      clientId: input.clientId, title: `${input.reportTypeName} — ${input.period}`, message: null, dueDate: wanted < today ? today : wanted,
      reminderEveryDays: input.reminderEveryDays, reportTypeId: input.reportTypeId, assignedToId: null, templateId: null,
      items: items.map((i) => ({ title: i.title, description: i.description, required: i.required, reportTypeId: null })), sendNow: input.sendNow,
    }, input.trackerItemId);
    res.status(201).json(request);
  });
  return router;
}
