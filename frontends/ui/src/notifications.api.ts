import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Notification, UnreadCount } from '@ledgerline/contracts/notifications.contracts.ts';
import { NOTIFICATION_POLL_MS } from '@ledgerline/contracts/notifications.constants.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';

/** Spec 001 §7 "Notifications"; the server answers with the caller's own, whatever userId says. */
export const notificationsPath = () => apiPath('notifications');
export const unreadCountPath = () => apiPath('notifications/unread-count');

/** The caller's notifications; pushes update the cache at once, the spec's 30 s poll is the fallback. */
export function useNotifications() {
  return useQuery<Notification[]>({ queryKey: [notificationsPath()], refetchInterval: NOTIFICATION_POLL_MS });
}

export function useUnreadCount() {
  return useQuery<UnreadCount>({ queryKey: [unreadCountPath()], refetchInterval: NOTIFICATION_POLL_MS });
}

/** A pushed notification joins the cached list first; the unread count comes in its own push. */
export function addPushedNotification(queryClient: QueryClient, n: Notification): void {
  queryClient.setQueryData<Notification[]>([notificationsPath()], (list) => (list ? [n, ...list.filter((x) => x.id !== n.id)] : list));
}

export function setPushedUnreadCount(queryClient: QueryClient, count: UnreadCount): void {
  queryClient.setQueryData<UnreadCount>([unreadCountPath()], count);
}

/** Read, mark-all-read and delete (§4): the list and the count refresh afterwards. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: [notificationsPath()] }),
    queryClient.invalidateQueries({ queryKey: [unreadCountPath()] }),
  ]);
  const markRead = useMutation({ mutationFn: (id: number) => apiJson('PATCH', apiPath(`notifications/${id}/read`)), onSettled: refresh });
  const markAllRead = useMutation({ mutationFn: () => apiJson('PATCH', apiPath('notifications/mark-all-read'), {}), onSettled: refresh });
  const remove = useMutation({ mutationFn: (id: number) => apiJson('DELETE', apiPath(`notifications/${id}`)), onSettled: refresh });
  return { markRead, markAllRead, remove };
}
