import type { Bus, EventEnvelope, Subscription } from '../bus/bus.ts';
import type { Database, Queryable, SchemaDb } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import { eventTenant } from '../outbox/tenant-consumer.ts';
import type { Logger } from '../logger.ts';
import { consumeOnce } from '../outbox/inbox.ts';
import { TtlCache } from '../async/ttl-cache.ts';
import { mailAddressOf } from '../mail/mail-address.ts';
import type { TenantRegistry } from '../tenancy/tenant-registry.ts';

/** What identity publishes (services/identity/src/users/user.service.ts, roles.router.ts). */
export const USER_UPSERTED = 'user.upserted';
/** Many users at once (an import's chunk of contacts): `{ users }`, each as `user.upserted` would carry it. */
export const USERS_UPSERTED = 'users.upserted';
export const USER_DELETED = 'user.deleted';
export const ROLE_UPSERTED = 'role.upserted';
/** Identity ended sign-in sessions (one, all of a user's, an Admin's reset): their tokens stop working. */
export const SESSIONS_REVOKED = 'sessions.revoked';

interface UserUpsertedPayload {
  id: number; username?: string; fullName?: string; roleId: number; role: string; clientIds: number[] | null; reportTypeIds: number[] | null;
  /** Absent in events older than e-mail to the person (issue 40): the row keeps what it has. */
  email?: string | null;
  emailOptOuts?: string[];
}
interface UsersUpsertedPayload { users: UserUpsertedPayload[] }
interface UserDeletedPayload { id: number }

/** One user's write: the row's values, and the change time they carry. */
interface AccessEntry {
  userId: number;
  version: string;
  roleId: number | null; role: string; clientIds: number[]; reportTypeIds: number[]; deleted: boolean; username?: string; fullName?: string;
  /** Absent: the row keeps its address (an event older than addresses). */
  email?: string | null;
  /** Absent: the row keeps its opt-outs (the event did not change them). */
  emailOptOuts?: string[];
}

const upsertedEntry = (p: UserUpsertedPayload, version: string): AccessEntry => ({
  userId: p.id, version, roleId: p.roleId, role: p.role, clientIds: p.clientIds ?? [], reportTypeIds: p.reportTypeIds ?? [], deleted: false,
  username: p.username, fullName: p.fullName,
  ...('email' in p ? { email: p.email ?? null } : {}), ...(p.emailOptOuts ? { emailOptOuts: p.emailOptOuts } : {}),
});
interface RoleUpsertedPayload { id: number; name: string }
interface SessionsRevokedPayload { userId: number; sessionIds: string[] }

/** A user's role and access lists as identity last announced them. */
export interface UserAccess {
  role: string;
  /** In identity's order: a Client user's first id is their client. */
  clientIds: number[];
  reportTypeIds: number[];
}

/**
 * What the read model knows of a user: their access, that they were deleted (a
 * tombstone), or nothing yet (null: their event is on its way, or this service was
 * deployed after they were made).
 */
export type KnownUserAccess = UserAccess | typeof DELETED_USER | null;
export const DELETED_USER = 'deleted';

export interface UserAccessReadModel {
  /** Tenant-scoped table `<service>_user_access`: include in the service's migrations. */
  migrations: ServiceMigrations;
  /** Consumes identity's user and role events into each firm's schema until closed. */
  follow(deps: { db: Database; bus: Bus; logger: Logger; tenants: TenantRegistry }): Promise<Subscription>;
  lookup(db: SchemaDb, userId: number): Promise<KnownUserAccess>;
  /**
   * Records what identity answered when asked directly for a user the model did not know.
   * `version` is when that answer was true, so any event about a later change still wins.
   */
  remember(db: SchemaDb, userId: number, access: UserAccess & { roleId: number }, version: string): Promise<void>;
  /**
   * Adds report types identity has just granted (its answer) to a known user's list, so the
   * granting service acts on the grant before identity's event arrives; the row's version is
   * kept, so that event (or any later one) still replaces the row.
   */
  rememberGranted(db: SchemaDb, userId: number, reportTypeIds: readonly number[]): Promise<void>;
  /** Whether identity announced this sign-in session revoked. */
  sessionRevoked(db: SchemaDb, sessionId: string): Promise<boolean>;
  /**
   * Where a live user's e-mail goes: their address, else their username when it is one (null:
   * nowhere), and the kinds of e-mail they turned off; null for an unknown or deleted user.
   */
  mailbox(db: Queryable, userId: number): Promise<Mailbox | null>;
  /** Names of the live users among `ids` (DESIGN §7: names shown beside tasks, trackers, messages). */
  names(db: Queryable, ids: readonly number[]): Promise<Map<number, UserName>>;
  /** Table name, for joins; rows with `deleted` set are tombstones. */
  readonly table: string;
}

