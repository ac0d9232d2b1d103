import { firmOfLinkToken } from '@ledgerline/kit/crypto/firm-link-token.ts';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import type { Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { RequestLink } from '@ledgerline/contracts/requests.contracts.ts';
import { isoInstantOrNull as iso } from '@ledgerline/kit/db/instants.ts';

/** A link found by its token's hash: `ownerId` is the request or organizer it opens. */
export interface StoredLink { id: number; ownerId: number; email: string | null; live: boolean }

/**
 * The links that open a document request or an organizer to someone without an account: one
 * table each (document_request_links, organizer_links), one shape, kept here once. Only a
 * token's hash is stored (kit/crypto/hashed-token.ts).
 */
export class LinkTable {
  readonly #table: string;
  readonly #owner: string;

  constructor(table: 'document_request_links' | 'organizer_links', ownerColumn: 'request_id' | 'organizer_id') {
    this.#table = table;
    this.#owner = ownerColumn;
  }

  async insert(tx: Queryable, link: { ownerId: number; tokenHash: string; email: string | null; expiresAt: Date; createdById: number }): Promise<number> {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO ${this.#table} (${this.#owner}, token_hash, email, expires_at, created_by_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [link.ownerId, link.tokenHash, link.email, link.expiresAt.toISOString(), link.createdById]);
    return r.rows[0]!.id;
  }

  async list(db: Queryable, ownerId: number): Promise<RequestLink[]> {
    const r = await db.query<{ id: number; email: string | null; expires_at: Date; revoked_at: Date | null; created_at: Date }>(
      `SELECT id, email, expires_at, revoked_at, created_at FROM ${this.#table} WHERE ${this.#owner} = $1 ORDER BY id`, [ownerId]);
    return r.rows.map((l) => ({ id: l.id, email: l.email, expiresAt: iso(l.expires_at)!, revokedAt: iso(l.revoked_at), createdAt: iso(l.created_at)! }));
  }

  /** False when the owner has no such link; revoking twice keeps the first time. */
  async revoke(tx: Queryable, ownerId: number, linkId: number): Promise<boolean> {
    const r = await tx.query(`UPDATE ${this.#table} SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND ${this.#owner} = $2`, [linkId, ownerId]);
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * The link a presented token opens, with its firm's schema (`tenantDb` finds it by the
   * token's prefix): null for a token that names no firm, an unknown or closed firm, or no
   * such link in it. Live or not is the caller's question (`link.live`).
   */
  async find(tenantDb: (shortName: string) => Promise<{ db: SchemaDb }>, token: string): Promise<{ shortName: string; db: SchemaDb; link: StoredLink } | null> {
    const shortName = firmOfLinkToken(token);
    if (!shortName) return null;
    const firm = await tenantDb(shortName).catch(() => null);
    if (!firm) return null;
    const link = await this.byHash(firm.db, hashToken(token));
    return link ? { shortName, db: firm.db, link } : null;
  }

  async byHash(db: Queryable, tokenHash: string): Promise<StoredLink | null> {
    const r = await db.query<{ id: number; owner_id: number; email: string | null; live: boolean }>(
      `SELECT id, ${this.#owner} AS owner_id, email, (revoked_at IS NULL AND expires_at > now()) AS live FROM ${this.#table} WHERE token_hash = $1`, [tokenHash]);
    const l = r.rows[0];
    return l ? { id: l.id, ownerId: l.owner_id, email: l.email, live: l.live } : null;
  }
}
