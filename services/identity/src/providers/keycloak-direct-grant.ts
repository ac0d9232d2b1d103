import KeycloakConnect from 'keycloak-connect';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { KEYCLOAK_UNAVAILABLE_MESSAGE } from './keycloak-admin-session.ts';

/** The realm client through which the portal's own login forms sign users in. */
export const PORTAL_CLIENT_ID = 'portal';

export interface KeycloakDirectGrantOptions {
  url: string;
  /** The portal client's secret in a realm, read through the admin API; null when the realm or client is missing. */
  clientSecretOf: (realm: string) => Promise<string | null>;
  requestTimeoutMs: number;
  logger?: Pick<Logger, 'warn'>;
}

/** A keycloak-connect token: its typings leave out the raw JWT it carries. */
type RawToken = KeycloakConnect.Token & { token: string };

/**
 * Direct-grant (resource owner password) logins for the portal's own login forms, through
 * keycloak-connect: one adapter per realm, which also checks the returned tokens'
 * signatures against the realm's keys before we hand them out. keycloak-connect is
 * CommonJS and deprecated upstream, so nothing outside this file touches it.
 */
export class KeycloakDirectGrant {
  readonly #options: KeycloakDirectGrantOptions;
  readonly #adapters = new Map<string, Promise<KeycloakConnect.Keycloak | null>>();

  constructor(options: KeycloakDirectGrantOptions) {
    this.#options = options;
  }

  /**
   * The access token for valid credentials, null for refused ones. keycloak-connect
   * reports only the HTTP status of a refusal (`"400:Bad Request"`), which is enough:
   * 400 is invalid_grant (wrong username or password, disabled or locked-out user) and
   * 403 is access_denied (a disabled realm: a retired tenant). 401 means the client
   * secret we hold is no longer the realm's (realm re-created, secret rotated): one
   * retry with the current secret. Anything else is an outage.
   */
  async login(realm: string, username: string, password: string): Promise<string | null> {
    for (let attempt = 1; ; attempt++) {
      const adapter = await this.#adapter(realm);
      if (!adapter) {
        this.#options.logger?.warn({ realm }, 'Keycloak login refused: the realm or its portal client does not exist');
        return null;
      }
      try {
        const grant = await withTimeout(adapter.grantManager.obtainDirectly(username, password), this.#options.requestTimeoutMs);
        const token = (grant.access_token as RawToken | undefined)?.token;
        if (!token) throw new Error('Keycloak answered a direct grant without an access token');
        return token;
      } catch (e) {
        const status = statusOf(e);
        if (status === 400 || status === 403) return null;
        this.forget(realm);
        if (status === 401 && attempt === 1) continue;
        const unavailable = new Unavailable(KEYCLOAK_UNAVAILABLE_MESSAGE);
        unavailable.cause = e;
        throw unavailable;
      }
    }
  }

  /** Drops the realm's adapter, so the next login reads the realm's client secret again. */
  forget(realm: string): void {
    this.#adapters.delete(realm);
  }

  #adapter(realm: string): Promise<KeycloakConnect.Keycloak | null> {
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

  async #createAdapter(realm: string): Promise<KeycloakConnect.Keycloak | null> {
    const secret = await this.#options.clientSecretOf(realm);
    if (secret === null) return null;
    // keycloak.json's shape; keycloak-connect's typings leave out `credentials`.
    const config = {
      realm,
      'auth-server-url': this.#options.url,
      resource: PORTAL_CLIENT_ID,
      credentials: { secret },
      'ssl-required': 'external',
      'confidential-port': 0,
    };
    return new KeycloakConnect({}, config);
  }
}

/** keycloak-connect rejects a non-2xx answer with `new Error('<status>:<reason>')`. */
function statusOf(e: unknown): number | undefined {
  const match = e instanceof Error ? /^(\d{3}):/.exec(e.message) : null;
  return match ? Number(match[1]) : undefined;
}

/** keycloak-connect sets no timeout on its requests; a hanging server must not hang a login. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Keycloak did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
