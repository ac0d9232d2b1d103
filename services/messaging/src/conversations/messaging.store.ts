import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { ClientConversation, Conversation, Message, MessagePageQuery, ReadReceipt } from '@ledgerline/contracts/messaging.contracts.ts';
import { isoInstantOrNull as iso } from '@ledgerline/kit/db/instants.ts';

/** Who is in a conversation, and where they are in it. */
export interface Participant {
  userId: number;
  lastReadMessageId: number;
  notified: boolean;
}

/** A participant with their access as the user read model holds it (null columns: not known there). */
export interface RosterRow {
  conversationId: number;
  userId: number;
  role: string | null;
  clientIds: number[] | null;
  reportTypeIds: number[] | null;
  deleted: boolean | null;
  version: Date | null;
}

/** What the rules need of a message before showing or changing it. */
export interface MessageHead {
  id: number;
  conversationId: number;
  senderId: number;
  isDeleted: boolean;
}

export interface NewMessage {
  conversationId: number;
  senderId: number;
  senderName: string;
  content: string;
  fileId: number | null;
  fileName: string | null;
  replyToId: number | null;
}

/**
 * Conversations, participants and messages of one firm (the caller's schema). Names come
 * from the user read model at read time, so a renamed user shows their new name everywhere;
 * the name stored at send or join time is the fallback for someone the model does not know.
 */
export class MessagingStore {
  readonly #users: string;

  constructor(users: UserAccessReadModel) {
    this.#users = users.table;
  }

