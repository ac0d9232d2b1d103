import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { ORGANIZER_EVENTS, type OrganizerChanged } from '@ledgerline/contracts/organizers.contracts.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const ORGANIZER_CONSUMER = 'activity.organizers';

/** What each step of an organizer says in the log. */
const DETAILS: Record<string, (c: OrganizerChanged) => string> = {
  [ORGANIZER_EVENTS.sent]: (c) => `Sent the organizer "${c.title}" to ${c.clientName}`,
  [ORGANIZER_EVENTS.submitted]: (c) => `Submitted the organizer "${c.title}": the answers are filed as a PDF${c.requestId ? ' and the documents they call for were requested' : ''}`,
  [ORGANIZER_EVENTS.reopened]: (c) => `Reopened the organizer "${c.title}" for changes`,
  [ORGANIZER_EVENTS.reviewed]: (c) => `Marked the organizer "${c.title}" reviewed`,
  [ORGANIZER_EVENTS.linkRevoked]: (c) => `Revoked a link to the organizer "${c.title}": it no longer opens it`,
};

/**
 * Organizers in the activity log (issue 42), as `update` entries about the organizer's client
 * and report type, like signature requests: a CPA without the report type does not read them;
 * the client's users read their own client's.
 */
export function followOrganizers(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, ORGANIZER_CONSUMER, Object.values(ORGANIZER_EVENTS), async (tx, event) => {
    const c = event.payload as OrganizerChanged;
    const details = DETAILS[event.type];
    if (!details) return;
    await deps.logs.record(tx, {
      action: 'update', userId: c.actorId, userName: c.actorName, clientId: c.clientId, clientName: c.clientName, timestamp: event.occurredAt,
      fileId: null, fileName: null, address: null, userAgent: null, reportTypeId: c.reportTypeId, details: details(c),
    });
  });
}
