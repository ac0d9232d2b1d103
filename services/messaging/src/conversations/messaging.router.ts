import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  conversationAssignSchema, conversationInputSchema, firmMessageSchema, messageEditSchema, messageInputSchema, messagePageQuerySchema, MESSAGING_MESSAGES, type UnreadMessages,
} from '@ledgerline/contracts/messaging.contracts.ts';
import type { MessagingService } from './messaging.service.ts';

/**
 * Spec 001 §7 "Messaging" (the people picker, GET /users, is identity's: it answers the users
 * the caller may message). Who may do what is MessagingService's business.
 */
export function createMessagingRouter(deps: { api: ApiRegistry; service: MessagingService; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, service, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const conversationId = (v: string | undefined) => parsePathId(v, MESSAGING_MESSAGES.conversationNotFound);
  const messageId = (v: string | undefined) => parsePathId(v, MESSAGING_MESSAGES.messageNotFound);

  api.route(router, { method: 'get', path: '/api/conversations', summary: 'The caller\'s conversations, latest activity first, with their unread counts', before }, async ({ res }) =>
    service.conversations(await tenants.ofRequest(res)));

  api.route(router, { method: 'post', path: '/api/conversations', summary: 'Start a conversation (the caller always takes part)', status: 201, body: conversationInputSchema, before }, async ({ res, body }) =>
    service.createConversation(await tenants.ofRequest(res), body));

  api.route(router, {
    method: 'post', path: '/api/conversations/firm', status: 201, body: firmMessageSchema, before,
    summary: 'A Client user writes to the firm: the conversation goes to the client\'s team (the staff who have the client) and the Admins\' client inbox',
  }, async ({ res, body }) => service.messageFirm(await tenants.ofRequest(res), body.content));

  api.route(router, { method: 'get', path: '/api/conversations/client-inbox', summary: 'Every client conversation of the firm (Admins only)', before }, async ({ res }) =>
    service.clientInbox(await tenants.ofRequest(res)));

  api.route(router, {
    method: 'post', path: '/api/conversations/:id/assign', body: conversationAssignSchema, before,
    summary: 'Give a client conversation to a staff member who has the client, or to oneself (Admins only); they join it',
  }, async ({ res, params, body }) => service.assign(await tenants.ofRequest(res), conversationId(params.id), body.userId));

  api.route(router, {
    method: 'get', path: '/api/conversations/:id/messages', summary: 'A page of a conversation\'s messages, newest first (before: an id, for older ones)', query: messagePageQuerySchema, before,
  }, async ({ res, params, query }) => service.messages(await tenants.ofRequest(res), conversationId(params.id), query));

  api.route(router, { method: 'post', path: '/api/conversations/:id/messages', summary: 'Send a message (optionally replying to one of the conversation, or with a file)', status: 201, body: messageInputSchema, before }, async ({ res, params, body }) =>
    service.send(await tenants.ofRequest(res), conversationId(params.id), body));

  api.route(router, { method: 'get', path: '/api/messages/unread/count', summary: 'How many messages from others the caller has not read', before }, async ({ res }): Promise<UnreadMessages> =>
    ({ count: await service.unreadCount(await tenants.ofRequest(res)) }));

  api.route(router, { method: 'put', path: '/api/messages/:id', summary: 'Edit one of the caller\'s messages', body: messageEditSchema, before }, async ({ res, params, body }) =>
    service.edit(await tenants.ofRequest(res), messageId(params.id), body.content));

  api.route(router, { method: 'delete', path: '/api/messages/:id', summary: 'Delete one of the caller\'s messages (its content is gone)', before }, async ({ res, params }) => {
    await service.remove(await tenants.ofRequest(res), messageId(params.id));
    return { message: MESSAGING_MESSAGES.deleted };
  });

  api.route(router, { method: 'post', path: '/api/messages/:id/read', summary: 'The caller has read this message and those before it', before }, async ({ res, params }) =>
    service.markRead(await tenants.ofRequest(res), messageId(params.id)));
  return router;
}
