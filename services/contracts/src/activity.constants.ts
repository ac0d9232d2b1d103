/*
 * The activity values the Dashboard's first screen needs, apart from the schemas in
 * activity.contracts.ts, so the page loads no validation library for them.
 */

export const ACTIVITY_ACTIONS = ['upload', 'download', 'view', 'chat', 'delete', 'update'] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Spec 001 §9. */
export const DASHBOARD_LIMITS = { recentFiles: 10, topLists: 8, activeUserDays: 7 } as const;
