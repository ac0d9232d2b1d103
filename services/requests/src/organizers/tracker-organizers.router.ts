import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { TRACKER_ORGANIZER_PATH, trackerOrganizerInternalSchema } from '@ledgerline/contracts/organizers.contracts.ts';
import type { Firm } from '../requests/request-reminders.ts';
import type { OrganizerService } from './organizer.service.ts';

/**
 * The organizer behind "Send organizer" on a tracker item (compliance checks the item is
 * within the caller's reach and calls here with the caller's token, as for document
 * requests): the template asked for, else the firm's own template for the item's report type,
 * else the shipped one tied to it; the year the item's period starts in; due `daysBefore`
 * days before the item (not before today) unless a due date is given.
 */
export function createTrackerOrganizersRouter(deps: { tokens: TokenVerifier; tenants: ServiceTenants; service: OrganizerService; firm: (shortName: string) => Promise<Firm> }): Router {
  const router = express.Router();
  router.post(TRACKER_ORGANIZER_PATH, authenticate(deps.tokens, deps.tenants.checkCaller), async (req, res) => {
    const t = await deps.tenants.ofRequest(res);
    const input = parseInput(trackerOrganizerInternalSchema, req.body ?? {});
    let templateId = input.templateId ?? null;
    if (!templateId) {
      const fitting = (await deps.service.templates(t)).filter((x) => x.reportTypeId === input.reportTypeId);
      templateId = (fitting.find((x) => !x.builtIn) ?? fitting[0])?.id ?? null;
      if (!templateId) throw new Invalid(`No organizer template fits ${input.reportTypeName}: make one for this report type, or choose one (templateId).`);
    }
    const today = todayIn((await deps.firm(t.shortName)).timeZone);
    const wanted = input.dueDate ?? addDays(input.itemDueDate, -input.daysBefore);
    const organizer = await deps.service.create(t, {
      clientId: input.clientId, templateId, year: input.year, title: null, message: null, dueDate: wanted < today ? today : wanted,
      reminderEveryDays: input.reminderEveryDays, reportTypeId: input.reportTypeId, trackerItemId: input.trackerItemId, sendNow: input.sendNow,
    });
    res.status(201).json(organizer);
  });
  return router;
}
