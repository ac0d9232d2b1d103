import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { SecurityEvent, SecurityEventKind } from '@ledgerline/contracts/sign-in-security.contracts.ts';

export interface NewSecurityEvent {
  kind: SecurityEventKind;
  userId: number | null;
  username: string | null;
  method?: string | null;
  address?: string | null;
  browser?: string | null;
  actorId?: number | null;
}

export interface SecurityEventFilter {
  userId?: number | undefined;
  kind?: SecurityEventKind | undefined;
  /** Calendar dates, inclusive, in UTC. */
  from?: string | undefined;
  to?: string | undefined;
  limit?: number;
}

/** The sign-in history of a firm (or of the platform's administrators). */
export class SecurityEventStore {
  async record(db: Queryable, e: NewSecurityEvent): Promise<void> {
    await db.query(
      'INSERT INTO security_events (kind, user_id, username, method, address, browser, actor_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [e.kind, e.userId, e.username, e.method ?? null, e.address ?? null, e.browser?.slice(0, 300) ?? null, e.actorId ?? null],
    );
  }

  async list(db: Queryable, f: SecurityEventFilter): Promise<SecurityEvent[]> {
    const { rows } = await db.query<{ id: string; at: Date; kind: SecurityEventKind; user_id: number | null; username: string | null; method: string | null; address: string | null; browser: string | null; actor_id: number | null }>(
      `SELECT id, at, kind, user_id, username, method, address, browser, actor_id FROM security_events
       WHERE ($1::int IS NULL OR user_id = $1) AND ($2::text IS NULL OR kind = $2)
         AND ($3::date IS NULL OR at >= $3::date::timestamp AT TIME ZONE 'UTC')
         AND ($4::date IS NULL OR at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')
       ORDER BY at DESC, id DESC LIMIT $5`,
      [f.userId ?? null, f.kind ?? null, f.from ?? null, f.to ?? null, f.limit ?? 1000],
    );
    return rows.map((r) => ({
      id: Number(r.id), at: new Date(r.at).toISOString(), kind: r.kind, userId: r.user_id, username: r.username,
      method: r.method, address: r.address, browser: r.browser, actorId: r.actor_id,
    }));
  }
}
