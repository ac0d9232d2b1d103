import type { Queryable } from '@ledgerline/kit/db/database.ts';

/** One client's Google Drive integration as stored: secrets and tokens only ever sealed. */
export interface DriveRecord {
  oauthClientId: string;
  clientSecretSealed: string;
  refreshTokenSealed: string | null;
  accessTokenSealed: string | null;
  tokenExpiresAt: Date | null;
  folderId: string | null;
}

export interface DriveConnection {
  refreshTokenSealed: string;
  accessTokenSealed: string | null;
  tokenExpiresAt: Date | null;
  folderId: string;
}

export class GoogleDriveStore {
  async find(db: Queryable, clientId: number): Promise<DriveRecord | null> {
    const { rows } = await db.query<{
      oauth_client_id: string; oauth_client_secret_sealed: string; refresh_token_sealed: string | null;
      access_token_sealed: string | null; token_expires_at: Date | string | null; folder_id: string | null;
    }>(
      `SELECT oauth_client_id, oauth_client_secret_sealed, refresh_token_sealed, access_token_sealed, token_expires_at, folder_id
       FROM client_google_drive WHERE client_id = $1`, [clientId],
    );
    const r = rows[0];
    return r ? {
      oauthClientId: r.oauth_client_id, clientSecretSealed: r.oauth_client_secret_sealed, refreshTokenSealed: r.refresh_token_sealed,
      accessTokenSealed: r.access_token_sealed, tokenExpiresAt: r.token_expires_at === null ? null : new Date(r.token_expires_at), folderId: r.folder_id,
    } : null;
  }

  /** A refreshed access token, kept (sealed) until it expires so every upload does not refresh again. */
  async saveAccessToken(db: Queryable, clientId: number, accessTokenSealed: string, expiresAt: Date): Promise<void> {
    await db.query(
      'UPDATE client_google_drive SET access_token_sealed = $2, token_expires_at = $3, updated_at = now() WHERE client_id = $1 AND refresh_token_sealed IS NOT NULL',
      [clientId, accessTokenSealed, expiresAt],
    );
  }

  /** New credentials belong to another OAuth app: tokens and folder of the old one are dropped. */
  async saveCredentials(tx: Queryable, clientId: number, oauthClientId: string, clientSecretSealed: string): Promise<void> {
    await tx.query(
      `INSERT INTO client_google_drive (client_id, oauth_client_id, oauth_client_secret_sealed) VALUES ($1, $2, $3)
       ON CONFLICT (client_id) DO UPDATE SET oauth_client_id = EXCLUDED.oauth_client_id, oauth_client_secret_sealed = EXCLUDED.oauth_client_secret_sealed,
         refresh_token_sealed = NULL, access_token_sealed = NULL, token_expires_at = NULL, folder_id = NULL, updated_at = now()`,
      [clientId, oauthClientId, clientSecretSealed],
    );
  }

  async saveConnection(tx: Queryable, clientId: number, c: DriveConnection): Promise<void> {
    await tx.query(
      `UPDATE client_google_drive SET refresh_token_sealed = $2, access_token_sealed = $3, token_expires_at = $4, folder_id = $5, updated_at = now()
       WHERE client_id = $1`,
      [clientId, c.refreshTokenSealed, c.accessTokenSealed, c.tokenExpiresAt, c.folderId],
    );
  }

  /** True when there was an integration to remove. */
  async remove(tx: Queryable, clientId: number): Promise<boolean> {
    return (await tx.query('DELETE FROM client_google_drive WHERE client_id = $1', [clientId])).rowCount > 0;
  }
}
