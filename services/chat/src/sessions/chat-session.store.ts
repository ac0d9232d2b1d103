import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { ChatMessage, ChatRole, ChatSession } from '@ledgerline/contracts/chat.contracts.ts';
import { isoInstant as iso } from '@ledgerline/kit/db/instants.ts';

interface SessionRow { id: number; user_id: number; user_name: string; file_id: number; title: string; created_at: Date | string; updated_at: Date | string }
interface MessageRow { id: number; session_id: number; role: ChatRole; content: string; created_at: Date | string }

const session = (r: SessionRow): ChatSession => ({
  id: r.id, userId: r.user_id, userName: r.user_name, fileId: r.file_id, title: r.title, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});
const message = (r: MessageRow): ChatMessage => ({
  id: r.id, sessionId: r.session_id, role: r.role, content: r.content, timestamp: iso(r.created_at), createdAt: iso(r.created_at),
});

export interface NewMessage { role: ChatRole; content: string; at: Date }

/** Chat sessions and their messages in a firm's schema. */
export class ChatSessionStore {
  /** One user's sessions on one file, most recently used first. */
  async listOwn(db: Queryable, userId: number, fileId: number): Promise<ChatSession[]> {
    const r = await db.query<SessionRow>('SELECT * FROM chat_sessions WHERE file_id = $1 AND user_id = $2 ORDER BY updated_at DESC, id DESC', [fileId, userId]);
    return r.rows.map(session);
  }

  /** A session only its own user may see (anyone else: null, as if missing). */
  async findOwn(db: Queryable, userId: number, id: number): Promise<ChatSession | null> {
    const r = await db.query<SessionRow>('SELECT * FROM chat_sessions WHERE id = $1 AND user_id = $2', [id, userId]);
    return r.rows[0] ? session(r.rows[0]) : null;
  }

  async messages(db: Queryable, sessionId: number): Promise<ChatMessage[]> {
    const r = await db.query<MessageRow>('SELECT * FROM chat_messages WHERE session_id = $1 ORDER BY id', [sessionId]);
    return r.rows.map(message);
  }

  /** The newest `limit` messages, oldest first (the history a follow-up sends). */
  async recentMessages(db: Queryable, sessionId: number, limit: number): Promise<ChatMessage[]> {
    if (limit === 0) return [];
    const r = await db.query<MessageRow>('SELECT * FROM (SELECT * FROM chat_messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2) m ORDER BY id', [sessionId, limit]);
    return r.rows.map(message);
  }

  async create(tx: Queryable, s: { userId: number; userName: string; fileId: number; title: string; at: Date }): Promise<ChatSession> {
    const r = await tx.query<SessionRow>(
      'INSERT INTO chat_sessions (user_id, user_name, file_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
      [s.userId, s.userName, s.fileId, s.title, s.at],
    );
    return session(r.rows[0]!);
  }

  /** Appends the messages and marks the session used now; returns them in order. */
  async append(tx: Queryable, sessionId: number, messages: readonly NewMessage[], at: Date): Promise<ChatMessage[]> {
    const r = await tx.query<MessageRow>(
      `INSERT INTO chat_messages (session_id, role, content, created_at)
       SELECT $1, m.role, m.content, m.at FROM unnest($2::text[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS m(role, content, at, n)
       ORDER BY m.n RETURNING *`,
      [sessionId, messages.map((m) => m.role), messages.map((m) => m.content), messages.map((m) => m.at)],
    );
    await tx.query('UPDATE chat_sessions SET updated_at = $2 WHERE id = $1', [sessionId, at]);
    return r.rows.map(message).sort((a, b) => a.id - b.id);
  }

  /** Every session of the firm (the platform administrators' count). */
  async all(db: Queryable): Promise<{ id: number; fileId: number; userId: number; createdAt: string }[]> {
    const r = await db.query<SessionRow>('SELECT id, file_id, user_id, created_at FROM chat_sessions ORDER BY id');
    return r.rows.map((s) => ({ id: s.id, fileId: s.file_id, userId: s.user_id, createdAt: iso(s.created_at) }));
  }

  /** A deleted file takes its conversations with it. */
  async deleteOfFile(tx: Queryable, fileId: number): Promise<void> {
    await tx.query('DELETE FROM chat_sessions WHERE file_id = $1', [fileId]);
  }
}
