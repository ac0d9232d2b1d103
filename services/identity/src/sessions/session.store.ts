import { randomUUID } from 'node:crypto';
import type { Queryable } from '@ledgerline/kit/db/database.ts';

export interface StoredSession {
  id: string;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
  address: string | null;
  browser: string | null;
  method: string | null;
  revoked: boolean;
}

interface SessionRow { id: string; user_id: number; created_at: Date; last_seen_at: Date; address: string | null; browser: string | null; method: string | null; revoked_at: Date | null }
const toSession = (r: SessionRow): StoredSession => ({
  id: r.id, userId: r.user_id, createdAt: new Date(r.created_at).toISOString(), lastSeenAt: new Date(r.last_seen_at).toISOString(),
  address: r.address, browser: r.browser, method: r.method, revoked: r.revoked_at !== null,
});

/** "Last seen" is written at most this often per session: every API call reads the session, few need to write it. */
const TOUCH_AFTER_SECONDS = 60;

/** Sign-in sessions in the schema of the firm (or the platform) the handle points at. */
export class SessionStore {
  async create(db: Queryable, s: { userId: number; address: string; browser: string | null; method: string }): Promise<string> {
    const id = randomUUID();
    await db.query('INSERT INTO sessions (id, user_id, address, browser, method) VALUES ($1, $2, $3, $4, $5)', [id, s.userId, s.address, s.browser?.slice(0, 300) ?? null, s.method]);
    return id;
  }

  async find(db: Queryable, id: string): Promise<StoredSession | null> {
    const { rows } = await db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  async touch(db: Queryable, id: string): Promise<void> {
    await db.query(`UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - interval '${TOUCH_AFTER_SECONDS} seconds'`, [id]);
  }

  /** The user's live sessions (not revoked, started within the token lifetime), newest first. */
  async live(db: Queryable, userId: number, tokenTtlSeconds: number): Promise<StoredSession[]> {
    const { rows } = await db.query<SessionRow>(
      `SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND created_at > now() - ($2::int * interval '1 second') ORDER BY created_at DESC`,
      [userId, tokenTtlSeconds],
    );
    return rows.map(toSession);
  }

  /** Every live session of the firm (or the platform) the handle points at. */
  async allLive(db: Queryable, tokenTtlSeconds: number): Promise<StoredSession[]> {
    const { rows } = await db.query<SessionRow>(
      `SELECT * FROM sessions WHERE revoked_at IS NULL AND created_at > now() - ($1::int * interval '1 second') ORDER BY user_id, created_at`, [tokenTtlSeconds]);
    return rows.map(toSession);
  }

  /** Revokes these sessions (those still live); answers the ids it revoked. */
  async revokeIds(tx: Queryable, ids: readonly string[]): Promise<{ id: string; userId: number }[]> {
    const { rows } = await tx.query<{ id: string; user_id: number }>(
      'UPDATE sessions SET revoked_at = now() WHERE id = ANY($1::text[]) AND revoked_at IS NULL RETURNING id, user_id', [ids]);
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  }

  /** Keeps Keycloak realm sessions the portal ended, so their access tokens are refused until they expire. */
  async recordEndedRealmSessions(tx: Queryable, userId: number, ids: readonly string[]): Promise<void> {
    await tx.query(
      `INSERT INTO sessions (id, user_id, method, revoked_at) SELECT s, $2, 'keycloak', now() FROM unnest($1::text[]) AS s
       ON CONFLICT (id) DO UPDATE SET revoked_at = COALESCE(sessions.revoked_at, now())`, [ids, userId]);
  }

  /** Revokes one session of the user, or all of them; answers the ids it revoked. */
  async revoke(tx: Queryable, userId: number, id?: string): Promise<string[]> {
    const { rows } = await tx.query<{ id: string }>(
      'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR id = $2) RETURNING id', [userId, id ?? null],
    );
    return rows.map((r) => r.id);
  }
}
