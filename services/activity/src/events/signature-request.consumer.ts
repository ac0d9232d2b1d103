import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { SIGNATURE_REQUEST_CHANGED, type SignatureAction, type SignatureRequestChanged } from '@ledgerline/contracts/signatures.contracts.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const SIGNATURE_REQUEST_CONSUMER = 'activity.signature-requests';

/** What each step of a signature request says in the log (filing the sealed PDF is the files service's own upload entry). */
const DETAILS: Partial<Record<SignatureAction, (c: SignatureRequestChanged) => string>> = {
  sent: (c) => `Sent "${c.title}" for signature`,
  signed: (c) => `${c.signerName ?? 'A signer'} signed "${c.title}"`,
  completed: (c) => `Signature request "${c.title}" completed: every signer signed, the sealed PDF is filed`,
  declined: (c) => `${c.signerName ?? 'A signer'} declined to sign "${c.title}"`,
  voided: (c) => `Voided signature request "${c.title}"`,
  expired: (c) => `Signature request "${c.title}" expired unsigned`,
};

/**
 * Signature requests in the activity log (issue 41), as `update` entries about the request's
 * client and report type: a CPA without the report type does not read them; the client's
 * users read their own client's.
 */
export function followSignatureRequests(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, SIGNATURE_REQUEST_CONSUMER, [SIGNATURE_REQUEST_CHANGED], async (tx, event) => {
    const c = event.payload as SignatureRequestChanged;
    const details = DETAILS[c.action];
    if (!details) return;
    await deps.logs.record(tx, {
      action: 'update', userId: c.actorId, userName: c.actorName, clientId: c.clientId, clientName: c.clientName, timestamp: event.occurredAt,
      fileId: null, fileName: null, address: null, userAgent: null, reportTypeId: c.reportTypeId, details: details(c),
    });
  });
}
