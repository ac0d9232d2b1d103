import { apiPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { readEventStream } from '@ledgerline/ui/event-stream.ts';
import {
  CHAT_STREAM_EVENTS, type ChatAskResult, type ChatExchange, type ChatStreamDelta, type PromptCategory,
} from '@ledgerline/contracts/chat.contracts.ts';

/** Paths of spec 001 §7 "Chat" and the prompt templates, under the stored current tenant. */
export const chatSessionsPath = (fileId: number): string => apiPath(`chat/sessions?fileId=${fileId}`);
export const chatMessagesPath = (sessionId: number): string => apiPath(`chat/sessions/${sessionId}/messages`);
export const chatAskPath = (): string => apiPath('chat/ask');
export const chatAssistantPath = (): string => apiPath('chat/assistant');
export const promptTemplatesPath = (filter: { isActive?: boolean; category?: PromptCategory } = {}): string => {
  const query = new URLSearchParams();
  if (filter.isActive !== undefined) query.set('isActive', String(filter.isActive));
  if (filter.category) query.set('category', filter.category);
  const text = query.toString();
  return apiPath(`prompt-templates${text ? `?${text}` : ''}`);
};
export const promptTemplatePath = (id: number): string => apiPath(`prompt-templates/${id}`);

/** Spec 001 §9: chat sessions are cached 30 s. */
export const CHAT_SESSIONS_STALE_MS = 30_000;

/** A streamed answer that ended with an `error` event: the server's message. */
export class ChatStreamError extends Error {}

/**
 * Sends a question (a new session with no `sessionId`) and hands each piece of the answer
 * to `onDelta` as it streams; resolves with the call's usual reply.
 */
export async function sendChatMessage(
  target: { fileId: number; sessionId: number | null },
  message: string,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<ChatAskResult | ChatExchange> {
  const response = target.sessionId === null
    ? await apiRequest('POST', chatAskPath(), { fileId: target.fileId, message }, { accept: 'text/event-stream', signal })
    : await apiRequest('POST', chatMessagesPath(target.sessionId), { message }, { accept: 'text/event-stream', signal });
  for await (const { event, data } of readEventStream(response)) {
    if (event === CHAT_STREAM_EVENTS.delta) onDelta((data as ChatStreamDelta).text);
    else if (event === CHAT_STREAM_EVENTS.done) return data as ChatAskResult | ChatExchange;
    else if (event === CHAT_STREAM_EVENTS.error) throw new ChatStreamError((data as { message: string }).message);
  }
  throw new ChatStreamError('The answer ended before it was complete.');
}
