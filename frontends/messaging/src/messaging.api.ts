import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UserSummary } from '@ledgerline/contracts/identity.contracts.ts';
import type { ClientConversation, Conversation, Message, MessagePush, ReadReceipt } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_CACHE_MS, MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { unreadMessagesPath } from '@ledgerline/ui/messages-unread.ts';
import { useRealtimeEvents } from '@ledgerline/ui/realtime-connection.ts';

/** Spec 001 §7 "Messaging" as the screen calls it; the §9 cache times are the polling fallback for pushes. */
/** A file the user may open, sent along with a message. */
export interface Attachment { id: number; name: string }

export const conversationsPath = () => apiPath('conversations');
export const messagesPath = (conversationId: number) => apiPath(`conversations/${conversationId}/messages`);

export const clientInboxPath = () => apiPath('conversations/client-inbox');
/** The Admins' client inbox (every client conversation of the firm). */
export const useClientInbox = (enabled: boolean) => useQuery<ClientConversation[]>({
  queryKey: [clientInboxPath()], enabled, staleTime: MESSAGING_CACHE_MS.conversations, refetchInterval: enabled ? MESSAGING_CACHE_MS.conversations : false,
});

export const useConversations = () => useQuery<Conversation[]>({
  queryKey: [conversationsPath()], staleTime: MESSAGING_CACHE_MS.conversations, refetchInterval: MESSAGING_CACHE_MS.conversations,
});

/** The newest page of the thread (the server's default), shown oldest first. */
export function useThread(conversationId: number | null) {
  const query = useQuery<Message[]>({
    queryKey: [messagesPath(conversationId ?? 0)], enabled: conversationId !== null,
    staleTime: MESSAGING_CACHE_MS.messages, refetchInterval: MESSAGING_CACHE_MS.messages,
  });
  const oldestFirst = useMemo(() => (query.data ?? []).filter((m) => !m.isDeleted).slice().reverse(), [query.data]);
  return { ...query, messages: oldestFirst };
}

/** The people picker: identity answers the users the caller may message (the caller included). */
export const usePeople = (enabled: boolean) => useQuery<UserSummary[]>({ queryKey: [apiPath('users')], enabled, staleTime: MESSAGING_CACHE_MS.users });

/** A pushed or returned message replaces its older copy in the cached thread (newest first). */
function storeMessage(queryClient: QueryClient, message: Message): void {
  queryClient.setQueryData<Message[]>([messagesPath(message.conversationId)], (list) => list
    && (list.some((m) => m.id === message.id) ? list.map((m) => (m.id === message.id ? message : m)) : [message, ...list]));
}

const refreshList = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [conversationsPath()] });

/** A pushed read receipt moves that participant's read position in the cached list at once (the sender's Sent turns Read). */
function storeReceipt(queryClient: QueryClient, receipt: ReadReceipt): void {
  queryClient.setQueryData<Conversation[]>([conversationsPath()], (list) => list?.map((c) => (c.id !== receipt.conversationId ? c : {
    ...c,
    readPositions: c.readPositions.map((p) => (p.userId === receipt.userId ? { ...p, lastReadMessageId: Math.max(p.lastReadMessageId, receipt.lastReadMessageId) } : p)),
  })));
}

/** Own messages up to this id have been read by every other participant (0: none yet). */
export function readByOthers(conversation: Conversation, me: number): number {
  const others = conversation.readPositions.filter((p) => p.userId !== me);
  return others.length ? Math.min(...others.map((p) => p.lastReadMessageId)) : 0;
}

/** Applies the messaging pushes (kit realtime) to the cached list and threads while the page is open. */
export function useMessagingPushes(): void {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => ({
    [MESSAGING_PUSH.conversation]: () => { void refreshList(queryClient); },
    [MESSAGING_PUSH.message]: (push: MessagePush) => { storeMessage(queryClient, push.message); void refreshList(queryClient); },
    [MESSAGING_PUSH.read]: (receipt: ReadReceipt) => { storeReceipt(queryClient, receipt); void refreshList(queryClient); },
  }), [queryClient]);
  useRealtimeEvents(true, handlers);
}

export function useMessagingActions() {
  const queryClient = useQueryClient();
  const stored = (m: Message) => { storeMessage(queryClient, m); void refreshList(queryClient); };
  return {
    create: useMutation({
      mutationFn: (body: { title: string; participantIds: number[] }) => apiJson<Conversation>('POST', conversationsPath(), body),
      onSuccess: () => refreshList(queryClient),
    }),
    messageFirm: useMutation({
      mutationFn: (content: string) => apiJson<Conversation>('POST', apiPath('conversations/firm'), { content }),
      onSuccess: () => refreshList(queryClient),
    }),
    assign: useMutation({
      mutationFn: ({ id, userId }: { id: number; userId: number }) => apiJson<ClientConversation>('POST', apiPath(`conversations/${id}/assign`), { userId }),
      onSuccess: () => Promise.all([refreshList(queryClient), queryClient.invalidateQueries({ queryKey: [clientInboxPath()] })]),
    }),
    send: useMutation({
      mutationFn: ({ conversationId, content, replyToId, file }: { conversationId: number; content: string; replyToId: number | null; file: Attachment | null }) =>
        apiJson<Message>('POST', messagesPath(conversationId), { content, messageType: 'text', replyToId, fileId: file?.id ?? null, fileName: file?.name ?? null }),
      onSuccess: stored,
    }),
    edit: useMutation({ mutationFn: ({ id, content }: { id: number; content: string }) => apiJson<Message>('PUT', apiPath(`messages/${id}`), { content }), onSuccess: stored }),
    remove: useMutation({
      mutationFn: (m: Message) => apiJson('DELETE', apiPath(`messages/${m.id}`)),
      onSuccess: (_r, m) => stored({ ...m, isDeleted: true, content: null }),
    }),
    markRead: useMutation({
      mutationFn: (messageId: number) => apiJson<ReadReceipt>('POST', apiPath(`messages/${messageId}/read`)),
      onSuccess: () => Promise.all([refreshList(queryClient), queryClient.invalidateQueries({ queryKey: [unreadMessagesPath()] })]),
    }),
  };
}