export interface Mailbox {
  to: string | null;
  optedOut: string[];
}

export interface UserName {
  username: string;
  fullName: string;
}

/**
 * Every API call reads its caller's access, and a page fires several calls at once: a
 * lookup is reused this long (per process), and dropped at once when this process
 * applies an event for the user. Another replica's change shows within this bound.
 */
const LOOKUP_CACHE_MS = 1000;
const LOOKUP_CACHE_MAX_ENTRIES = 10_000;

/**
 * DESIGN §2: services other than identity never read identity's tables, so each keeps
 * the access lists it enforces (DESIGN §3) in a small local table fed by events.
 * Delivery is at-least-once and unordered across redeliveries: every event is applied
 * once (inbox) and only if it is newer than what the row holds (`occurredAt`), and a
 * deletion leaves a tombstone so a late upsert cannot bring the user back.
 */
export function createUserAccessReadModel(service: string): UserAccessReadModel {
  if (!/^[a-z][a-z0-9_]*$/.test(service)) throw new Error(`Invalid service name for a table: ${service}`);
  const table = `${service}_user_access`;
  const consumer = `${service}.user-access`;
  const cache = new TtlCache<KnownUserAccess>({ ttlMs: LOOKUP_CACHE_MS, maxEntries: LOOKUP_CACHE_MAX_ENTRIES });
  const cacheKey = (schema: string, userId: number) => `${schema}/${userId}`;
  const revokedTable = `${service}_revoked_sessions`;
  const revokedCache = new TtlCache<boolean>({ ttlMs: LOOKUP_CACHE_MS, maxEntries: LOOKUP_CACHE_MAX_ENTRIES });

  /**
   * Writes users in as few statements as their kinds allow (one for an import's chunk), each
   * row only where the entry is newer than it (`version`), so a batch obeys the same rules as
   * its events applied one by one. One statement cannot change a row twice: of one user's
   * entries, the newest (the last of equals) stands for them all, as applying them in turn
   * would have left. Whether an entry says an address and opt-outs decides whether the row
   * keeps its own, so entries are written in groups by what they say.
   */
  const upsert = async (tx: Queryable, entries: readonly AccessEntry[]) => {
    const newest = new Map<number, AccessEntry>();
    for (const e of entries) {
      const seen = newest.get(e.userId);
      if (!seen || Date.parse(seen.version) <= Date.parse(e.version)) newest.set(e.userId, e);
    }
    const groups = new Map<string, AccessEntry[]>();
    for (const e of newest.values()) {
      const key = `${e.email !== undefined}/${e.emailOptOuts !== undefined}`;
      groups.set(key, [...(groups.get(key) ?? []), e]);
    }
    for (const group of groups.values()) {
      const emailSaid = group[0]!.email !== undefined;
      const optOutsSaid = group[0]!.emailOptOuts !== undefined;
      const rows = group.map((e) => ({
        user_id: e.userId, role_id: e.roleId, role: e.role, client_ids: e.clientIds, report_type_ids: e.reportTypeIds, deleted: e.deleted,
        version: e.version, username: e.username ?? null, full_name: e.fullName ?? null, email: e.email ?? null, email_opt_outs: e.emailOptOuts ?? [],
      }));
      await tx.query(
        `INSERT INTO ${table} (user_id, role_id, role, client_ids, report_type_ids, deleted, version, username, full_name, email, email_opt_outs)
         SELECT user_id, role_id, role, client_ids, report_type_ids, deleted, version, username, full_name, email, email_opt_outs
         FROM jsonb_to_recordset($1::jsonb) AS x(user_id integer, role_id integer, role text, client_ids integer[], report_type_ids integer[],
           deleted boolean, version timestamptz, username text, full_name text, email text, email_opt_outs text[])
         ON CONFLICT (user_id) DO UPDATE SET role_id = EXCLUDED.role_id, role = EXCLUDED.role, client_ids = EXCLUDED.client_ids,
           report_type_ids = EXCLUDED.report_type_ids, deleted = EXCLUDED.deleted, version = EXCLUDED.version,
           username = COALESCE(EXCLUDED.username, ${table}.username), full_name = COALESCE(EXCLUDED.full_name, ${table}.full_name),
           email = CASE WHEN $2 THEN EXCLUDED.email ELSE ${table}.email END,
           email_opt_outs = CASE WHEN $3 THEN EXCLUDED.email_opt_outs ELSE ${table}.email_opt_outs END
         WHERE ${table}.version <= EXCLUDED.version`,
        [JSON.stringify(rows), emailSaid, optOutsSaid],
      );
    }
  };

  const apply = async (tx: Queryable, event: EventEnvelope): Promise<void> => {
    if (event.type === USER_UPSERTED) {
      await upsert(tx, [upsertedEntry(event.payload as UserUpsertedPayload, event.occurredAt)]);
    } else if (event.type === USERS_UPSERTED) {
      // A whole chunk in one write: one inbox row and one statement instead of one per user.
      await upsert(tx, (event.payload as UsersUpsertedPayload).users.map((p) => upsertedEntry(p, event.occurredAt)));
    } else if (event.type === USER_DELETED) {
      await upsert(tx, [{ userId: (event.payload as UserDeletedPayload).id, version: event.occurredAt, roleId: null, role: '', clientIds: [], reportTypeIds: [], deleted: true }]);
    } else if (event.type === SESSIONS_REVOKED) {
      const p = event.payload as SessionsRevokedPayload;
      await tx.query(
        `INSERT INTO ${revokedTable} (session_id, user_id) SELECT s, $2 FROM unnest($1::text[]) AS s ON CONFLICT (session_id) DO NOTHING`,
        [p.sessionIds, p.userId],
      );
    } else if (event.type === ROLE_UPSERTED) {
      // A renamed role renames every user holding it; identity announces the role only.
      const p = event.payload as RoleUpsertedPayload;
      await tx.query(`UPDATE ${table} SET role = $2 WHERE role_id = $1 AND NOT deleted`, [p.id, p.name]);
    }
  };

  return {
    migrations: {
      service: `${service}-user-access`,
      scope: 'tenant',
      migrations: [{
        id: '001_user_access',
        sql: `CREATE TABLE ${table} (
          user_id integer PRIMARY KEY,
          role_id integer,
          role text NOT NULL,
          client_ids integer[] NOT NULL DEFAULT '{}',
          report_type_ids integer[] NOT NULL DEFAULT '{}',
          deleted boolean NOT NULL DEFAULT false,
          version timestamptz NOT NULL
        );
        CREATE INDEX ${table}_role ON ${table} (role_id)`,
      }, {
        // Identity's events always carried them; services that show names read them here.
        id: '002_user_names',
        sql: `ALTER TABLE ${table} ADD COLUMN username text, ADD COLUMN full_name text`,
      }, {
        // Kept until the tokens could have expired anyway; a revoked session never comes back.
        id: '003_revoked_sessions',
        sql: `CREATE TABLE ${revokedTable} (session_id text PRIMARY KEY, user_id integer NOT NULL, revoked_at timestamptz NOT NULL DEFAULT now())`,
      }, {
        // E-mail to the person (issue 40): their own address, and the kinds of e-mail they turned off.
        id: '004_user_mailbox',
        sql: `ALTER TABLE ${table} ADD COLUMN email text, ADD COLUMN email_opt_outs text[] NOT NULL DEFAULT '{}'`,
      }],
    },

    follow({ db, bus, logger, tenants }) {
      return bus.subscribe(consumer, [USER_UPSERTED, USERS_UPSERTED, USER_DELETED, ROLE_UPSERTED, SESSIONS_REVOKED], async (event) => {
        // A removed firm: nothing to keep for it (its schema stays, untouched).
        const target = await eventTenant({ db, bus, logger, tenants }, consumer, event);
        if (!target) return;
        await consumeOnce(target.db, consumer, event, (tx) => apply(tx, event));
        // A renamed role may concern any user: forget everything rather than search.
        if (event.type === ROLE_UPSERTED) cache.clear();
        else if (event.type === SESSIONS_REVOKED) for (const sid of (event.payload as SessionsRevokedPayload).sessionIds) revokedCache.delete(`${target.db.schema}/${sid}`);
        else if (event.type === USERS_UPSERTED) for (const u of (event.payload as UsersUpsertedPayload).users) cache.delete(cacheKey(target.db.schema, u.id));
        else cache.delete(cacheKey(target.db.schema, (event.payload as { id: number }).id));
      });
    },

    table,

    async names(db, ids) {
      const out = new Map<number, UserName>();
      if (!ids.length) return out;
      const { rows } = await db.query<{ user_id: number; username: string | null; full_name: string | null }>(
        `SELECT user_id, username, full_name FROM ${table} WHERE user_id = ANY($1::int[]) AND NOT deleted`, [[...new Set(ids)]],
      );
      for (const r of rows) out.set(r.user_id, { username: r.username ?? '', fullName: r.full_name || r.username || '' });
      return out;
    },

    async mailbox(db, userId) {
      const { rows } = await db.query<{ email: string | null; username: string | null; email_opt_outs: string[] }>(
        `SELECT email, username, email_opt_outs FROM ${table} WHERE user_id = $1 AND NOT deleted`, [userId],
      );
      const row = rows[0];
      if (!row) return null;
      return { to: mailAddressOf(row), optedOut: row.email_opt_outs ?? [] };
    },

    async lookup(db, userId) {
      const key = cacheKey(db.schema, userId);
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const { rows } = await db.query<{ role: string; client_ids: number[]; report_type_ids: number[]; deleted: boolean }>(
        `SELECT role, client_ids, report_type_ids, deleted FROM ${table} WHERE user_id = $1`, [userId],
      );
      const row = rows[0];
      const known: KnownUserAccess = !row ? null
        : row.deleted ? DELETED_USER
          : { role: row.role, clientIds: row.client_ids.map(Number), reportTypeIds: row.report_type_ids.map(Number) };
      cache.set(key, known);
      return known;
    },

    async sessionRevoked(db, sessionId) {
      const key = `${db.schema}/${sessionId}`;
      const cached = revokedCache.get(key);
      if (cached !== undefined) return cached;
      const { rows } = await db.query(`SELECT 1 FROM ${revokedTable} WHERE session_id = $1`, [sessionId]);
      revokedCache.set(key, rows.length > 0);
      return rows.length > 0;
    },

    async remember(db, userId, access, version) {
      await upsert(db, [{ userId, version, roleId: access.roleId, role: access.role, clientIds: access.clientIds, reportTypeIds: access.reportTypeIds, deleted: false }]);
      cache.delete(cacheKey(db.schema, userId));
    },

    async rememberGranted(db, userId, reportTypeIds) {
      await db.query(
        `UPDATE ${table} SET report_type_ids = ARRAY(SELECT DISTINCT unnest(report_type_ids || $2::int[]) ORDER BY 1)
         WHERE user_id = $1 AND NOT deleted`,
        [userId, [...reportTypeIds]],
      );
      cache.delete(cacheKey(db.schema, userId));
    },
  };
}
