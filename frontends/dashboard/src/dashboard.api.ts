import type { ActivityAction } from '@ledgerline/contracts/activity.constants.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';

/*
 * Paths of the activity service's calls (spec 001 §7 "Activity", §2 "Dashboard"). Every one
 * takes the tenant the screen resolved (dashboard-tenant.ts): /api/{tenant}/…, or /api/… for
 * null, where the gateway takes the firm from the token.
 */

export interface ActivityLogsQuery {
  limit: number;
  action?: ActivityAction | null;
}

export function activityLogsPath(tenant: string | null, { limit, action }: ActivityLogsQuery): string {
  const query = new URLSearchParams({ limit: String(limit) });
  if (action) query.set('action', action);
  return apiPath(`activity-logs?${query}`, { tenant });
}

export const dashboardPath = (tenant: string | null): string => apiPath('dashboard', { tenant });

export const userActivityPath = (tenant: string | null, userId: number): string =>
  apiPath(`dashboard/users/${userId}/activity`, { tenant });

export const clientEngagementPath = (tenant: string | null, clientId: number): string =>
  apiPath(`dashboard/clients/${clientId}/engagement`, { tenant });

/**
 * Spec 001 §9: files and activity are cached for 0 s. Every mount refetches, and nothing is
 * kept once no screen shows it.
 */
export const ACTIVITY_CACHE = { staleTime: 0, gcTime: 0 } as const;

/** What a view or download changes (it records an activity): the feed and every dashboard figure. */
export const ACTIVITY_RESOURCES = ['activity-logs', 'dashboard'] as const;
