import express, { type Router } from 'express';
import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { notificationListQuerySchema, notificationOwnerSchema, type UnreadCount } from '@ledgerline/contracts/notifications.contracts.ts';
import type { NotificationPush } from './notification-push.ts';
import type { NotificationStore } from './notification.store.ts';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/**
 * Spec 001 §7 "Notifications". The owner is always the caller (the token), whatever `userId`
 * the query or body names: another user's notification answers as a missing one.
 */
export function createNotificationsRouter(deps: { api: ApiRegistry; store: NotificationStore; push: NotificationPush; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, store, push, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (v: string | undefined) => parsePathId(v, NOTIFICATION_NOT_FOUND);

  api.route(router, { method: 'get', path: '/api/notifications', summary: 'The caller\'s notifications, newest first', query: notificationListQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return store.list(t.db, actorId(t.claims), query);
  });

  api.route(router, { method: 'get', path: '/api/notifications/unread-count', summary: 'How many of the caller\'s notifications are unread', query: notificationOwnerSchema, before }, async ({ res }): Promise<UnreadCount> => {
    const t = await tenants.ofRequest(res);
    return { count: await store.unreadCount(t.db, actorId(t.claims)) };
  });

  api.route(router, { method: 'patch', path: '/api/notifications/mark-all-read', summary: 'Mark every notification of the caller read', body: notificationOwnerSchema, before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    const userId = actorId(t.claims);
    const updated = await store.markAllRead(t.db, userId);
    await push.count(t.db, t.shortName, userId);
    return { updated };
  });

  api.route(router, { method: 'patch', path: '/api/notifications/:id/read', summary: 'Mark one of the caller\'s notifications read', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const userId = actorId(t.claims);
    const n = await store.markRead(t.db, userId, id(params.id));
    if (!n) throw new NotFound(NOTIFICATION_NOT_FOUND);
    await push.count(t.db, t.shortName, userId);
    return n;
  });

  api.route(router, { method: 'delete', path: '/api/notifications/:id', summary: 'Delete one of the caller\'s notifications', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const userId = actorId(t.claims);
    if (!(await store.remove(t.db, userId, id(params.id)))) throw new NotFound(NOTIFICATION_NOT_FOUND);
    await push.count(t.db, t.shortName, userId);
    return { message: 'Notification deleted successfully' };
  });
  return router;
}
