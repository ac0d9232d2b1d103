import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { hashToken, newHashedToken } from '@ledgerline/kit/crypto/hashed-token.ts';

export type ChallengePurpose = 'verify' | 'setup';

export interface StoredChallenge {
  userId: number;
  purpose: ChallengePurpose;
  throttleKey: string;
  failures: number;
  expired: boolean;
}

/** Half-finished sign-ins, keyed by the hash of the random part of the challenge. */
export class MfaChallengeStore {
  async create(db: Queryable, input: { userId: number; purpose: ChallengePurpose; throttleKey: string; ttlSeconds: number; sealedPassword?: string }): Promise<string> {
    const { token, hash } = newHashedToken();
    // An older open challenge of the same user is superseded: one sign-in in progress at a time.
    await db.query('DELETE FROM mfa_challenges WHERE user_id = $1 OR expires_at < now()', [input.userId]);
    await db.query(
      `INSERT INTO mfa_challenges (token_hash, user_id, purpose, throttle_key, expires_at${input.sealedPassword ? ', sealed_password' : ''})
       VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 second')${input.sealedPassword ? ', $6' : ''})`,
      [hash, input.userId, input.purpose, input.throttleKey, input.ttlSeconds, ...(input.sealedPassword ? [input.sealedPassword] : [])],
    );
    return token;
  }

  /** Whose challenge this is (live or not), or null. */
  async userOf(db: Queryable, token: string): Promise<number | null> {
    const { rows } = await db.query<{ user_id: number }>('SELECT user_id FROM mfa_challenges WHERE token_hash = $1', [hashToken(token)]);
    return rows[0]?.user_id ?? null;
  }

  /** Locks the challenge row for the rest of the transaction: two codes sent at once are counted one after the other. */
  async lock(tx: Queryable, token: string): Promise<StoredChallenge | null> {
    const { rows } = await tx.query<{ user_id: number; purpose: ChallengePurpose; throttle_key: string; failures: number; expired: boolean }>(
      'SELECT user_id, purpose, throttle_key, failures, expires_at <= now() AS expired FROM mfa_challenges WHERE token_hash = $1 FOR UPDATE', [hashToken(token)],
    );
    const r = rows[0];
    return r ? { userId: r.user_id, purpose: r.purpose, throttleKey: r.throttle_key, failures: r.failures, expired: r.expired } : null;
  }

  /** The sealed password a Keycloak firm's code step carries (null for the portal's own factors). */
  async sealedPassword(tx: Queryable, token: string): Promise<string | null> {
    const { rows } = await tx.query<{ sealed_password: string | null }>('SELECT sealed_password FROM mfa_challenges WHERE token_hash = $1', [hashToken(token)]);
    return rows[0]?.sealed_password ?? null;
  }

  async recordFailure(tx: Queryable, token: string): Promise<void> {
    await tx.query('UPDATE mfa_challenges SET failures = failures + 1 WHERE token_hash = $1', [hashToken(token)]);
  }

  async delete(tx: Queryable, token: string): Promise<void> {
    await tx.query('DELETE FROM mfa_challenges WHERE token_hash = $1', [hashToken(token)]);
  }
}
