import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { usersReaching } from '@ledgerline/kit/access/users-reaching.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { SIGNATURE_REQUEST_CHANGED, type SignaturePush, type SignatureRequestChanged } from '@ledgerline/contracts/signatures.contracts.ts';
import { SIGNATURE_PUSH } from '@ledgerline/contracts/signatures.constants.ts';

/**
 * Every step of a signature request pushed to the user rooms of those who may see it: staff
 * who reach its client and its report type (a CPA without the report type hears nothing),
 * and of the client's own users only its signers (the others do not see the request), never
 * to a firm room. From the outbox event, so a link signer's step pushes like a staff one.
 */
export function followSignaturePushes(deps: TenantConsumerDeps & { userAccess: UserAccessReadModel; emitter: RealtimeEmitter }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'signatures.push', [SIGNATURE_REQUEST_CHANGED], async (tx, event, tenant) => {
    const c = event.payload as SignatureRequestChanged;
    const push: SignaturePush = { requestId: c.requestId, clientId: c.clientId, trackerItemId: c.trackerItemId, title: c.title, action: c.action, status: c.status, signerName: c.signerName };
    for (const user of await usersReaching(tx, deps.userAccess.table, c.clientId)) {
      const sees = user.isClient ? c.signerUserIds.includes(user.userId) : user.reportTypes === 'all' || user.reportTypes.includes(c.reportTypeId);
      if (sees) deps.emitter.emit(userRoom(tenant.shortName, user.userId), SIGNATURE_PUSH, push);
    }
  });
}
