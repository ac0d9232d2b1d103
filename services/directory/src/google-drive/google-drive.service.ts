import { auth as googleAuth, drive as googleDrive } from '@googleapis/drive';
import type { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Invalid, Unavailable } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { DRIVE_NOT_CONFIGURED, type DriveAccess, type GoogleAuthUrl, type GoogleCredentialsInput, type GoogleDriveStatus } from '@ledgerline/contracts/directory.contracts.ts';
import { clientUpserted } from '../clients/client.service.ts';
import type { ClientStore } from '../clients/client.store.ts';
import type { DirectoryConfig } from '../directory.config.ts';
import type { TenantHandle } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { DriveRecord, GoogleDriveStore } from './google-drive.store.ts';

/** Files the portal creates, nothing else of the user's Drive. */
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';
const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';

/** What the OAuth `state` binds: the firm and the client the connect link was made for. */
export interface OAuthState extends Record<string, unknown> { t: string; c: number }

export const CONNECT_LINK_INVALID = 'This Google Drive connection link is invalid or has expired. Please start the setup again.';
const NO_CREDENTIALS = 'Save the Google Drive Client ID and Client Secret first.';
const DRIVE_REFUSED = 'Google Drive no longer grants the portal access for this client. Please connect Google Drive again.';
/** A stored access token is handed out only while it has at least this long to live. */
const ACCESS_TOKEN_MARGIN_MS = 2 * 60 * 1000;

/**
 * Per-client Google Drive: credentials → OAuth consent → a Drive folder (spec §4). The
 * OAuth client secret and the tokens are sealed before they are stored, bound to the
 * firm's schema and the client, and never leave this service in a response.
 */
export class GoogleDriveService {
  readonly #store: GoogleDriveStore;
  readonly #clients: ClientStore;
  readonly #box: SecretBox;
  readonly #state: TokenSigner<OAuthState>;
  readonly #config: DirectoryConfig;
  readonly #logger: Logger;

  constructor(deps: { store: GoogleDriveStore; clients: ClientStore; box: SecretBox; state: TokenSigner<OAuthState>; config: DirectoryConfig; logger: Logger }) {
    this.#store = deps.store;
    this.#clients = deps.clients;
    this.#box = deps.box;
    this.#state = deps.state;
    this.#config = deps.config;
    this.#logger = deps.logger;
  }

  async status(t: TenantHandle, clientId: number): Promise<GoogleDriveStatus> {
    await this.#clients.get(t.db, clientId);
    const record = await this.#store.find(t.db, clientId);
    const hasTokens = Boolean(record?.refreshTokenSealed);
    return { hasCredentials: record !== null, hasTokens, isSetup: hasTokens && Boolean(record?.folderId) };
  }

  async saveCredentials(t: TenantHandle, clientId: number, input: GoogleCredentialsInput): Promise<void> {
    await this.#clients.get(t.db, clientId);
    await t.db.transaction(async (tx) => {
      await this.#store.saveCredentials(tx, clientId, input.clientId, this.#box.seal(input.clientSecret, sealContext(t, clientId, 'client-secret')));
      await this.#announce(tx, t, clientId);
    });
  }

