import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import type { Notification, UnreadCount } from '@ledgerline/contracts/notifications.contracts.ts';
import { NOTIFICATION_PUSH, UNREAD_COUNT_PUSH } from '@ledgerline/contracts/notifications.constants.ts';
import type { NotificationStore } from './notification.store.ts';

/** Pushes to the user's sockets: a new notification, and the unread count after any change. */
export class NotificationPush {
  readonly #emitter: RealtimeEmitter;
  readonly #store: NotificationStore;

  constructor(emitter: RealtimeEmitter, store: NotificationStore) {
    this.#emitter = emitter;
    this.#store = store;
  }

  async created(db: Queryable, tenant: string, n: Notification): Promise<void> {
    this.#emitter.emit(userRoom(tenant, n.userId), NOTIFICATION_PUSH, n);
    await this.count(db, tenant, n.userId);
  }

  async count(db: Queryable, tenant: string, userId: number): Promise<void> {
    const payload: UnreadCount = { count: await this.#store.unreadCount(db, userId) };
    this.#emitter.emit(userRoom(tenant, userId), UNREAD_COUNT_PUSH, payload);
  }
}
