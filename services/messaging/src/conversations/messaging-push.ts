import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { RealtimeHub } from '@ledgerline/kit/realtime/realtime-hub.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import type { Conversation, Message, MessagePush, ReadReceipt, UnreadMessages } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import type { MessagingStore, Participant } from './messaging.store.ts';

/**
 * Pushes messaging changes to each participant's user room (every tab and replica they are
 * connected to), and their unread count when it may have changed. A user's room, not a
 * conversation room: a participant sees a new message in a conversation they have not
 * opened (the list's badge), and leaving or joining needs no room bookkeeping.
 */
export class MessagingPush {
  readonly #hub: RealtimeHub;
  readonly #store: MessagingStore;

  constructor(hub: RealtimeHub, store: MessagingStore) {
    this.#hub = hub;
    this.#store = store;
  }

  conversation(tenant: string, userId: number, conversation: Conversation): void {
    this.#hub.emitter.emit(userRoom(tenant, userId), MESSAGING_PUSH.conversation, conversation);
  }

  async message(db: Queryable, tenant: string, participants: readonly Participant[], change: MessagePush['change'], message: Message): Promise<void> {
    const payload: MessagePush = { change, message };
    for (const p of participants) this.#hub.emitter.emit(userRoom(tenant, p.userId), MESSAGING_PUSH.message, payload);
    if (change === 'edited') return;
    for (const p of participants) if (p.userId !== message.senderId) await this.unreadCount(db, tenant, p.userId);
  }

  async read(db: Queryable, tenant: string, participants: readonly Participant[], receipt: ReadReceipt): Promise<void> {
    for (const p of participants) this.#hub.emitter.emit(userRoom(tenant, p.userId), MESSAGING_PUSH.read, receipt);
    await this.unreadCount(db, tenant, receipt.userId);
  }

  async unreadCount(db: Queryable, tenant: string, userId: number): Promise<void> {
    const payload: UnreadMessages = { count: await this.#store.unreadCount(db, userId) };
    this.#hub.emitter.emit(userRoom(tenant, userId), MESSAGING_PUSH.unreadCount, payload);
  }

  isOnline(tenant: string, userId: number): Promise<boolean> {
    return this.#hub.isOccupied(userRoom(tenant, userId));
  }
}
