import { PLATFORM_ADMIN_SCOPE, storedUserScope, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { mayMessage, membersWhoMustLeave, type ConversationMember } from '@ledgerline/kit/access/message-partners.ts';
import type { UserAccess, UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Forbidden, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { requestNotifications, reviseNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  MESSAGING_MESSAGES, type ClientConversation, type Conversation, type ConversationInput, type Message, type MessageInput, type MessagePageQuery, type ReadReceipt,
} from '@ledgerline/contracts/messaging.contracts.ts';
import type { FileAccessClient } from '../files/file-access.client.ts';
import type { MessagingPush } from './messaging-push.ts';
import type { MessagingStore, RosterRow } from './messaging.store.ts';

/** Where a notification about a conversation leads (the Messages page, spec 001 §2). */
const MESSAGES_PAGE = '/messages';
const NOTIFICATION_PREVIEW_CHARS = 200;

/** Another user's stored access (kit's ServiceTenants.accessOf: the read model, else identity). */
export type AccessOf = (t: TenantRequest, userId: number) => Promise<UserAccess | null>;

/**
 * Spec 001 §5 conversation and message rules and who may talk to whom (docs/api/authorization.md,
 * messaging rows): only participants see a conversation (anyone else is
 * told it does not exist); every two participants must be allowed to message each other
 * (kit's mayMessage), when it starts and at every read, send, edit, read receipt and push
 * after it (#settle: whoever may no longer has left); only a message's sender edits or
 * deletes it. Every change is pushed to the participants' sockets after it commits; a
 * recipient who is not connected is notified once per conversation until they read it.
 */
export class MessagingService {
  readonly #store: MessagingStore;
  readonly #users: UserAccessReadModel;
  readonly #accessOf: AccessOf;
  readonly #files: FileAccessClient;
  readonly #push: MessagingPush;

  constructor(deps: { store: MessagingStore; users: UserAccessReadModel; accessOf: AccessOf; files: FileAccessClient; push: MessagingPush }) {
    this.#store = deps.store;
    this.#users = deps.users;
    this.#accessOf = deps.accessOf;
    this.#files = deps.files;
    this.#push = deps.push;
  }

  async conversations(t: TenantRequest): Promise<Conversation[]> {
    await this.#settle(t, { userId: actorId(t.claims) });
    return this.#store.conversations(t.db, actorId(t.claims));
  }

  async createConversation(t: TenantRequest, input: ConversationInput): Promise<Conversation> {
    const me = actorId(t.claims);
    const others = [...new Set(input.participantIds)].filter((id) => id !== me);
    if (!others.length) throw new Invalid(MESSAGING_MESSAGES.participantsRequired);
    const scopes: AccessScope[] = [t.scope];
    for (const id of others) {
      const access = await this.#accessOf(t, id);
      if (!access) throw new Invalid(MESSAGING_MESSAGES.participantsNotAllowed);
      scopes.push(storedUserScope(access));
    }
    // Everyone in it reads everything in it: every pair must be allowed to talk.
    if (scopes.some((a, i) => scopes.slice(i + 1).some((b) => !mayMessage(a, b)))) throw new Invalid(MESSAGING_MESSAGES.participantsNotAllowed);
    const names = await this.#users.names(t.db, others);
    const people = [{ userId: me, name: actorName(t.claims) }, ...others.map((userId) => ({ userId, name: names.get(userId)?.fullName ?? '' }))];
    const id = await t.db.transaction((tx) => this.#store.createConversation(tx, { title: input.title, type: input.type, createdById: me }, people));
    for (const userId of people.map((p) => p.userId)) {
      const [seen] = await this.#store.conversations(t.db, userId, id);
      if (seen) this.#push.conversation(t.shortName, userId, seen);
    }
    return (await this.#store.conversations(t.db, me, id))[0]!;
  }

  /**
   * "Message the firm" (issue 40): a Client user writes, and the conversation goes to their
   * client's team (clientTeam: the staff who have the client) without the client choosing
   * anyone; every Admin sees it in the client inbox and may give it to someone.
   */
  async messageFirm(t: TenantRequest, content: string): Promise<Conversation> {
    if (!t.scope.isClient) throw new Forbidden(MESSAGING_MESSAGES.clientsOnly);
    const clientId = t.scope.clients === 'all' ? undefined : t.scope.clients[0];
    if (clientId === undefined) throw new Invalid(MESSAGING_MESSAGES.noClient);
    const me = actorId(t.claims);
    // The team as the read model holds it, each still allowed to talk with this client user.
    const team = (await this.#store.clientTeam(t.db, clientId)).filter((u) => u.userId !== me && mayMessage(t.scope, storedUserScope(u)));
    const people = [{ userId: me, name: actorName(t.claims) }, ...team.map((u) => ({ userId: u.userId, name: u.name }))];
    const id = await t.db.transaction(async (tx) => {
      const id = await this.#store.createConversation(tx, { title: `${actorName(t.claims)}: message to the firm`, type: 'direct', createdById: me, clientId }, people);
      await this.#store.insert(tx, { conversationId: id, senderId: me, senderName: actorName(t.claims), content, fileId: null, fileName: null, replyToId: null });
      return id;
    });
    for (const userId of people.map((p) => p.userId)) {
      const [seen] = await this.#store.conversations(t.db, userId, id);
      if (seen) this.#push.conversation(t.shortName, userId, seen);
    }
    const participants = await this.#store.participants(t.db, id);
    const [first] = await this.#store.messages(t.db, id, { limit: 1 });
    if (first) await this.#notifyAway(t, participants.filter((p) => p.userId !== me && !p.notified), first);
    return (await this.#store.conversations(t.db, me, id))[0]!;
  }

  /** The Admins' inbox: every client conversation of the firm. */
  async clientInbox(t: TenantRequest): Promise<ClientConversation[]> {
    if (!t.scope.isAdmin) throw new Forbidden(MESSAGING_MESSAGES.adminsOnly);
    return this.#store.clientConversations(t.db);
  }

  /** An Admin gives a client conversation to a staff member who has the client (or to themselves), who joins it. */
  async assign(t: TenantRequest, conversationId: number, userId: number): Promise<ClientConversation> {
    if (!t.scope.isAdmin) throw new Forbidden(MESSAGING_MESSAGES.adminsOnly);
    const [conversation] = await this.#store.clientConversations(t.db, conversationId);
    if (!conversation) throw new NotFound(MESSAGING_MESSAGES.notClientConversation);
    const self = userId === actorId(t.claims);
    const access = self ? null : await this.#accessOf(t, userId);
    const scope = self ? t.scope : access ? storedUserScope(access) : null;
    const reaches = scope && !scope.isClient && (scope.clients === 'all' || scope.clients.includes(conversation.clientId));
    if (!reaches) throw new Invalid(MESSAGING_MESSAGES.assigneeNotAllowed);
    const name = self ? actorName(t.claims) : (await this.#users.names(t.db, [userId])).get(userId)?.fullName ?? '';
    await t.db.transaction((tx) => this.#store.assign(tx, conversationId, { userId, name }));
    const [seen] = await this.#store.conversations(t.db, userId, conversationId);
    if (seen) this.#push.conversation(t.shortName, userId, seen);
    return (await this.#store.clientConversations(t.db, conversationId))[0]!;
  }

  async messages(t: TenantRequest, conversationId: number, page: MessagePageQuery): Promise<Message[]> {
    await this.#participate(t, conversationId);
    return this.#store.messages(t.db, conversationId, page);
  }

  async send(t: TenantRequest, conversationId: number, input: MessageInput): Promise<Message> {
    const me = await this.#participate(t, conversationId);
    if (input.replyToId !== null) {
      const replied = await this.#store.head(t.db, input.replyToId);
      if (replied?.conversationId !== conversationId) throw new Invalid(MESSAGING_MESSAGES.replyNotInConversation);
    }
    if (input.fileId !== null) await this.#files.assertOpenable({ tenant: t.shortName, bearer: t.token }, input.fileId);
    const id = await t.db.transaction((tx) => this.#store.insert(tx, {
      conversationId, senderId: me, senderName: actorName(t.claims), content: input.content, fileId: input.fileId, fileName: input.fileName, replyToId: input.replyToId,
    }));
    const message = (await this.#store.message(t.db, id))!;
    const participants = await this.#store.participants(t.db, conversationId);
    await this.#push.message(t.db, t.shortName, participants, 'created', message);
    await this.#notifyAway(t, participants.filter((p) => p.userId !== me && !p.notified), message);
    return message;
  }

  async edit(t: TenantRequest, messageId: number, content: string): Promise<Message> {
    const head = await this.#ownMessage(t, messageId);
    const participants = await this.#store.participants(t.db, head.conversationId);
    const [conversation] = await this.#store.conversations(t.db, head.senderId, head.conversationId);
    await t.db.transaction(async (tx) => {
      await this.#store.edit(tx, head.id, content);
      await this.#reviseNotices(tx, t, participants, head, preview(conversation?.title ?? '', content));
    });
    const message = (await this.#store.message(t.db, head.id))!;
    await this.#push.message(t.db, t.shortName, participants, 'edited', message);
    return message;
  }

  async remove(t: TenantRequest, messageId: number): Promise<void> {
    const head = await this.#ownMessage(t, messageId);
    const participants = await this.#store.participants(t.db, head.conversationId);
    await t.db.transaction(async (tx) => {
      await this.#store.remove(tx, head.id);
      await this.#reviseNotices(tx, t, participants, head, null);
    });
    const message = (await this.#store.message(t.db, head.id))!;
    await this.#push.message(t.db, t.shortName, participants, 'deleted', message);
  }

  /** The caller has read this message and everything before it in its conversation. */
  async markRead(t: TenantRequest, messageId: number): Promise<ReadReceipt> {
    const me = actorId(t.claims);
    const head = await this.#store.head(t.db, messageId);
    if (head) await this.#settle(t, { conversationId: head.conversationId });
    if (!head || !(await this.#store.isParticipant(t.db, head.conversationId, me))) throw new NotFound(MESSAGING_MESSAGES.messageNotFound);
    const receipt = await this.#store.markRead(t.db, head.conversationId, me, head.id);
    if (!receipt) return { conversationId: head.conversationId, userId: me, lastReadMessageId: head.id, lastReadAt: new Date().toISOString() };
    await this.#push.read(t.db, t.shortName, await this.#store.participants(t.db, head.conversationId), receipt);
    return receipt;
  }

  async unreadCount(t: TenantRequest): Promise<number> {
    await this.#settle(t, { userId: actorId(t.claims) });
    return this.#store.unreadCount(t.db, actorId(t.claims));
  }

  /** The caller's id, when they (still) take part in the conversation; anyone else is told it does not exist. */
  async #participate(t: TenantRequest, conversationId: number): Promise<number> {
    const me = actorId(t.claims);
    await this.#settle(t, { conversationId });
    if (!(await this.#store.isParticipant(t.db, conversationId, me))) throw new NotFound(MESSAGING_MESSAGES.conversationNotFound);
    return me;
  }

  /**
   * Re-applies who may talk to whom to these conversations, with the users as stored now: a
   * participant who may no longer (a CPA who lost the client, a user demoted to Client) has
   * left, so from here on they neither see the conversation nor receive its pushes, and the
   * others are pushed the conversation without them. Leaving is for good: access given back
   * later does not return them (someone starts a new conversation).
   */
  async #settle(t: TenantRequest, of: { conversationId: number } | { userId: number }): Promise<void> {
    const byConversation = new Map<number, ConversationMember[]>();
    for (const row of await this.#store.roster(t.db, of)) {
      const members = byConversation.get(row.conversationId) ?? [];
      members.push(asMember(row));
      byConversation.set(row.conversationId, members);
    }
    for (const [conversationId, members] of byConversation) {
      const leaving = membersWhoMustLeave(members);
      if (!leaving.length) continue;
      await this.#store.markLeft(t.db, conversationId, leaving);
      for (const p of await this.#store.participants(t.db, conversationId)) {
        const [seen] = await this.#store.conversations(t.db, p.userId, conversationId);
        if (seen) this.#push.conversation(t.shortName, p.userId, seen);
      }
    }
  }

  /** A live message the caller may see (else 404) and sent (else 403). */
  async #ownMessage(t: TenantRequest, messageId: number) {
    const me = actorId(t.claims);
    const head = await this.#store.head(t.db, messageId);
    if (head) await this.#settle(t, { conversationId: head.conversationId });
    if (!head || head.isDeleted || !(await this.#store.isParticipant(t.db, head.conversationId, me))) throw new NotFound(MESSAGING_MESSAGES.messageNotFound);
    if (head.senderId !== me) throw new Forbidden(MESSAGING_MESSAGES.senderOnly);
    return head;
  }

  /**
   * The notifications quoting this message (its recipients', metadata.messageId) follow what
   * happened to it: removed with it, or rewritten with its new text, e-mails not yet sent included.
   */
  async #reviseNotices(tx: Queryable, t: TenantRequest, participants: readonly { userId: number }[], head: { id: number; senderId: number }, message: string | null): Promise<void> {
    const userIds = participants.map((p) => p.userId).filter((id) => id > 0 && id !== head.senderId);
    await reviseNotifications(tx, t.shortName, { userIds, about: { messageId: head.id }, message });
  }

  /** Recipients with no socket open get one notification per conversation until they read it. */
  async #notifyAway(t: TenantRequest, candidates: readonly { userId: number }[], message: Message): Promise<void> {
    // Platform administrators (negative ids) are not firm users: notifications are for firm users.
    const away: number[] = [];
    for (const { userId } of candidates) if (userId > 0 && !(await this.#push.isOnline(t.shortName, userId))) away.push(userId);
    if (!away.length) return;
    const [conversation] = await this.#store.conversations(t.db, actorId(t.claims), message.conversationId);
    await t.db.transaction(async (tx) => {
      const claimed = await this.#store.claimNotification(tx, message.conversationId, away);
      await requestNotifications(tx, t.shortName, claimed.map((userId) => ({
        userId, category: 'message', type: 'info',
        title: `New message from ${message.senderName}`,
        message: preview(conversation?.title ?? '', message.content ?? ''),
        actionUrl: MESSAGES_PAGE,
        metadata: { conversationId: message.conversationId, messageId: message.id },
      })));
    });
  }
}

/** What a message notification says: the conversation and the start of the message. */
const preview = (conversationTitle: string, content: string): string => `${conversationTitle}: ${content}`.slice(0, NOTIFICATION_PREVIEW_CHARS);

/** A participant as the rules weigh them: platform administrators (negative ids) act as Admin and never change. */
function asMember(row: RosterRow): ConversationMember {
  if (row.userId < 0) return { userId: row.userId, scope: PLATFORM_ADMIN_SCOPE, changedAtMs: Number.MIN_SAFE_INTEGER };
  if (row.role === null || row.deleted) return { userId: row.userId, scope: null, changedAtMs: 0 };
  const scope = storedUserScope({ role: row.role, clientIds: (row.clientIds ?? []).map(Number), reportTypeIds: (row.reportTypeIds ?? []).map(Number) });
  return { userId: row.userId, scope, changedAtMs: row.version ? new Date(row.version).getTime() : 0 };
}
