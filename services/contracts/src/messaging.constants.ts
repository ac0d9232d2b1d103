/*
 * The messaging values the browser needs at start-up (the navigation's unread badge), apart
 * from the schemas in messaging.contracts.ts, so a signed-in page loads no validation library
 * for them.
 */

/** §9 cache times: how long the screens keep each answer before polling again (the fallback for pushes). */
export const MESSAGING_CACHE_MS = { conversations: 30_000, messages: 5_000, users: 60_000, unreadCount: 10_000 } as const;

/** Realtime events on each participant's user room (kit/realtime). */
export const MESSAGING_PUSH = {
  conversation: 'messaging:conversation',
  message: 'messaging:message',
  read: 'messaging:read',
  unreadCount: 'messaging:unread-count',
} as const;
