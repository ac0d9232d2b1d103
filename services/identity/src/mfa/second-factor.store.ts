import type { Queryable } from '@ledgerline/kit/db/database.ts';

export interface FactorStatus {
  totp: boolean;
  recoveryCodesLeft: number;
  /** Registered passkeys (PasskeyStore keeps them). */
  passkeys: number;
}

/**
 * A user's authenticator secret (sealed by the caller) and recovery-code hashes (and how
 * many passkeys they have), in the
 * schema of the firm (or the platform) the db handle points at.
 */
export class SecondFactorStore {
  async status(db: Queryable, userId: number): Promise<FactorStatus> {
    const { rows } = await db.query<{ totp: boolean; left: number; passkeys: number }>(
      `SELECT EXISTS (SELECT 1 FROM mfa_factors WHERE user_id = $1 AND totp_secret IS NOT NULL) AS totp,
              (SELECT count(*)::int FROM mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS left,
              (SELECT count(*)::int FROM passkeys WHERE user_id = $1) AS passkeys`, [userId],
    );
    return { totp: rows[0]!.totp, recoveryCodesLeft: rows[0]!.left, passkeys: rows[0]!.passkeys };
  }

  /** Users with any second factor (the Admin's factor overview). */
  async enrolled(db: Queryable): Promise<Map<number, FactorStatus>> {
    const { rows } = await db.query<{ user_id: number; totp: boolean; left: number; passkeys: number }>(
      `SELECT u.user_id,
              EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.user_id AND f.totp_secret IS NOT NULL) AS totp,
              (SELECT count(*)::int FROM mfa_recovery_codes r WHERE r.user_id = u.user_id AND r.used_at IS NULL) AS left,
              (SELECT count(*)::int FROM passkeys p WHERE p.user_id = u.user_id) AS passkeys
       FROM (SELECT user_id FROM mfa_factors UNION SELECT user_id FROM mfa_recovery_codes UNION SELECT user_id FROM passkeys) u`,
    );
    return new Map(rows.map((r) => [r.user_id, { totp: r.totp === true, recoveryCodesLeft: r.left, passkeys: r.passkeys }]));
  }

  async setPendingTotp(db: Queryable, userId: number, sealedSecret: string): Promise<void> {
    await db.query(
      `INSERT INTO mfa_factors (user_id, totp_pending_secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET totp_pending_secret = EXCLUDED.totp_pending_secret`, [userId, sealedSecret],
    );
  }

  async totpSecrets(db: Queryable, userId: number): Promise<{ secret: string | null; pending: string | null; lastStep: number }> {
    const { rows } = await db.query<{ totp_secret: string | null; totp_pending_secret: string | null; totp_last_step: string }>(
      'SELECT totp_secret, totp_pending_secret, totp_last_step FROM mfa_factors WHERE user_id = $1', [userId],
    );
    const r = rows[0];
    return { secret: r?.totp_secret ?? null, pending: r?.totp_pending_secret ?? null, lastStep: Number(r?.totp_last_step ?? 0) };
  }

  /** The pending secret becomes the authenticator; `step` is the code's, so it cannot be used again. */
  async confirmTotp(db: Queryable, userId: number, step: number): Promise<void> {
    await db.query(
      `UPDATE mfa_factors SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2, totp_enabled_at = now()
       WHERE user_id = $1 AND totp_pending_secret IS NOT NULL`, [userId, step],
    );
  }

  /** Records a code's step as used; false when it (or a later one) was used already: a replay. */
  async acceptStep(db: Queryable, userId: number, step: number): Promise<boolean> {
    const { rowCount } = await db.query('UPDATE mfa_factors SET totp_last_step = $2 WHERE user_id = $1 AND totp_last_step < $2', [userId, step]);
    return rowCount > 0;
  }

  async removeTotp(db: Queryable, userId: number): Promise<void> {
    await db.query('UPDATE mfa_factors SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL WHERE user_id = $1', [userId]);
  }

  async replaceRecoveryCodes(db: Queryable, userId: number, hashes: readonly string[]): Promise<void> {
    await db.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
    await db.query('INSERT INTO mfa_recovery_codes (user_id, code_hash) SELECT $1, h FROM unnest($2::text[]) AS h', [userId, hashes]);
  }

  /** Marks the code used; false when it is unknown or was used before. */
  async useRecoveryCode(db: Queryable, userId: number, hash: string): Promise<boolean> {
    const { rowCount } = await db.query('UPDATE mfa_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [userId, hash]);
    return rowCount > 0;
  }

  /** Everything: the authenticator, recovery codes, passkeys and open challenges (an Admin's reset). */
  async removeAll(db: Queryable, userId: number): Promise<void> {
    await db.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
    await db.query('DELETE FROM passkey_ceremonies WHERE user_id = $1', [userId]);
    await db.query('DELETE FROM mfa_factors WHERE user_id = $1', [userId]);
    await db.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
    await db.query('DELETE FROM mfa_challenges WHERE user_id = $1', [userId]);
  }
}
