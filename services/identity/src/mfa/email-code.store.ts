import { randomInt } from 'node:crypto';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { hashToken, newHashedToken } from '@ledgerline/kit/crypto/hashed-token.ts';

export type EmailCodePurpose = 'sign-in' | 'mfa';
export const EMAIL_CODE_TTL_MINUTES = 10;
export const EMAIL_CODE_MAX_FAILURES = 5;

/** A 6-digit code is only a million guesses: its hash is salted with the user, and it lives 10 minutes and 5 tries. */
const codeHash = (userId: number, code: string) => hashToken(`${userId}:${code.replace(/\s/g, '')}`);

/** One-time codes (and sign-in links) e-mailed to a user; only hashes are stored. */
export class EmailCodeStore {
  /** A new code (and, for sign-in, a link token) replacing the user's earlier ones of this purpose. */
  async issue(tx: Queryable, userId: number, purpose: EmailCodePurpose): Promise<{ code: string; linkToken: string | null }> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const link = purpose === 'sign-in' ? newHashedToken() : null;
    await tx.query('DELETE FROM email_codes WHERE (user_id = $1 AND purpose = $2) OR expires_at < now()', [userId, purpose]);
    await tx.query(
      `INSERT INTO email_codes (user_id, purpose, code_hash, link_hash, expires_at) VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 minute'))`,
      [userId, purpose, codeHash(userId, code), link?.hash ?? null, EMAIL_CODE_TTL_MINUTES],
    );
    return { code, linkToken: link?.token ?? null };
  }

  /**
   * Uses the user's live code of this purpose if `code` matches (true); a wrong one counts,
   * and the fifth wrong one ends the code.
   */
  async useCode(tx: Queryable, userId: number, purpose: EmailCodePurpose, code: string): Promise<boolean> {
    const { rows } = await tx.query<{ id: number; code_hash: string; failures: number }>(
      `SELECT id, code_hash, failures FROM email_codes WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
      [userId, purpose],
    );
    const row = rows[0];
    if (!row || row.failures >= EMAIL_CODE_MAX_FAILURES) return false;
    if (row.code_hash === codeHash(userId, code)) {
      await tx.query('UPDATE email_codes SET used_at = now() WHERE id = $1', [row.id]);
      return true;
    }
    await tx.query('UPDATE email_codes SET failures = failures + 1 WHERE id = $1', [row.id]);
    return false;
  }

  /** The user of a live sign-in link, using it up; null for an unknown, used or expired link. */
  async useLink(tx: Queryable, token: string): Promise<number | null> {
    const { rows } = await tx.query<{ user_id: number }>(
      `UPDATE email_codes SET used_at = now() WHERE link_hash = $1 AND purpose = 'sign-in' AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [hashToken(token)],
    );
    return rows[0]?.user_id ?? null;
  }
}
