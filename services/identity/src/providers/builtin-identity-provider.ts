import { hashPassword, verifyPassword } from '../auth/password-hash.ts';
import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { IdentityProvider, ImportedUser, ProviderUser } from './identity-provider.ts';

/**
 * The embedded default: argon2id hashes in the tenant's `credentials` table, tokens from
 * the built-in issuer. Roles need no provisioning: the role name travels in the token.
 */
export class BuiltinIdentityProvider implements IdentityProvider {
  readonly kind = 'builtin' as const;
  readonly #db: Database;
  readonly #issuer: TokenIssuer;
  readonly #schemaOf: (tenant: string) => Promise<string>;

  constructor(db: Database, issuer: TokenIssuer, schemaOf: (tenant: string) => Promise<string>) {
    this.#db = db;
    this.#issuer = issuer;
    this.#schemaOf = schemaOf;
  }

  async provisionTenant(tenant: string): Promise<boolean> {
    await this.#setDisabled(tenant, false);
    return false;
  }

  /** Nothing outside the firm's schema, which a failed import drops. */
  async discardTenant(): Promise<void> {}

  async retireTenant(tenant: string): Promise<void> {
    await this.#setDisabled(tenant, true);
  }

  async upsertRole(): Promise<void> {}
  async deleteRole(): Promise<void> {}

  async renameRole(tenant: string, from: string, to: string): Promise<void> {
    await this.#tenantDb(tenant).then((db) => db.query('UPDATE credentials SET role = $2 WHERE role = $1', [from, to]));
  }

  async upsertUser(tenant: string, user: ProviderUser): Promise<void> {
    const db = await this.#tenantDb(tenant);
    const passwordHash = user.password === undefined ? null : await hashPassword(user.password);
    const { rowCount } = await db.query(
      `UPDATE credentials SET username = $2, full_name = $3, role = $4, password_hash = COALESCE($5, password_hash) WHERE user_id = $1`,
      [user.id, user.username, user.fullName, user.role, passwordHash],
    );
    if (rowCount > 0) return;
    // No password yet (an invited user): the row holds none, and no password signs them in.
    await db.query(
      'INSERT INTO credentials (user_id, username, full_name, role, password_hash) VALUES ($1, $2, $3, $4, $5)',
      [user.id, user.username, user.fullName, user.role, passwordHash],
    );
  }

  async deleteUser(tenant: string, username: string): Promise<void> {
    await (await this.#tenantDb(tenant)).query('DELETE FROM credentials WHERE username = $1', [username]);
  }

  /** The archive filled the credentials and factor tables already. */
  async importUser(_tenant: string, user: ImportedUser): Promise<boolean> {
    return user.passwordHash !== null;
  }

  async login(tenant: string, username: string, password: string): Promise<string | null> {
    const db = await this.#tenantDb(tenant);
    const { rows } = await db.query<{ user_id: number; username: string; full_name: string; role: string; password_hash: string | null }>(
      'SELECT user_id, username, full_name, role, password_hash FROM credentials WHERE username = $1 AND NOT disabled',
      [username],
    );
    const row = rows[0];
    if (!(await verifyPassword(row?.password_hash ?? null, password)) || !row) return null;
    return this.#issuer.sign({ sub: String(row.user_id), username: row.username, fullName: row.full_name, role: row.role, tenant, platformAdmin: false });
  }

  /** The portal's own second factors (MfaService) follow the password, never inside it, and its policy is checked there. */
  async asksForOtp(): Promise<boolean> {
    return false;
  }

  async requireSecondFactor(): Promise<void> {}

  async addAuthenticator(): Promise<void> {
    throw new Error('The built-in issuer keeps authenticators with the portal\'s other factors (MfaService)');
  }

  /** The portal's own factors go with MfaService.reset. */
  async resetSecondFactors(): Promise<void> {}

  async realmSessions(): Promise<null> {
    return null;
  }

  async endRealmSessions(): Promise<string[]> {
    return [];
  }

  async usersWithAuthenticator(): Promise<null> {
    return null;
  }

  accountConsoleUrl(): null {
    return null;
  }

  trustFor(): null {
    return null;
  }

  async close(): Promise<void> {}

  /**
   * A firm whose record is already gone (deleted, or renamed away from this short name)
   * has no schema to reach; its logins already fail at the company lookup.
   */
  async #setDisabled(tenant: string, disabled: boolean): Promise<void> {
    const schema = await this.#schemaOf(tenant).catch(() => null);
    if (schema) await this.#db.forSchema(schema).query('UPDATE credentials SET disabled = $1', [disabled]);
  }

  async #tenantDb(tenant: string) {
    return this.#db.forSchema(await this.#schemaOf(tenant));
  }
}
