/*
 * The notification values the browser needs at start-up (the bell, its polling and its
 * realtime events), apart from the schemas in notifications.contracts.ts: every signed-in
 * page shows the bell, and a page should not load and build the validation library for it.
 */

/** §9: the screens poll every 30 s as the fallback for pushes. */
export const NOTIFICATION_POLL_MS = 30_000;
/** §9: the compact popover shows 10, the badge '99+' above 99. */
export const NOTIFICATION_POPOVER_LIMIT = 10;
export const NOTIFICATION_BADGE_MAX = 99;

/** Realtime events on the user's room (kit/realtime): a new notification, and the unread count after any change. */
export const NOTIFICATION_PUSH = 'notification:new';
export const UNREAD_COUNT_PUSH = 'notification:unread-count';