  async authUrl(t: TenantHandle, clientId: number): Promise<GoogleAuthUrl> {
    await this.#clients.get(t.db, clientId);
    const record = await this.#store.find(t.db, clientId);
    if (!record) throw new Invalid(NO_CREDENTIALS);
    const { token } = this.#state.sign({ t: t.shortName, c: clientId }, this.#config.oauthStateTtlSeconds);
    const authUrl = this.#oauthClient(t, clientId, record).generateAuthUrl({
      access_type: 'offline', prompt: 'consent', scope: [DRIVE_SCOPE], state: token,
    });
    return { authUrl };
  }

  /** The OAuth callback: checks `state`, trades the code for tokens, creates the client's folder. */
  async connect(t: TenantHandle, clientId: number, code: string | undefined, state: string | undefined): Promise<void> {
    const bound = state ? this.#state.verify(state) : null;
    if (!bound || bound.t !== t.shortName || bound.c !== clientId || !code) throw new Invalid(CONNECT_LINK_INVALID);
    const client = await this.#clients.get(t.db, clientId);
    const record = await this.#store.find(t.db, clientId);
    if (!record) throw new Invalid(NO_CREDENTIALS);
    const oauth = this.#oauthClient(t, clientId, record);
    const { tokens } = await oauth.getToken(code).catch((err: unknown) => {
      // Only the status: the error carries the token request, client secret included.
      this.#logger.warn({ status: (err as { status?: number }).status, clientId }, 'Google refused the OAuth code');
      throw new Invalid('Google did not accept the sign-in. Check the Client ID, Client Secret and the registered redirect URI, then try again.');
    });
    if (!tokens.refresh_token) {
      throw new Invalid('Google did not return a refresh token. Remove the portal\'s access in your Google account, then connect again.');
    }
    oauth.setCredentials(tokens);
    const folder = await googleDrive({ version: 'v3', auth: oauth, rootUrl: this.#config.googleApiRootUrl }).files
      .create({ requestBody: { name: `${client.name} Documents`, mimeType: FOLDER_MIME_TYPE }, fields: 'id' })
      .catch((err: unknown) => {
        this.#logger.warn({ status: (err as { status?: number }).status, clientId }, 'Google Drive folder not created');
        throw new Unavailable('Google Drive did not create the client\'s folder. Please try again.');
      });
    if (!folder.data.id) throw new Unavailable('Google Drive did not create the client\'s folder. Please try again.');
    await t.db.transaction(async (tx) => {
      await this.#store.saveConnection(tx, clientId, {
        refreshTokenSealed: this.#box.seal(tokens.refresh_token!, sealContext(t, clientId, 'refresh-token')),
        accessTokenSealed: tokens.access_token ? this.#box.seal(tokens.access_token, sealContext(t, clientId, 'access-token')) : null,
        tokenExpiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
        folderId: folder.data.id!,
      });
      await this.#announce(tx, t, clientId);
    });
  }

  /**
   * A usable access token and the folder, for the files service (DriveAccess): the stored
   * one while it lives, else a fresh one from the sealed refresh token. The refresh token
   * itself never leaves this service.
   */
  async accessFor(t: TenantHandle, clientId: number): Promise<DriveAccess> {
    await this.#clients.get(t.db, clientId);
    const record = await this.#store.find(t.db, clientId);
    if (!record?.refreshTokenSealed || !record.folderId) throw new Conflict(DRIVE_NOT_CONFIGURED);
    if (record.accessTokenSealed && record.tokenExpiresAt && record.tokenExpiresAt.getTime() - Date.now() > ACCESS_TOKEN_MARGIN_MS) {
      return {
        accessToken: this.#box.open(record.accessTokenSealed, sealContext(t, clientId, 'access-token')),
        expiresAt: record.tokenExpiresAt.toISOString(),
        folderId: record.folderId,
      };
    }
    const oauth = this.#oauthClient(t, clientId, record);
    oauth.setCredentials({ refresh_token: this.#box.open(record.refreshTokenSealed, sealContext(t, clientId, 'refresh-token')) });
    const { credentials } = await oauth.refreshAccessToken().catch((err: unknown) => {
      // Only the status: the error carries the token request, secrets included.
      const status = (err as { status?: number; response?: { status?: number } }).status ?? (err as { response?: { status?: number } }).response?.status;
      this.#logger.warn({ status, clientId }, 'Google refused to refresh the Drive access token');
      if (status === 400 || status === 401) throw new Conflict(DRIVE_REFUSED);
      throw new Unavailable('Google Drive is not reachable right now. Please try again.');
    });
    if (!credentials.access_token) throw new Unavailable('Google Drive is not reachable right now. Please try again.');
    const expiresAt = new Date(credentials.expiry_date ?? Date.now() + 60 * 60 * 1000);
    await this.#store.saveAccessToken(t.db, clientId, this.#box.seal(credentials.access_token, sealContext(t, clientId, 'access-token')), expiresAt);
    return { accessToken: credentials.access_token, expiresAt: expiresAt.toISOString(), folderId: record.folderId };
  }

  async remove(t: TenantHandle, clientId: number): Promise<void> {
    await this.#clients.get(t.db, clientId);
    await t.db.transaction(async (tx) => {
      if (await this.#store.remove(tx, clientId)) await this.#announce(tx, t, clientId);
    });
  }

  /** Where Google sends the browser back: the path the firm registers with Google (spec §7). */
  redirectUri(tenant: string, clientId: number): string {
    return `${this.#config.publicBaseUrl}/api/auth/google/callback/${clientId}?tenant=${encodeURIComponent(tenant)}`;
  }

  #oauthClient(t: TenantHandle, clientId: number, record: DriveRecord) {
    return new googleAuth.OAuth2({
      clientId: record.oauthClientId,
      clientSecret: this.#box.open(record.clientSecretSealed, sealContext(t, clientId, 'client-secret')),
      redirectUri: this.redirectUri(t.shortName, clientId),
      endpoints: { oauth2AuthBaseUrl: this.#config.googleOauthAuthUrl, oauth2TokenUrl: this.#config.googleOauthTokenUrl },
    });
  }

  /** Other services learn whether the client's Drive is ready (client.upserted). */
  async #announce(tx: Queryable, t: TenantHandle, clientId: number): Promise<void> {
    await enqueueEvents(tx, [clientUpserted(t.shortName, await this.#clients.get(tx, clientId))]);
  }
}

/** Sealed values are bound to their firm, client and purpose: a value copied elsewhere fails to open. */
const sealContext = (t: TenantHandle, clientId: number, purpose: string) => `${t.db.schema}/client/${clientId}/${purpose}`;
