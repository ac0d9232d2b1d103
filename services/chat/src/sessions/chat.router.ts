import express, { type Request, type Response, type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { isDomainError } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { LazyEventStream, wantsEventStream } from '@ledgerline/kit/http/event-stream.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  CHAT_MESSAGES, CHAT_STREAM_EVENTS, type ChatAssistantInfo, chatAskSchema, chatFollowUpSchema, chatSessionsQuerySchema,
} from '@ledgerline/contracts/chat.contracts.ts';
import type { AnswerStream, ChatService } from './chat.service.ts';

const STREAMING = 'With `Accept: text/event-stream` the answer streams as server-sent events (`delta` pieces, then `done` with this reply, or `error`).';

/** Spec 001 §7 "Chat" (plain /api/chat… and, through the gateway, /api/{tenant}/chat…). */
export function createChatRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; chat: ChatService; logger: Logger }): Router {
  const { api, tenants, chat, logger } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  /** One JSON reply, or the answer streamed as it is produced and the same reply at the end. */
  const answer = async <T>(req: Request, res: Response, run: (stream: AnswerStream) => Promise<T>): Promise<T | undefined> => {
    if (!wantsEventStream(req)) return run({});
    const events = new LazyEventStream(res);
    try {
      const result = await run({ onDelta: (text) => events.send(CHAT_STREAM_EVENTS.delta, { text }), signal: events.signal });
      events.send(CHAT_STREAM_EVENTS.done, result);
      events.end();
      return undefined;
    } catch (error) {
      if (!events.started) throw error;
      if (!isDomainError(error)) logger.error({ err: error }, 'chat answer failed while streaming');
      events.send(CHAT_STREAM_EVENTS.error, { message: isDomainError(error) ? error.message : CHAT_MESSAGES.sendFailed });
      events.end();
      return undefined;
    }
  };

  api.route(router, {
    method: 'get', path: '/api/chat/assistant', before,
    summary: "Who answers: { mode: 'model' } when a language model is configured, { mode: 'excerpt' } when answers quote the document",
  }, async (): Promise<ChatAssistantInfo> => ({ mode: chat.assistantMode }));

  api.route(router, {
    method: 'get', path: '/api/chat/sessions', query: chatSessionsQuerySchema, before,
    summary: "The caller's own chat sessions on a file they may open, most recent first",
  }, async ({ res, query }) => chat.sessionsOf(await tenants.ofRequest(res), query.fileId));

  api.route(router, {
    method: 'get', path: '/api/chat/sessions/:id/messages', before,
    summary: "A session's messages, oldest first (only its own user; others 404)",
  }, async ({ res, params }) => chat.messagesOf(await tenants.ofRequest(res), parsePathId(params.id, CHAT_MESSAGES.sessionNotFound)));

  api.route(router, {
    method: 'post', path: '/api/chat/sessions/:id/messages', body: chatFollowUpSchema, before,
    summary: `Ask a follow-up in the caller's session: { userMessage, assistantMessage }. ${STREAMING}`,
  }, async ({ req, res, params, body }) => {
    const t = await tenants.ofRequest(res);
    const id = parsePathId(params.id, CHAT_MESSAGES.sessionNotFound);
    return answer(req, res, (stream) => chat.followUp(t, id, body.message, stream));
  });

  api.route(router, {
    method: 'post', path: '/api/chat/ask', body: chatAskSchema, before,
    summary: `Ask about a file in a new session titled from the question: { session, userMessage, assistantMessage }. ${STREAMING}`,
  }, async ({ req, res, body }) => {
    const t = await tenants.ofRequest(res);
    return answer(req, res, (stream) => chat.ask(t, body.fileId, body.message, stream));
  });
  return router;
}
