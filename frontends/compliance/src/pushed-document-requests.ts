import type { ComplianceItem, TrackerDocumentRequest } from '@ledgerline/contracts/compliance.contracts.ts';
import type { DocumentRequestPush } from '@ledgerline/contracts/requests.contracts.ts';

/**
 * What this tab was pushed about the document requests of tracker items, newest per item.
 * Pushes come from concurrent consumers and may arrive out of order, and a tracker read may
 * come from compliance's read model before it has taken in the event a push already showed:
 * so a push and a read each count only when they are newer (a later request, or the same
 * request at a higher revision), whichever arrives first.
 */
interface PushedState {
  requestId: number;
  revision: number;
  /** null: the request was cancelled, which leaves the item without it. */
  shown: TrackerDocumentRequest | null;
}

const pushed = new Map<number, PushedState>();

function isNewer(push: PushedState, than: { id: number; revision: number } | undefined): boolean {
  if (!than) return true;
  return push.requestId > than.id || (push.requestId === than.id && push.revision > than.revision);
}

/** The item's request as the newest of its read and what was pushed. */
export function withPushedDocumentRequest(item: ComplianceItem): ComplianceItem {
  const push = pushed.get(item.id);
  const read = item.documentRequest;
  if (!push) return item;
  // A push about an older request than the one read changes nothing shown; nor does a cancellation of another request.
  if (read && !isNewer(push, read)) return item;
  if (!push.shown && read?.id !== push.requestId) return item;
  return { ...item, documentRequest: push.shown };
}

/** Takes in a push; true when it changed what the item shows (so cached pages are rewritten). */
export function rememberDocumentRequestPush(push: DocumentRequestPush): boolean {
  if (push.trackerItemId === null) return false;
  const state: PushedState = {
    requestId: push.requestId,
    revision: push.revision,
    shown: push.status === 'cancelled' ? null
      : { id: push.requestId, status: push.status, required: push.progress.required, done: push.progress.done, revision: push.revision },
  };
  const known = pushed.get(push.trackerItemId);
  if (known && !isNewer(state, { id: known.requestId, revision: known.revision })) return false;
  pushed.set(push.trackerItemId, state);
  return true;
}

/** The page that follows the pushes closed: what it was pushed is no longer kept up to date. */
export function forgetDocumentRequestPushes(): void {
  pushed.clear();
}
