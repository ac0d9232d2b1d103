import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { Passkey } from '@ledgerline/contracts/sign-in-security.contracts.ts';

export type CeremonyPurpose = 'register' | 'second-factor' | 'sign-in';

export interface StoredPasskey {
  id: number;
  userId: number;
  credentialId: string;
  /** base64url of the COSE key. */
  publicKey: string;
  signCount: number;
  transports: string[];
}

interface PasskeyRow {
  id: number; user_id: number; credential_id: string; public_key: string; sign_count: string; transports: string[];
  name: string; created_at: Date; last_used_at: Date | null;
}

const summary = (r: PasskeyRow): Passkey => ({
  id: r.id, name: r.name, createdAt: new Date(r.created_at).toISOString(), lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
});

const stored = (r: PasskeyRow): StoredPasskey => ({
  id: r.id, userId: r.user_id, credentialId: r.credential_id, publicKey: r.public_key, signCount: Number(r.sign_count), transports: r.transports,
});

/**
 * Passkeys (WebAuthn credentials) and the challenges of ceremonies in progress, in the
 * schema of the firm (or the platform) the db handle points at.
 */
export class PasskeyStore {
  async list(db: Queryable, userId: number): Promise<Passkey[]> {
    const { rows } = await db.query<PasskeyRow>('SELECT * FROM passkeys WHERE user_id = $1 ORDER BY created_at, id', [userId]);
    return rows.map(summary);
  }

  async ofUser(db: Queryable, userId: number): Promise<StoredPasskey[]> {
    const { rows } = await db.query<PasskeyRow>('SELECT * FROM passkeys WHERE user_id = $1', [userId]);
    return rows.map(stored);
  }

  async byCredentialId(db: Queryable, credentialId: string): Promise<StoredPasskey | null> {
    const { rows } = await db.query<PasskeyRow>('SELECT * FROM passkeys WHERE credential_id = $1', [credentialId]);
    return rows[0] ? stored(rows[0]) : null;
  }

  /** False when this credential is registered already (to anyone in this schema). */
  async add(db: Queryable, p: Omit<StoredPasskey, 'id'> & { name: string }): Promise<Passkey | null> {
    const { rows } = await db.query<PasskeyRow>(
      `INSERT INTO passkeys (user_id, credential_id, public_key, sign_count, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (credential_id) DO NOTHING RETURNING *`,
      [p.userId, p.credentialId, p.publicKey, p.signCount, p.transports, p.name],
    );
    return rows[0] ? summary(rows[0]) : null;
  }

  /**
   * Records a use with the counter the authenticator signed. Compare-and-set on the counter
   * the check was made against: of two assertions verified at once, only one lands.
   */
  async recordUse(db: Queryable, p: StoredPasskey, newCount: number): Promise<boolean> {
    const { rowCount } = await db.query(
      'UPDATE passkeys SET sign_count = $3, last_used_at = now() WHERE id = $1 AND sign_count = $2', [p.id, p.signCount, newCount]);
    return rowCount > 0;
  }

  async remove(db: Queryable, userId: number, id: number): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [id, userId]);
    return rowCount > 0;
  }

  async startCeremony(db: Queryable, c: { challenge: string; purpose: CeremonyPurpose; userId: number | null; ttlSeconds: number }): Promise<void> {
    // A user's older ceremony of the same kind is superseded; expired ones of anyone go too.
    await db.query('DELETE FROM passkey_ceremonies WHERE expires_at < now() OR (user_id = $1 AND purpose = $2)', [c.userId, c.purpose]);
    await db.query(
      `INSERT INTO passkey_ceremonies (challenge, purpose, user_id, expires_at) VALUES ($1, $2, $3, now() + ($4::int * interval '1 second'))`,
      [c.challenge, c.purpose, c.userId, c.ttlSeconds],
    );
  }

  /**
   * Takes a live ceremony's challenge (once: it is deleted). Answers whether it existed for
   * this purpose and user (null: a sign-in, where the passkey names the user).
   */
  async takeCeremony(db: Queryable, challenge: string, purpose: CeremonyPurpose, userId: number | null): Promise<boolean> {
    const { rows } = await db.query<{ live: boolean }>(
      `DELETE FROM passkey_ceremonies WHERE challenge = $1 AND purpose = $2 AND user_id IS NOT DISTINCT FROM $3::int
       RETURNING expires_at > now() AS live`, [challenge, purpose, userId]);
    return rows[0]?.live === true;
  }
}
