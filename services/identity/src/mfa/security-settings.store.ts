import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { SecuritySettings } from '@ledgerline/contracts/sign-in-security.contracts.ts';

/** A firm's sign-in policy (one row per firm schema, defaults from the migration). */
export class SecuritySettingsStore {
  async get(db: Queryable): Promise<SecuritySettings> {
    const { rows } = await db.query<{ require_mfa_for_staff: boolean; require_mfa_for_clients: boolean; allow_email_code_for_staff: boolean; allow_email_code_for_clients: boolean; client_email_sign_in: boolean }>(
      'SELECT require_mfa_for_staff, require_mfa_for_clients, allow_email_code_for_staff, allow_email_code_for_clients, client_email_sign_in FROM security_settings',
    );
    const r = rows[0]!;
    return {
      requireMfaForStaff: r.require_mfa_for_staff,
      requireMfaForClients: r.require_mfa_for_clients,
      allowEmailCodeForStaff: r.allow_email_code_for_staff,
      allowEmailCodeForClients: r.allow_email_code_for_clients,
      clientEmailSignIn: r.client_email_sign_in,
    };
  }

  async put(db: Queryable, s: SecuritySettings): Promise<SecuritySettings> {
    await db.query(
      `UPDATE security_settings SET require_mfa_for_staff = $1, require_mfa_for_clients = $2, allow_email_code_for_staff = $3,
         allow_email_code_for_clients = $4, client_email_sign_in = $5, updated_at = now()`,
      [s.requireMfaForStaff, s.requireMfaForClients, s.allowEmailCodeForStaff, s.allowEmailCodeForClients, s.clientEmailSignIn],
    );
    return this.get(db);
  }
}