  /** `alias`'s current name, else `fallback` (an SQL expression). */
  #name(alias: string, fallback: string): string {
    return `COALESCE(NULLIF(${alias}.full_name, ''), ${alias}.username, ${fallback})`;
  }

  #userJoin(alias: string, idColumn: string): string {
    return `LEFT JOIN ${this.#users} ${alias} ON ${alias}.user_id = ${idColumn} AND NOT ${alias}.deleted`;
  }

  async createConversation(tx: Queryable, c: { title: string; type: string; createdById: number; clientId?: number }, people: readonly { userId: number; name: string }[]): Promise<number> {
    const { rows } = await tx.query<{ id: number }>('INSERT INTO conversations (type, title, created_by_id, client_id) VALUES ($1, $2, $3, $4) RETURNING id', [c.type, c.title, c.createdById, c.clientId ?? null]);
    const id = rows[0]!.id;
    await tx.query(
      `INSERT INTO conversation_participants (conversation_id, user_id, name, role)
       SELECT $1, p.user_id, p.name, CASE WHEN p.user_id = $4 THEN 'owner' ELSE 'member' END
       FROM unnest($2::int[], $3::text[]) AS p (user_id, name)`,
      [id, people.map((p) => p.userId), people.map((p) => p.name), c.createdById],
    );
    return id;
  }

  /**
   * A client's team, from the user read model (identity's events): the live staff users who
   * have the client in their client access. Admins and DTAs, who reach every client, answer
   * from the client inbox instead of receiving every client's messages.
   */
  async clientTeam(db: Queryable, clientId: number): Promise<{ userId: number; name: string; role: string; clientIds: number[]; reportTypeIds: number[] }[]> {
    const { rows } = await db.query<{ user_id: number; name: string; role: string; client_ids: number[]; report_type_ids: number[] }>(
      `SELECT user_id, COALESCE(NULLIF(full_name, ''), username, '') AS name, role, client_ids, report_type_ids FROM ${this.#users}
       WHERE NOT deleted AND lower(trim(role)) NOT IN ('client', 'admin', 'dta') AND $1 = ANY(client_ids) ORDER BY user_id`, [clientId]);
    return rows.map((r) => ({ userId: r.user_id, name: r.name, role: r.role, clientIds: r.client_ids.map(Number), reportTypeIds: r.report_type_ids.map(Number) }));
  }

  /** Every client conversation of the firm, latest activity first (the Admins' inbox). */
  async clientConversations(db: Queryable, only?: number): Promise<ClientConversation[]> {
    const { rows } = await db.query<{
      id: number; title: string; client_id: number; created_by_id: number; assigned_to_id: number | null; created_at: Date;
      last_message: string | null; last_message_at: Date | null; participant_ids: number[]; participant_names: string[];
    }>(
      `SELECT c.id, c.title, c.client_id, c.created_by_id, c.assigned_to_id, c.created_at, lm.content AS last_message, lm.sent_at AS last_message_at,
         COALESCE(ps.ids, '{}') AS participant_ids, COALESCE(ps.names, '{}') AS participant_names
       FROM conversations c
       LEFT JOIN LATERAL (SELECT m.content, m.sent_at FROM messages m WHERE m.conversation_id = c.id AND NOT m.is_deleted ORDER BY m.id DESC LIMIT 1) lm ON true
       CROSS JOIN LATERAL (
         SELECT array_agg(p.user_id ORDER BY p.joined_at, p.user_id) AS ids, array_agg(${this.#name('pu', 'p.name')} ORDER BY p.joined_at, p.user_id) AS names
         FROM conversation_participants p ${this.#userJoin('pu', 'p.user_id')} WHERE p.conversation_id = c.id AND p.left_at IS NULL) ps
       WHERE c.client_id IS NOT NULL AND ($1::int IS NULL OR c.id = $1)
       ORDER BY COALESCE(lm.sent_at, c.created_at) DESC, c.id DESC`, [only ?? null]);
    return rows.map((r) => ({
      id: r.id, title: r.title, clientId: r.client_id, createdById: r.created_by_id, assignedToId: r.assigned_to_id,
      participantIds: r.participant_ids.map(Number), participantNames: r.participant_names,
      lastMessage: r.last_message, lastMessageAt: iso(r.last_message_at), createdAt: iso(r.created_at)!,
    }));
  }

  /** Gives a client conversation to a user, who joins it if they are not in it. */
  async assign(tx: Queryable, conversationId: number, user: { userId: number; name: string }): Promise<void> {
    await tx.query('UPDATE conversations SET assigned_to_id = $2, updated_at = now() WHERE id = $1', [conversationId, user.userId]);
    await tx.query(
      `INSERT INTO conversation_participants (conversation_id, user_id, name, role) VALUES ($1, $2, $3, 'member')
       ON CONFLICT (conversation_id, user_id) DO NOTHING`, [conversationId, user.userId, user.name]);
  }

  async participants(db: Queryable, conversationId: number): Promise<Participant[]> {
    const { rows } = await db.query<Participant>(
      `SELECT user_id AS "userId", last_read_message_id AS "lastReadMessageId", notified_at IS NOT NULL AS notified
       FROM conversation_participants WHERE conversation_id = $1 AND left_at IS NULL ORDER BY joined_at, user_id`, [conversationId],
    );
    return rows;
  }

  /**
   * The current participants, with their stored access, of one conversation or of every
   * conversation a user takes part in; in joining order.
   */
  async roster(db: Queryable, of: { conversationId: number } | { userId: number }): Promise<RosterRow[]> {
    const which = 'conversationId' in of
      ? 'p.conversation_id = $1'
      : 'p.conversation_id IN (SELECT conversation_id FROM conversation_participants WHERE user_id = $1 AND left_at IS NULL)';
    const { rows } = await db.query<RosterRow>(
      `SELECT p.conversation_id AS "conversationId", p.user_id AS "userId", u.role, u.client_ids AS "clientIds",
         u.report_type_ids AS "reportTypeIds", u.deleted, u.version
       FROM conversation_participants p LEFT JOIN ${this.#users} u ON u.user_id = p.user_id
       WHERE ${which} AND p.left_at IS NULL ORDER BY p.conversation_id, p.joined_at, p.user_id`,
      ['conversationId' in of ? of.conversationId : of.userId],
    );
    return rows;
  }

  /** These participants have left the conversation (they no longer see it or hear of it). */
  async markLeft(db: Queryable, conversationId: number, userIds: readonly number[]): Promise<void> {
    await db.query('UPDATE conversation_participants SET left_at = now() WHERE conversation_id = $1 AND user_id = ANY($2::int[]) AND left_at IS NULL', [conversationId, [...userIds]]);
  }

  async isParticipant(db: Queryable, conversationId: number, userId: number): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM conversation_participants WHERE conversation_id = $1 AND user_id = $2 AND left_at IS NULL', [conversationId, userId]);
    return rows.length > 0;
  }

  /** The caller's conversations, most recent activity first (or one of them, by id). */
  async conversations(db: Queryable, userId: number, only?: number): Promise<Conversation[]> {
    const { rows } = await db.query<{
      id: number; type: 'direct'; title: string; created_by_id: number; created_at: Date; updated_at: Date;
      last_message: string | null; last_message_at: Date | null; unread_count: number; participant_ids: number[]; participant_names: string[]; participant_read_ids: number[];
    }>(
      `SELECT c.id, c.type, c.title, c.created_by_id, c.created_at, c.updated_at,
         lm.content AS last_message, lm.sent_at AS last_message_at,
         (SELECT count(*)::int FROM messages u WHERE u.conversation_id = c.id AND u.id > me.last_read_message_id
            AND u.sender_id <> me.user_id AND NOT u.is_deleted) AS unread_count,
         ps.ids AS participant_ids, ps.names AS participant_names, ps.read_ids AS participant_read_ids
       FROM conversation_participants me
       JOIN conversations c ON c.id = me.conversation_id
       LEFT JOIN LATERAL (SELECT m.content, m.sent_at FROM messages m WHERE m.conversation_id = c.id AND NOT m.is_deleted ORDER BY m.id DESC LIMIT 1) lm ON true
       CROSS JOIN LATERAL (
         SELECT array_agg(p.user_id ORDER BY p.joined_at, p.user_id) AS ids,
                array_agg(${this.#name('pu', 'p.name')} ORDER BY p.joined_at, p.user_id) AS names,
                array_agg(p.last_read_message_id ORDER BY p.joined_at, p.user_id) AS read_ids
         FROM conversation_participants p ${this.#userJoin('pu', 'p.user_id')}
         WHERE p.conversation_id = c.id AND p.left_at IS NULL) ps
       WHERE me.user_id = $1 AND me.left_at IS NULL AND ($2::int IS NULL OR c.id = $2)
       ORDER BY COALESCE(lm.sent_at, c.created_at) DESC, c.id DESC`,
      [userId, only ?? null],
    );
    return rows.map((r) => ({
      id: r.id, type: r.type, title: r.title, createdById: r.created_by_id,
      participantIds: r.participant_ids.map(Number), participantNames: r.participant_names,
      lastMessage: r.last_message, lastMessageAt: iso(r.last_message_at),
      createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!, unreadCount: r.unread_count,
      readPositions: r.participant_ids.map((id, i) => ({ userId: Number(id), lastReadMessageId: Number(r.participant_read_ids[i]) })),
    }));
  }

  /** A page of a conversation's messages, newest first; `before` continues below that id. */
  async messages(db: Queryable, conversationId: number, page: MessagePageQuery): Promise<Message[]> {
    return this.#select(db, `m.conversation_id = $1 AND ($2::int IS NULL OR m.id < $2) ORDER BY m.id DESC LIMIT $3`, [conversationId, page.before ?? null, page.limit]);
  }

  async message(db: Queryable, id: number): Promise<Message | null> {
    return (await this.#select(db, 'm.id = $1', [id]))[0] ?? null;
  }

  async head(db: Queryable, id: number, lock = false): Promise<MessageHead | null> {
    const { rows } = await db.query<MessageHead>(
      `SELECT id, conversation_id AS "conversationId", sender_id AS "senderId", is_deleted AS "isDeleted" FROM messages WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id],
    );
    return rows[0] ?? null;
  }

  /** Stores a message; the sender has read everything up to it. */
  async insert(tx: Queryable, m: NewMessage): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO messages (conversation_id, sender_id, sender_name, content, file_id, file_name, reply_to_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [m.conversationId, m.senderId, m.senderName, m.content, m.fileId, m.fileName, m.replyToId],
    );
    const id = rows[0]!.id;
    await tx.query('UPDATE conversations SET updated_at = now() WHERE id = $1', [m.conversationId]);
    await this.markRead(tx, m.conversationId, m.senderId, id);
    return id;
  }

  async edit(tx: Queryable, id: number, content: string): Promise<void> {
    await tx.query('UPDATE messages SET content = $2, is_edited = true, edited_at = now() WHERE id = $1', [id, content]);
  }

  /** Soft delete: the row keeps its place (replies, paging) and loses what it said. */
  async remove(tx: Queryable, id: number): Promise<void> {
    await tx.query(`UPDATE messages SET is_deleted = true, deleted_at = now(), content = '', file_id = NULL, file_name = NULL WHERE id = $1`, [id]);
  }

  /** Moves the participant's read position forward to `messageId` (never back); null when it was already there. */
  async markRead(db: Queryable, conversationId: number, userId: number, messageId: number): Promise<ReadReceipt | null> {
    const { rows } = await db.query<{ last_read_at: Date }>(
      `UPDATE conversation_participants SET last_read_message_id = $3, last_read_at = now(), notified_at = NULL
       WHERE conversation_id = $1 AND user_id = $2 AND last_read_message_id < $3 RETURNING last_read_at`,
      [conversationId, userId, messageId],
    );
    return rows[0] ? { conversationId, userId, lastReadMessageId: messageId, lastReadAt: iso(rows[0].last_read_at)! } : null;
  }

  /** Messages from others the user has not read, over all their conversations. */
  async unreadCount(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      // Per conversation (LATERAL): an index range above each read position, never a join over the firm's messages.
      `SELECT COALESCE(sum(u.n), 0)::int AS count FROM conversation_participants p
       CROSS JOIN LATERAL (SELECT count(*) AS n FROM messages m WHERE m.conversation_id = p.conversation_id
         AND m.id > p.last_read_message_id AND m.sender_id <> p.user_id AND NOT m.is_deleted) u
       WHERE p.user_id = $1 AND p.left_at IS NULL`, [userId],
    );
    return rows[0]?.count ?? 0;
  }

  /** Marks these participants notified of the conversation; answers those who were not yet (they are to be notified now). */
  async claimNotification(tx: Queryable, conversationId: number, userIds: readonly number[]): Promise<number[]> {
    const { rows } = await tx.query<{ user_id: number }>(
      `UPDATE conversation_participants SET notified_at = now()
       WHERE conversation_id = $1 AND user_id = ANY($2::int[]) AND notified_at IS NULL AND left_at IS NULL RETURNING user_id`,
      [conversationId, [...userIds]],
    );
    return rows.map((r) => r.user_id);
  }

  async #select(db: Queryable, where: string, params: unknown[]): Promise<Message[]> {
    const { rows } = await db.query<{
      id: number; conversation_id: number; sender_id: number; sender_name: string; content: string; file_id: number | null; file_name: string | null;
      reply_to_id: number | null; reply_to_content: string | null; reply_to_sender: string | null; is_edited: boolean; edited_at: Date | null;
      sent_at: Date; is_deleted: boolean; deleted_at: Date | null;
    }>(
      `SELECT m.id, m.conversation_id, m.sender_id, ${this.#name('su', 'm.sender_name')} AS sender_name, m.content, m.file_id, m.file_name,
         m.reply_to_id, CASE WHEN r.is_deleted THEN NULL ELSE r.content END AS reply_to_content,
         CASE WHEN r.id IS NULL THEN NULL ELSE ${this.#name('ru', 'r.sender_name')} END AS reply_to_sender,
         m.is_edited, m.edited_at, m.sent_at, m.is_deleted, m.deleted_at
       FROM messages m
       LEFT JOIN messages r ON r.id = m.reply_to_id
       ${this.#userJoin('su', 'm.sender_id')}
       ${this.#userJoin('ru', 'r.sender_id')}
       WHERE ${where}`,
      params,
    );
    return rows.map((r) => ({
      id: r.id, conversationId: r.conversation_id, senderId: r.sender_id, senderName: r.sender_name,
      content: r.is_deleted ? null : r.content, messageType: 'text', fileId: r.file_id, fileName: r.file_name,
      replyToId: r.reply_to_id, replyToContent: r.reply_to_content, replyToSender: r.reply_to_sender,
      isEdited: r.is_edited, editedAt: iso(r.edited_at), sentAt: iso(r.sent_at)!, isDeleted: r.is_deleted, deletedAt: iso(r.deleted_at),
    }));
  }
}
