import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequestAction, type DocumentRequestChanged } from '@ledgerline/contracts/requests.contracts.ts';
import type { ActivityLogStore, NewActivity } from '../logs/activity-log.store.ts';

export const DOCUMENT_REQUEST_CONSUMER = 'activity.document-requests';

const withComment = (text: string, comment: string | null | undefined) => (comment ? `${text}: ${comment}` : text);

/** What each logged change says (the others — edits, links, sending — are not the client's documents moving). */
const DETAILS: Partial<Record<DocumentRequestAction, (r: DocumentRequestChanged) => string>> = {
  item_accepted: (r) => `Accepted "${r.itemTitle}" — document request "${r.title}"`,
  item_rejected: (r) => withComment(`Returned "${r.itemTitle}" — document request "${r.title}"`, r.comment),
  item_not_applicable: (r) => withComment(`Marked "${r.itemTitle}" as not applicable — document request "${r.title}"`, r.comment),
  completed: (r) => `Document request "${r.title}" completed: every required item is in`,
  cancelled: (r) => `Cancelled document request "${r.title}"`,
};

/**
 * Document requests in the activity log (issue 27), as `update` entries: one per uploaded
 * file (naming it, so the log opens it), per decision, per completion and cancellation. An
 * upload by link has no signed-in user: its entry keeps the address and browser it came from.
 * (The file's own `upload` entry comes from file.uploaded, as for any upload.)
 */
export function followDocumentRequests(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, DOCUMENT_REQUEST_CONSUMER, [DOCUMENT_REQUEST_CHANGED], async (tx, event) => {
    const r = event.payload as DocumentRequestChanged;
    // Events published before they carried the actor and the request's state (an upgrade's backlog) have nothing to record.
    if (r.actorId === undefined || r.revision === undefined) return;
    // An entry naming an item is about the item's report type, others about the request's: a CPA
    // limited to other types does not read them (docs/api/authorization.md).
    const item = r.itemId === undefined ? undefined : r.items?.find((i) => i.id === r.itemId);
    const entry: Omit<NewActivity, 'details' | 'fileId' | 'fileName'> = {
      action: 'update', userId: r.actorId, userName: r.actorName, clientId: r.clientId, clientName: r.clientName, timestamp: event.occurredAt,
      address: r.address ?? null, userAgent: r.userAgent ?? null, reportTypeId: item ? item.reportTypeId : r.reportTypeId,
    };
    if (r.action === 'item_uploaded') {
      const how = r.viaLink ? ' by upload link' : '';
      for (const f of r.files ?? []) {
        await deps.logs.record(tx, { ...entry, fileId: f.fileId, fileName: f.fileName, details: `Uploaded ${f.fileName} for "${r.itemTitle}"${how} — document request "${r.title}"` });
      }
      return;
    }
    const details = DETAILS[r.action];
    if (details) await deps.logs.record(tx, { ...entry, fileId: null, fileName: null, details: details(r) });
  });
}
