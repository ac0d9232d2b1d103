import type { DocumentRequestSummary, ItemStatus, RequestItem, RequestStatus } from '@ledgerline/contracts/requests.contracts.ts';
import { REQUEST_UPLOAD_ACCEPT } from '@ledgerline/contracts/media-types.ts';

/** How the screens name statuses. */
export const REQUEST_STATUS_LABELS: Readonly<Record<RequestStatus, string>> = { open: 'Open', completed: 'Completed', cancelled: 'Cancelled' };
export const REQUEST_STATUS_SEVERITY = { open: 'info', completed: 'success', cancelled: 'secondary' } as const;
export const ITEM_STATUS_LABELS: Readonly<Record<ItemStatus, string>> = {
  requested: 'Requested', uploaded: 'Uploaded', accepted: 'Accepted', rejected: 'Returned', not_applicable: 'Does not apply',
};
export const ITEM_STATUS_SEVERITY = { requested: 'warning', uploaded: 'info', accepted: 'success', rejected: 'danger', not_applicable: 'secondary' } as const;

/** Whole percent of the required items done (a request without required items is done). */
export function progressPercent(progress: { required: number; done: number }): number {
  if (progress.required <= 0) return 100;
  return Math.min(100, Math.round((progress.done / progress.required) * 100));
}

/** 'done' counts what staff accepted or the client said does not apply; 'in' also counts uploads awaiting review. */
export type ProgressVerb = 'done' | 'in';

export function progressText(progress: { required: number; done: number }, verb: ProgressVerb = 'done'): string {
  return `${progress.done} of ${progress.required} required items ${verb}`;
}

/** What the client has sent: required items uploaded, accepted or marked not applicable (as the link page counts). */
export function receivedProgress(items: readonly Pick<RequestItem, 'required' | 'status'>[]): { required: number; done: number } {
  const required = items.filter((i) => i.required);
  return { required: required.length, done: required.filter((i) => i.status !== 'requested' && i.status !== 'rejected').length };
}

/**
 * Open and due before today: dates are calendar dates ('YYYY-MM-DD'), compared as text so
 * no time zone shifts them (`today` is the firm's, ui/firm-today.ts: the day the server's
 * reminders and overdue notices count by).
 */
export function isOverdue(request: Pick<DocumentRequestSummary, 'status' | 'dueDate'>, today: string): boolean {
  return request.status === 'open' && request.dueDate < today;
}

/**
 * An item sent back: the server returns a rejected item to `requested` with the reason in
 * staffComment, so a requested item with a staff comment is one the client must look at again.
 */
export function isReturned(item: Pick<RequestItem, 'status' | 'staffComment'>): boolean {
  return item.status === 'requested' && !!item.staffComment;
}

/** What staff may decide on an item now: accept an answer, or send it back with a reason. */
export function staffDecisions(item: Pick<RequestItem, 'status'>): { accept: boolean; reject: boolean } {
  const answered = item.status === 'uploaded' || item.status === 'not_applicable';
  return { accept: answered, reject: answered };
}

/** What a client may still do on an item: everything but change an accepted one. */
export function clientMayAnswer(item: Pick<RequestItem, 'status'>): boolean {
  return item.status !== 'accepted';
}

/** The item status shown: a requested item with a reason reads 'Returned'. */
export function itemStatusLabel(item: Pick<RequestItem, 'status' | 'staffComment'>): string {
  return isReturned(item) ? ITEM_STATUS_LABELS.rejected : ITEM_STATUS_LABELS[item.status];
}

export function itemStatusSeverity(item: Pick<RequestItem, 'status' | 'staffComment'>) {
  return isReturned(item) ? ITEM_STATUS_SEVERITY.rejected : ITEM_STATUS_SEVERITY[item.status];
}

/** An editable checklist line of the create dialog. */
export interface DraftItem {
  key: number;
  title: string;
  description: string | null;
  required: boolean;
}

/** The first problem of a checklist, or null: at least one item, each with a title. */
export function checklistProblem(items: readonly DraftItem[]): string | null {
  if (items.length === 0) return 'Add at least one item';
  if (items.some((i) => !i.title.trim())) return 'Every item needs a title';
  return null;
}

/** What the item upload offers (the link page's list): photos, PDFs, spreadsheets, documents. */
export const ITEM_FILE_ACCEPT = REQUEST_UPLOAD_ACCEPT;

/**
 * A link as the list shows it: live until it expires or is revoked; while its request is not
 * open it opens nothing (closed: completed; paused: cancelled, live again if reopened).
 */
export function linkState(link: { expiresAt: string; revokedAt: string | null }, requestStatus: RequestStatus, now = Date.now()): 'live' | 'expired' | 'revoked' | 'closed' | 'paused' {
  if (link.revokedAt) return 'revoked';
  if (Date.parse(link.expiresAt) <= now) return 'expired';
  return requestStatus === 'completed' ? 'closed' : requestStatus === 'cancelled' ? 'paused' : 'live';
}
