import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { ORGANIZER_PUSH } from '@ledgerline/contracts/organizers.constants.ts';
import { ORGANIZER_EVENTS, type OrganizerChanged, type OrganizerPush } from '@ledgerline/contracts/organizers.contracts.ts';
import { reachesItemOf } from '../access-rules.ts';
import type { RequestStore } from '../requests/request.store.ts';

/**
 * Every organizer event, pushed to the user rooms of those who reach the organizer (staff
 * within their client and report-type lists, the client's own users), as request changes
 * are (request-push.consumer.ts). Events come only from a sent organizer on: a draft is never pushed to the client.
 */
export function followOrganizerPushes(deps: TenantConsumerDeps & { store: RequestStore; emitter: RealtimeEmitter }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'requests.organizer-push', Object.values(ORGANIZER_EVENTS), async (tx, event, tenant) => {
    const change = event.payload as OrganizerChanged;
    const push: OrganizerPush = {
      organizerId: change.organizerId, clientId: change.clientId, trackerItemId: change.trackerItemId, title: change.title, status: change.status,
      event: event.type, actorName: change.actorName,
    };
    for (const user of await deps.store.usersReaching(tx, change)) {
      if (!reachesItemOf(user.reportTypes, change.reportTypeId)) continue;
      deps.emitter.emit(userRoom(tenant.shortName, user.userId), ORGANIZER_PUSH, push);
    }
  });
}
