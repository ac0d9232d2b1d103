import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UnreadMessages } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_CACHE_MS, MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { useRealtimeEvents } from '@ledgerline/ui/realtime-connection.ts';

export const unreadMessagesPath = () => apiPath('messages/unread/count');

/**
 * How many messages from others the user has not read (spec 001 §7 GET /messages/unread/count),
 * shown beside the navigation's messages entry: pushed as it changes, polled every 10 s (§9)
 * as the fallback. `enabled` is false before a firm is chosen (messages belong to a firm).
 */
export function useUnreadMessages(enabled: boolean): number {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => ({
    [MESSAGING_PUSH.unreadCount]: (c: UnreadMessages) => queryClient.setQueryData([unreadMessagesPath()], c),
  }), [queryClient]);
  useRealtimeEvents(enabled, handlers);
  const query = useQuery<UnreadMessages>({ queryKey: [unreadMessagesPath()], enabled, refetchInterval: MESSAGING_CACHE_MS.unreadCount, staleTime: MESSAGING_CACHE_MS.unreadCount });
  return query.data?.count ?? 0;
}
