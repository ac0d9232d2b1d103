import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { isUniqueViolation } from '@ledgerline/kit/db/sql-errors.ts';
import { Conflict, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { User, UserInput, UserStatus } from '@ledgerline/contracts/identity.contracts.ts';
import type { EmailKind } from '@ledgerline/contracts/notifications.contracts.ts';

interface UserRow {
  id: number;
  username: string;
  full_name: string;
  role_id: number;
  role_name: string;
  client_ids: number[] | null;
  report_type_ids: number[] | null;
  email: string | null;
  created_at: Date | string;
  status: UserStatus;
  invited_at: Date | string | null;
}

/** A user's status (contracts USER_STATUSES), from their activation and their live invitation. */
const STATUS = `CASE WHEN u.activated_at IS NOT NULL THEN 'active'
  WHEN EXISTS (SELECT 1 FROM invitations i WHERE i.user_id = u.id AND i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()) THEN 'invited'
  ELSE 'disabled' END`;

const SELECT = `SELECT u.id, u.username, u.full_name, u.role_id, r.name AS role_name, u.report_type_ids, u.email, u.created_at,
  ${STATUS} AS status, CASE WHEN u.activated_at IS NULL THEN u.invited_at END AS invited_at,
  (SELECT array_agg(a.client_id ORDER BY a.position) FROM user_client_access a WHERE a.user_id = u.id) AS client_ids
  FROM users u JOIN roles r ON r.id = u.role_id`;

const toUser = (r: UserRow): User => ({
  id: r.id,
  username: r.username,
  fullName: r.full_name,
  roleId: r.role_id,
  roleName: r.role_name,
  role: r.role_name,
  clientIds: r.client_ids?.length ? r.client_ids.map(Number) : null,
  reportTypeIds: r.report_type_ids?.length ? r.report_type_ids.map(Number) : null,
  email: r.email,
  createdAt: new Date(r.created_at).toISOString(),
  status: r.status,
  invitedAt: r.status === 'invited' && r.invited_at ? new Date(r.invited_at).toISOString() : null,
});

export const USER_NOT_FOUND = 'User not found';
const USERNAME_TAKEN = 'Username already exists';
const EMAIL_TAKEN = 'Another user of this firm has this email address';

/**
 * Tenant users, their client-access list (ordered: a Client user's first entry is their
 * client) and report-type access, plus the platform-wide username index the generic
 * /login uses to find a user's firm.
 */
export class UserStore {
  async list(db: Queryable, filter: { clientId?: number } = {}): Promise<User[]> {
    const { rows } = filter.clientId === undefined
      ? await db.query<UserRow>(`${SELECT} ORDER BY u.full_name, u.id`)
      : await db.query<UserRow>(`${SELECT} WHERE EXISTS (SELECT 1 FROM user_client_access a WHERE a.user_id = u.id AND a.client_id = $1) ORDER BY u.full_name, u.id`, [filter.clientId]);
    return rows.map(toUser);
  }

  async get(db: Queryable, id: number): Promise<User> {
    const user = await this.find(db, id);
    if (!user) throw new NotFound(USER_NOT_FOUND);
    return user;
  }

  async find(db: Queryable, id: number): Promise<User | null> {
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.id = $1`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findByUsername(db: Queryable, username: string): Promise<User | null> {
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.username = $1`, [username]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** The user with this e-mail address (any case), or null. */
  async findByEmail(db: Queryable, email: string): Promise<User | null> {
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE lower(u.email) = lower($1)`, [email]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** A sign-in also activates a user who never set a password (a Client user signing in by an e-mailed code). */
  async recordLogin(db: Queryable, id: number): Promise<void> {
    // The platform's login index keeps the time too, for the platform overview (identity migration 012).
    await db.query(
      `WITH signed_in AS (UPDATE users SET last_login_at = now(), activated_at = COALESCE(activated_at, now()) WHERE id = $1 RETURNING username)
       UPDATE portal.user_logins SET last_login_at = now() WHERE username = (SELECT username FROM signed_in) AND schema_name = current_schema()`,
      [id],
    );
  }

  /** The user can sign in from now on (a password set, an invitation accepted). */
  async activate(db: Queryable, id: number): Promise<void> {
    await db.query('UPDATE users SET activated_at = COALESCE(activated_at, now()) WHERE id = $1', [id]);
  }

  async markInvited(db: Queryable, id: number, at: Date | null): Promise<void> {
    await db.query('UPDATE users SET invited_at = $2 WHERE id = $1', [id, at]);
  }

  /** The kinds of e-mail the user turned off. */
  async emailOptOuts(db: Queryable, id: number): Promise<EmailKind[]> {
    const { rows } = await db.query<{ email_opt_outs: EmailKind[] }>('SELECT email_opt_outs FROM users WHERE id = $1', [id]);
    if (!rows[0]) throw new NotFound(USER_NOT_FOUND);
    return rows[0].email_opt_outs;
  }

  async setEmailOptOuts(db: Queryable, id: number, off: readonly EmailKind[]): Promise<void> {
    const { rowCount } = await db.query('UPDATE users SET email_opt_outs = $2::text[] WHERE id = $1', [id, [...off]]);
    if (!rowCount) throw new NotFound(USER_NOT_FOUND);
  }

  /** Users and those signed in within `days` days, for the administrator dashboard. */
  /** Users of the given firms (by schema name) and those who signed in within `days`, from the platform's login index: one statement for any number of firms. */
  async activity(db: Queryable, schemaNames: readonly string[], days: number): Promise<{ total: number; active: number }> {
    const { rows } = await db.query<{ total: number; active: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE last_login_at > now() - make_interval(days => $2))::int AS active
       FROM portal.user_logins WHERE schema_name = ANY($1::text[])`, [schemaNames, days],
    );
    return rows[0] ?? { total: 0, active: 0 };
  }

  /** `active`: the user has a password to sign in with; otherwise they wait for an invitation. */
  async create(tx: Queryable, schemaName: string, input: Omit<UserInput, 'password' | 'invite'>, active = true): Promise<User> {
    await this.#assertRole(tx, input.roleId);
    await claimUsername(tx, input.username, schemaName);
    const { rows } = await unique(tx.query<{ id: number }>(
      'INSERT INTO users (username, full_name, role_id, report_type_ids, email, activated_at) VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END) RETURNING id',
      [input.username, input.fullName, input.roleId, input.reportTypeIds, input.email ?? null, active],
    ));
    const id = rows[0]!.id;
    await this.#writeClientAccess(tx, id, input.clientIds);
    return this.get(tx, id);
  }

  async update(tx: Queryable, schemaName: string, id: number, input: Omit<UserInput, 'password' | 'invite'>): Promise<{ before: User; after: User }> {
    const before = await this.get(tx, id);
    await this.#assertRole(tx, input.roleId);
    if (before.username !== input.username) {
      await claimUsername(tx, input.username, schemaName);
      await tx.query('DELETE FROM portal.user_logins WHERE username = $1 AND schema_name = $2', [before.username, schemaName]);
    }
    await unique(tx.query(
      'UPDATE users SET username = $2, full_name = $3, role_id = $4, report_type_ids = $5, email = $6 WHERE id = $1',
      [id, input.username, input.fullName, input.roleId, input.reportTypeIds, input.email ?? null],
    ));
    await this.#writeClientAccess(tx, id, input.clientIds);
    return { before, after: await this.get(tx, id) };
  }

  /** Adds report types to the user's list; the ids it lacked, in the order given. */
  async grantReportTypes(tx: Queryable, id: number, reportTypeIds: readonly number[]): Promise<{ added: number[]; after: User }> {
    const before = await this.get(tx, id);
    const had = new Set(before.reportTypeIds ?? []);
    const added = reportTypeIds.filter((r) => !had.has(r));
    if (added.length) await tx.query('UPDATE users SET report_type_ids = COALESCE(report_type_ids, \'{}\') || $2::int[] WHERE id = $1', [id, added]);
    return { added, after: await this.get(tx, id) };
  }

  async delete(tx: Queryable, schemaName: string, id: number): Promise<User> {
    const user = await this.get(tx, id);
    await tx.query('DELETE FROM users WHERE id = $1', [id]);
    await tx.query('DELETE FROM portal.user_logins WHERE username = $1 AND schema_name = $2', [user.username, schemaName]);
    return user;
  }

  /**
   * A Client user of one client, made in few statements (the client import makes thousands):
   * no provider account and no password (they sign in with an e-mailed code until invited).
   * `username` must be free (claimFreeUsername).
   */
  async createClientContact(tx: Queryable, c: { username: string; fullName: string; roleId: number; roleName: string; clientId: number; email: string }): Promise<User> {
    const { rows } = await unique(tx.query<{ id: number; created_at: Date | string }>(
      'INSERT INTO users (username, full_name, role_id, report_type_ids, email) VALUES ($1, $2, $3, NULL, $4) RETURNING id, created_at',
      [c.username, c.fullName, c.roleId, c.email],
    ));
    const { id, created_at: createdAt } = rows[0]!;
    await tx.query('INSERT INTO user_client_access (user_id, client_id, position) VALUES ($1, $2, 1)', [id, c.clientId]);
    return toUser({ id, username: c.username, full_name: c.fullName, role_id: c.roleId, role_name: c.roleName, client_ids: [c.clientId], report_type_ids: null, email: c.email, created_at: createdAt, status: 'disabled', invited_at: null });
  }

  /** Adds clients to the end of a user's access list (those it lacks), keeping its order. */
  async appendClients(tx: Queryable, userId: number, clientIds: readonly number[]): Promise<void> {
    await tx.query(
      `INSERT INTO user_client_access (user_id, client_id, position)
       SELECT $1, c, (SELECT coalesce(max(position), 0) FROM user_client_access WHERE user_id = $1) + ord
       FROM unnest($2::int[]) WITH ORDINALITY AS t(c, ord) ON CONFLICT (user_id, client_id) DO NOTHING`, [userId, clientIds]);
  }

  /** Users by e-mail address (lower case) or username, for checking many names at once. */
  async findByEmailsOrUsernames(db: Queryable, names: readonly string[]): Promise<User[]> {
    if (!names.length) return [];
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE lower(u.email) = ANY($1::text[]) OR u.username = ANY($1::text[])`, [names]);
    return rows.map(toUser);
  }

  /** The Client-role users whose own client (the first of their list) is this one. */
  async clientUsersOf(db: Queryable, clientId: number): Promise<number[]> {
    const { rows } = await db.query<{ id: number }>(
      `SELECT u.id FROM users u JOIN roles r ON r.id = u.role_id
       WHERE lower(r.name) = 'client'
         AND (SELECT a.client_id FROM user_client_access a WHERE a.user_id = u.id ORDER BY a.position LIMIT 1) = $1
       ORDER BY u.id`,
      [clientId],
    );
    return rows.map((r) => r.id);
  }

  /** Drops a deleted client from every access list; returns the users whose list changed. */
  async removeClient(tx: Queryable, clientId: number): Promise<number[]> {
    const { rows } = await tx.query<{ user_id: number }>('DELETE FROM user_client_access WHERE client_id = $1 RETURNING user_id', [clientId]);
    return rows.map((r) => r.user_id);
  }

  async #assertRole(db: Queryable, roleId: number): Promise<void> {
    const { rows } = await db.query('SELECT 1 FROM roles WHERE id = $1', [roleId]);
    if (!rows.length) throw new Invalid('Please select a role');
  }

  async #writeClientAccess(db: Queryable, userId: number, clientIds: number[] | null): Promise<void> {
    await db.query('DELETE FROM user_client_access WHERE user_id = $1', [userId]);
    if (!clientIds?.length) return;
    await db.query(
      'INSERT INTO user_client_access (user_id, client_id, position) SELECT $1, c, ord FROM unnest($2::int[]) WITH ORDINALITY AS t(c, ord)',
      [userId, clientIds],
    );
  }
}

/**
 * Claims the first of `candidates` no one on the platform uses (usernames are platform-wide:
 * the generic sign-in finds the firm by them); null when all are taken.
 */
export async function claimFreeUsername(tx: Queryable, candidates: readonly string[], schemaName: string): Promise<string | null> {
  for (const candidate of candidates) {
    const admin = await tx.query('SELECT 1 FROM portal.platform_admins WHERE username = $1', [candidate]);
    if (admin.rows.length) continue;
    const { rows } = await tx.query('INSERT INTO portal.user_logins (username, schema_name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING username', [candidate, schemaName]);
    if (rows.length) return candidate;
  }
  return null;
}

async function claimUsername(tx: Queryable, username: string, schemaName: string): Promise<void> {
  const admin = await tx.query('SELECT 1 FROM portal.platform_admins WHERE username = $1', [username]);
  if (admin.rows.length) throw new Conflict(USERNAME_TAKEN);
  await unique(tx.query('INSERT INTO portal.user_logins (username, schema_name) VALUES ($1, $2)', [username, schemaName]));
}

async function unique<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (isUniqueViolation(err, 'users_email')) throw new Conflict(EMAIL_TAKEN);
    if (isUniqueViolation(err)) throw new Conflict(USERNAME_TAKEN);
    throw err;
  }
}
