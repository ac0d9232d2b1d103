import KeycloakAdminClient, { NetworkError } from '@keycloak/keycloak-admin-client';
import { Unavailable } from '@ledgerline/kit/errors.ts';

const KEYCLOAK_UNAVAILABLE_MESSAGE = 'The sign-in service is unavailable. Please try again shortly.';

/** The administrator signs in to the master realm with Keycloak's own admin CLI client. */
const ADMIN_REALM = 'master';
const ADMIN_CLIENT_ID = 'admin-cli';
/**
 * Admin tokens live 60 s by default. A token is replaced this long before it expires, so
 * a call never leaves with a token that dies on the way.
 */
const RENEW_BEFORE_EXPIRY_MS = 10_000;

export interface KeycloakAdminSessionOptions {
  url: string;
  username: string;
  password: string;
  requestTimeoutMs: number;
}

/**
 * The admin client with a token that stays fresh: we sign in again with the admin's
 * password before the token expires, and once more when a call is answered 401 anyway
 * (server restarted, session revoked). Signing in again rather than using the refresh
 * token keeps working after the master realm's SSO session (30 min idle) has ended.
 */
export class KeycloakAdminSession {
  readonly #client: KeycloakAdminClient;
  readonly #options: KeycloakAdminSessionOptions;
  #token: { value: string; renewAtMs: number } | undefined;
  #signingIn: Promise<string> | undefined;

  constructor(options: KeycloakAdminSessionOptions) {
    this.#options = options;
    this.#client = new KeycloakAdminClient({ baseUrl: options.url, realmName: ADMIN_REALM, timeout: options.requestTimeoutMs });
    this.#client.registerTokenProvider({ getAccessToken: () => this.#accessToken() });
  }

  /**
   * Runs one admin API call (each call names its realm: the client's default realm is the
   * admin's own). A call answered 401 is repeated once with a new token; that is safe
   * because Keycloak did nothing with the rejected call.
   */
  async call<T>(request: (admin: KeycloakAdminClient) => Promise<T>): Promise<T> {
    try {
      return await request(this.#client);
    } catch (e) {
      if (!(e instanceof NetworkError && e.response.status === 401)) throw asUnavailable(e);
      this.#token = undefined;
    }
    try {
      return await request(this.#client);
    } catch (e) {
      throw asUnavailable(e);
    }
  }

  async #accessToken(): Promise<string> {
    if (this.#token && Date.now() < this.#token.renewAtMs) return this.#token.value;
    this.#signingIn ??= this.#signIn().finally(() => {
      this.#signingIn = undefined;
    });
    return this.#signingIn;
  }

  async #signIn(): Promise<string> {
    const { url, username, password, requestTimeoutMs } = this.#options;
    let res: Response;
    try {
      res = await fetch(`${url}/realms/${ADMIN_REALM}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: ADMIN_CLIENT_ID, username, password }),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (e) {
      throw keycloakUnavailable(e);
    }
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
    if (!res.ok || !body.access_token || !body.expires_in) {
      throw keycloakUnavailable(new Error(`Keycloak admin sign-in failed: HTTP ${res.status} ${body.error ?? ''}`.trim()));
    }
    const lifetimeMs = body.expires_in * 1000;
    this.#token = { value: body.access_token, renewAtMs: Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_EXPIRY_MS, lifetimeMs / 2) };
    return body.access_token;
  }
}

/** Keycloak cannot serve us now: the caller may retry; the UI shows a generic message. */
export function keycloakUnavailable(cause: unknown): Unavailable {
  const error = new Unavailable(KEYCLOAK_UNAVAILABLE_MESSAGE);
  error.cause = cause; // the UI gets the generic message; logs keep the real reason
  return error;
}

/**
 * Keycloak down, slow or failing (unreachable, timeout, 5xx) is an outage the caller may
 * retry. Anything else (a 4xx answer: this adapter asked for something wrong) stays as is.
 */
function asUnavailable(e: unknown): unknown {
  if (e instanceof NetworkError) return e.response.status >= 500 ? keycloakUnavailable(e) : e;
  return isConnectionFailure(e) ? keycloakUnavailable(e) : e;
}

/** What fetch throws when the server cannot be reached or does not answer in time. */
const isConnectionFailure = (e: unknown) =>
  (e instanceof TypeError && e.message === 'fetch failed') ||
  (e instanceof DOMException && (e.name === 'TimeoutError' || e.name === 'AbortError'));
