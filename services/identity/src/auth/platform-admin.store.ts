import { hash, verify } from '@node-rs/argon2';
import type { Database } from '@ledgerline/kit/db/database.ts';

export interface PlatformAdmin {
  id: number;
  username: string;
  fullName: string;
}

/** The library's default is argon2id with its recommended memory/time cost (its Algorithm enum is type-only). */
const hashPassword = (password: string): Promise<string> => hash(password);

/**
 * Burned on unknown usernames so a login for a missing account costs as much as one
 * for an existing account (no user enumeration by timing).
 */
const DUMMY_HASH = hashPassword('not-a-real-password');

export class PlatformAdminStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Creates the bootstrap administrator once; an existing account is never overwritten. */
  async seed(username: string, password: string, fullName: string): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      'INSERT INTO portal.platform_admins (username, password_hash, full_name) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING',
      [username, await hashPassword(password), fullName],
    );
    return rowCount > 0;
  }

  async verifyLogin(username: string, password: string): Promise<PlatformAdmin | null> {
    const { rows } = await this.#db.query<{ id: number; username: string; full_name: string; password_hash: string }>(
      'SELECT id, username, full_name, password_hash FROM portal.platform_admins WHERE username = $1',
      [username],
    );
    const row = rows[0];
    if (!row) {
      await verify(await DUMMY_HASH, password);
      return null;
    }
    if (!(await verify(row.password_hash, password))) return null;
    return { id: row.id, username: row.username, fullName: row.full_name };
  }
}
