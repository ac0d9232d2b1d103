import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import type { TotpSeal } from './identity.portability.ts';

/** The identity provider, and how the firm's authenticator secrets open. */
export type ImportedSignInDeps = { provider: IdentityProvider } & Pick<TotpSeal, 'openTotp'>;

export interface ImportedSignIn {
  /** Whether the provider created the firm's realm now (a failed import then removes it). */
  created: boolean;
  /** Users without a password to sign in with: the archive has none (their firm signed in through Keycloak) and the realm neither. */
  withoutPassword: number;
}

export const USERS_WITHOUT_PASSWORD = (n: number) =>
  `${n === 1 ? '1 user has' : `${n} users have`} no password in the archive (the firm signed in through Keycloak there): an Admin sets one for each under Users.`;

/**
 * The step of a firm import that gives the identity provider the firm's roles and users,
 * once every service's part is in the new schema and before the firm is registered. On the
 * built-in issuer the archive's rows are the sign-in already; on Keycloak the realm is
 * provisioned with each user, their role and the password hash and authenticator the
 * archive holds, and the firm's own password and authenticator rows are emptied: a Keycloak
 * firm keeps those in its realm only, so a later export never carries stale ones.
 */
export async function provisionImportedSignIn(deps: ImportedSignInDeps, shortName: string, db: SchemaDb): Promise<ImportedSignIn> {
  const { provider } = deps;
  const roles = await db.query<{ name: string }>('SELECT name FROM roles ORDER BY id');
  const created = await provider.provisionTenant(shortName, roles.rows.map((r) => r.name));
  try {
    const { rows } = await db.query<{ id: number; username: string; full_name: string; role: string; password_hash: string | null; totp_secret: string | null }>(
      `SELECT u.id, u.username, u.full_name, r.name AS role, c.password_hash, f.totp_secret
       FROM users u JOIN roles r ON r.id = u.role_id
       LEFT JOIN credentials c ON c.user_id = u.id LEFT JOIN mfa_factors f ON f.user_id = u.id
       ORDER BY u.id`);
    let withoutPassword = 0;
    for (const u of rows) {
      const canSignIn = await provider.importUser(shortName, {
        id: u.id, username: u.username, fullName: u.full_name, role: u.role, passwordHash: u.password_hash,
        totpSecret: u.totp_secret === null ? null : deps.openTotp(db.schema, u.id, u.totp_secret),
      });
      if (!canSignIn) withoutPassword++;
    }
    if (provider.kind === 'keycloak') await db.query('TRUNCATE credentials, mfa_factors');
    return { created, withoutPassword };
  } catch (err) {
    if (created) await provider.discardTenant(shortName);
    throw err;
  }
}
