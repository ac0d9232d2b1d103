import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequestChanged, type DocumentRequestPush } from '@ledgerline/contracts/requests.contracts.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { changeSeenBy } from '../access-rules.ts';
import type { RequestStore } from './request.store.ts';

/**
 * Every change of a request, pushed to the user rooms of those who reach it (staff within
 * their lists, told only of the items of their report types; the client's own users), never
 * to a firm room (which holds other clients' users too). From the outbox event rather than the call, so changes made by the scheduler
 * and by links push alike, once, whichever replica consumes it.
 */
export function followRequestPushes(deps: TenantConsumerDeps & { store: RequestStore; emitter: RealtimeEmitter }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'requests.push', [DOCUMENT_REQUEST_CHANGED], async (tx, event, tenant) => {
    const change = event.payload as DocumentRequestChanged;
    for (const user of await deps.store.usersReaching(tx, change)) {
      // A CPA or custom role hears only of what they reach: no item of another report type, nor its count.
      const progress = changeSeenBy(user.reportTypes, change);
      if (!progress) continue;
      const push: DocumentRequestPush = {
        requestId: change.requestId, clientId: change.clientId, trackerItemId: change.trackerItemId, title: change.title, status: change.status, progress, revision: change.revision,
        action: change.action, actorName: change.actorName, ...(change.itemId ? { itemId: change.itemId } : {}),
      };
      deps.emitter.emit(userRoom(tenant.shortName, user.userId), DOCUMENT_REQUEST_PUSH, push);
    }
  });
}
