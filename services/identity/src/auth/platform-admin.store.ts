import { hashPassword, verifyPassword } from './password-hash.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';

export interface PlatformAdmin {
  id: number;
  username: string;
  fullName: string;
}

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

  async find(id: number): Promise<PlatformAdmin | null> {
    const { rows } = await this.#db.query<{ id: number; username: string; full_name: string }>('SELECT id, username, full_name FROM portal.platform_admins WHERE id = $1', [id]);
    const row = rows[0];
    return row ? { id: row.id, username: row.username, fullName: row.full_name } : null;
  }

  async verifyLogin(username: string, password: string): Promise<PlatformAdmin | null> {
    const { rows } = await this.#db.query<{ id: number; username: string; full_name: string; password_hash: string }>(
      'SELECT id, username, full_name, password_hash FROM portal.platform_admins WHERE username = $1',
      [username],
    );
    const row = rows[0];
    if (!(await verifyPassword(row?.password_hash ?? null, password)) || !row) return null;
    return { id: row.id, username: row.username, fullName: row.full_name };
  }
}
