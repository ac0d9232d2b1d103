import KeycloakConnect from 'keycloak-connect';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { keycloakUnavailable } from './keycloak-admin-session.ts';

/** The realm client through which the portal's own login forms sign users in. */
export const PORTAL_CLIENT_ID = 'portal';

export interface KeycloakDirectGrantOptions {
  url: string;
  /** The portal client's secret in a realm, read through the admin API; null when the realm or client is missing. */
  clientSecretOf: (realm: string) => Promise<string | null>;
  requestTimeoutMs: number;
  logger?: Pick<Logger, 'warn'>;
}

/** A realm's keycloak-connect adapter and the client secret it was made with. */
interface RealmAdapter {
  keycloak: KeycloakConnect.Keycloak;
  secret: string;
}

/**
 * What Keycloak answers (invalid_grant) for the right password of a user with a required
 * action pending: the direct grant cannot run one (it has no pages to show).
 */
const ACCOUNT_NOT_SET_UP = 'Account is not fully set up';

/** Thrown by `login` when the realm accepted the password but the user has a required action pending. */
export class AccountNotSetUp extends Error {
  constructor(realm: string) {
    super(`The user's account in ${realm} has a required action pending`);
    this.name = 'AccountNotSetUp';
  }
}

/** A keycloak-connect token: its typings leave out the raw JWT it carries. */
type RawToken = KeycloakConnect.Token & { token: string };

/**
 * Direct-grant (resource owner password) logins for the portal's own login forms.
 *
 * keycloak-connect (CommonJS, deprecated upstream, so nothing outside this file touches
 * it) holds one adapter per realm and validates every token we hand out: signature
 * against the realm's keys, issuer = this realm at our Keycloak URL, type, expiry. A
 * token that fails here would fail every verifier later, so a misconfigured URL shows
 * up at the first login. The token request itself is made with fetch: keycloak-connect's
 * `obtainDirectly` never reads the body of a refused request, so every failed login
 * leaked a connection that kept the process alive (seen with Keycloak 26 and Node 24),
 * and it reports only the HTTP status, which cannot tell a wrong password from a stale
 * client secret.
 */
export class KeycloakDirectGrant {
  readonly #options: KeycloakDirectGrantOptions;
  readonly #adapters = new Map<string, Promise<RealmAdapter | null>>();

  constructor(options: KeycloakDirectGrantOptions) {
    this.#options = options;
  }

  /**
   * The access token for valid credentials; null for refused ones (invalid_grant: wrong
   * username or password, disabled or locked-out user; access_denied: a disabled realm,
   * i.e. a retired tenant) and for a realm that does not exist. A rejected client secret
   * (realm re-created, secret rotated) is read again once. Anything else is an outage.
   * `totp` is the one-time code the realm's direct-grant flow asks of users with an authenticator.
   * Throws AccountNotSetUp for the right password of a user with a required action pending.
   */
  async login(realm: string, username: string, password: string, totp?: string): Promise<string | null> {
    for (let attempt = 1; ; attempt++) {
      const adapter = await this.#adapter(realm);
      if (!adapter) return this.#missingRealm(realm);
      const answer = await this.#requestToken(realm, adapter.secret, username, password, totp);
      if (answer.ok) return this.#validated(realm, adapter, answer.body);
      if (answer.error === 'invalid_grant' && answer.description === ACCOUNT_NOT_SET_UP) throw new AccountNotSetUp(realm);
      if (answer.error === 'invalid_grant' || answer.error === 'access_denied') return null;
      this.forget(realm);
      if (answer.status === 404) return this.#missingRealm(realm);
      const staleSecret = answer.error === 'unauthorized_client' || answer.error === 'invalid_client';
      if (!(staleSecret && attempt === 1)) throw keycloakUnavailable(new Error(`Keycloak refused a direct grant in ${realm}: HTTP ${answer.status} ${answer.error}`));
    }
  }

  /** Drops the realm's adapter, so the next login reads the realm's client secret again. */
  forget(realm: string): void {
    this.#adapters.delete(realm);
  }

  async #requestToken(realm: string, secret: string, username: string, password: string, totp: string | undefined) {
    let res: Response;
    let body: string;
    try {
      res = await fetch(`${this.#options.url}/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: PORTAL_CLIENT_ID, client_secret: secret, username, password, ...(totp ? { totp } : {}) }),
        signal: AbortSignal.timeout(this.#options.requestTimeoutMs),
      });
      body = await res.text();
    } catch (e) {
      throw keycloakUnavailable(e);
    }
    if (res.ok) return { ok: true as const, body };
    let error = '';
    let description = '';
    try {
      const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
      error = String(parsed.error ?? '');
      description = String(parsed.error_description ?? '');
    } catch {
      // Not an OAuth error body (a proxy's error page): the status alone decides.
    }
    return { ok: false as const, status: res.status, error, description };
  }

  async #validated(realm: string, adapter: RealmAdapter, body: string): Promise<string> {
    try {
      const grant = await adapter.keycloak.grantManager.createGrant(body);
      const token = (grant.access_token as RawToken | undefined)?.token;
      if (!token) throw new Error('the grant has no access token');
      return token;
    } catch (e) {
      throw keycloakUnavailable(new Error(`Keycloak issued a token in ${realm} that does not validate: ${(e as Error).message}`, { cause: e }));
    }
  }

  #missingRealm(realm: string): null {
    this.#options.logger?.warn({ realm }, 'Keycloak login refused: the realm or its portal client does not exist');
    return null;
  }

  #adapter(realm: string): Promise<RealmAdapter | null> {
    const known = this.#adapters.get(realm);
    if (known) return known;
    const adapter = this.#createAdapter(realm);
    this.#adapters.set(realm, adapter);
    // A failed lookup or a missing realm is looked up again next time, not remembered.
    const drop = () => {
      if (this.#adapters.get(realm) === adapter) this.#adapters.delete(realm);
    };
    adapter.then((a) => a ?? drop(), drop);
    return adapter;
  }

  async #createAdapter(realm: string): Promise<RealmAdapter | null> {
    const secret = await this.#options.clientSecretOf(realm);
    if (secret === null) return null;
    // keycloak.json's shape; keycloak-connect's typings leave out `credentials`.
    const config = {
      realm,
      'auth-server-url': this.#options.url,
      resource: PORTAL_CLIENT_ID,
      credentials: { secret },
      // Only the access token is validated; the grant carries no ID token (no `openid` scope).
      'bearer-only': true,
      'ssl-required': 'external',
      'confidential-port': 0,
    };
    return { keycloak: new KeycloakConnect({}, config), secret };
  }
}
