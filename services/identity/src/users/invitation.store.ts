import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { hashToken, newHashedToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import { INVITATION_TTL_DAYS } from '@ledgerline/contracts/identity.contracts.ts';

export interface LiveInvitation { id: number; userId: number; expiresAt: Date }

const LIVE = 'used_at IS NULL AND revoked_at IS NULL AND expires_at > now()';

/**
 * Invitation links: the kit's one public-link token (DESIGN §8, kit/crypto/hashed-token.ts),
 * stored as its hash, 7 days, once. A user has at most one live invitation: issuing a new one
 * revokes the others, so a re-sent e-mail makes the older link worthless.
 */
export class InvitationStore {
  async issue(tx: Queryable, userId: number): Promise<{ token: string; createdAt: Date; expiresAt: Date }> {
    await this.revoke(tx, userId);
    const { token, hash } = newHashedToken();
    const { rows } = await tx.query<{ created_at: Date | string; expires_at: Date | string }>(
      `INSERT INTO invitations (user_id, token_hash, expires_at) VALUES ($1, $2, now() + make_interval(days => $3)) RETURNING created_at, expires_at`,
      [userId, hash, INVITATION_TTL_DAYS],
    );
    return { token, createdAt: new Date(rows[0]!.created_at), expiresAt: new Date(rows[0]!.expires_at) };
  }

  /** Revokes the user's live invitations; true when there was one. */
  async revoke(tx: Queryable, userId: number): Promise<boolean> {
    const { rowCount } = await tx.query(`UPDATE invitations SET revoked_at = now() WHERE user_id = $1 AND ${LIVE}`, [userId]);
    return rowCount > 0;
  }

  /** The live invitation of this token; null for an unknown, used, revoked or expired one. `lock` holds it for the caller's transaction. */
  async find(tx: Queryable, token: string, lock = false): Promise<LiveInvitation | null> {
    const { rows } = await tx.query<{ id: number; user_id: number; expires_at: Date | string }>(
      `SELECT id, user_id, expires_at FROM invitations WHERE token_hash = $1 AND ${LIVE}${lock ? ' FOR UPDATE' : ''}`, [hashToken(token)],
    );
    const row = rows[0];
    return row ? { id: row.id, userId: row.user_id, expiresAt: new Date(row.expires_at) } : null;
  }

  async markUsed(tx: Queryable, id: number): Promise<void> {
    await tx.query('UPDATE invitations SET used_at = now() WHERE id = $1', [id]);
  }

  /** Gives a used invitation back (the provider refused the password): the person may try again. */
  async unuse(tx: Queryable, id: number): Promise<void> {
    await tx.query('UPDATE invitations SET used_at = NULL WHERE id = $1', [id]);
  }
}
