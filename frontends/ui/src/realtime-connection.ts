import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { Notification, UnreadCount } from '@ledgerline/contracts/notifications.contracts.ts';
import { NOTIFICATION_PUSH, UNREAD_COUNT_PUSH } from '@ledgerline/contracts/notifications.constants.ts';
import { invalidateApiResources } from './api-invalidation.ts';
import { readCurrentTenant, readToken } from './auth-storage.ts';
import { addPushedNotification, setPushedUnreadCount } from './notifications.api.ts';

/**
 * The tab's one realtime connection (DESIGN §7): opened by the first component that needs it,
 * closed when the last one unmounts (sign-out). The ui package is a shared singleton, so every
 * remote shares it, as long as every import of this module names the package (a relative one
 * bundled a second copy with a second socket: test/shared-state-imports.test.ts). The token and firm are read at every (re)connection, so a new sign-in
 * reconnects as the new user; socket.io retries with growing, jittered delays (1 s to 30 s).
 */
let socket: Socket | null = null;
let users = 0;
/** How long after the server cut the socket the tab connects again. */
const RECONNECT_AFTER_CUT_MS = 1000;

function connection(): Socket {
  if (socket) return socket;
  const s = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    auth: (cb) => cb({ token: readToken(), tenant: readCurrentTenant()?.shortName }),
    reconnectionDelay: 1000,
    reconnectionDelayMax: 30_000,
    randomizationFactor: 0.5,
  });
  // The server cuts a socket when its user's role or access lists change (or the user is
  // deleted, or the token expires), and socket.io does not retry what the server ended:
  // connect once more, to receive what the user may see now (a deleted user is refused).
  s.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') setTimeout(() => { if (socket === s) s.connect(); }, RECONNECT_AFTER_CUT_MS);
  });
  socket = s;
  return s;
}

/** Handlers of pushed events, by event name. */
export type RealtimeHandlers = Record<string, (payload: never) => void>;

/**
 * Keeps the connection open while mounted (and `enabled`) and hands its pushes to the
 * handlers. Pass handlers that keep their identity across renders (useMemo), or the
 * subscription is renewed on every render.
 */
export function useRealtimeEvents(enabled: boolean, handlers: RealtimeHandlers): void {
  useEffect(() => {
    if (!enabled) return;
    users += 1;
    const entries = Object.entries(handlers) as [string, (payload: unknown) => void][];
    let subscribed: Socket | null = null;
    // In a task of its own: opening the connection costs about 10 ms of a desktop's processor,
    // and a page's first effects (every query starting its request) already make one long task
    // of a phone's processor.
    const opening = setTimeout(() => {
      subscribed = connection();
      for (const [event, handler] of entries) subscribed.on(event, handler);
    });
    return () => {
      clearTimeout(opening);
      if (subscribed) for (const [event, handler] of entries) subscribed.off(event, handler);
      users -= 1;
      if (users === 0 && socket) {
        socket.close();
        socket = null;
      }
    };
  }, [enabled, handlers]);
}

/**
 * Follows what others change on a screen that shows it: when `push` arrives the cached API
 * `resources` are read again, and again whenever the socket (re)connects, since pushes made
 * while it was down never arrive.
 */
export function usePushRefresh(enabled: boolean, push: string, resources: readonly string[]): void {
  const queryClient = useQueryClient();
  // Callers pass an array literal: its text keeps the handlers (and so the subscription) the same across renders.
  const key = resources.join(',');
  const handlers = useMemo(() => {
    const refresh = () => { void invalidateApiResources(queryClient, key.split(',')); };
    return { connect: refresh, [push]: refresh };
  }, [queryClient, push, key]);
  useRealtimeEvents(enabled, handlers);
}

/** Writes the notification pushes into react-query's caches. */
export function useRealtimeNotifications(enabled: boolean): void {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => ({
    [NOTIFICATION_PUSH]: (n: Notification) => {
      addPushedNotification(queryClient, n);
      // A notification about a task means the task lists changed too (assigned, status, next occurrence).
      if (n.taskId) void invalidateApiResources(queryClient, ['tasks']);
      // Document requests refresh from their own push (document-requests.ts), not from notifications.
    },
    [UNREAD_COUNT_PUSH]: (c: UnreadCount) => setPushedUnreadCount(queryClient, c),
  }), [queryClient]);
  useRealtimeEvents(enabled, handlers);
}
