import type { JWK } from 'jose';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { SigningKeyStore, StoredSigningKey } from '@ledgerline/kit/auth/signing-key-store.ts';

/**
 * Signing keys in the platform schema, so every identity replica signs with and
 * publishes the same keys, and a restart keeps issued tokens valid.
 */
export class DbSigningKeyStore implements SigningKeyStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async loadAll(): Promise<StoredSigningKey[]> {
    const { rows } = await this.#db.query<{ kid: string; created_at_ms: string | number; private_jwk: JWK }>(
      'SELECT kid, created_at_ms, private_jwk FROM portal.signing_keys ORDER BY created_at_ms',
    );
    return rows.map((r) => ({ kid: r.kid, alg: 'ES256', createdAtMs: Number(r.created_at_ms), privateJwk: r.private_jwk }));
  }

  async save(key: StoredSigningKey): Promise<void> {
    await this.#db.query(
      'INSERT INTO portal.signing_keys (kid, alg, created_at_ms, private_jwk) VALUES ($1, $2, $3, $4) ON CONFLICT (kid) DO NOTHING',
      [key.kid, key.alg, key.createdAtMs, JSON.stringify(key.privateJwk)],
    );
  }

  async remove(kid: string): Promise<void> {
    await this.#db.query('DELETE FROM portal.signing_keys WHERE kid = $1', [kid]);
  }
}
