import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { DomainError, Unauthenticated, Unavailable } from '../errors.ts';
import type { PortalClaims } from './claims.ts';
import { INVALID_TOKEN_MESSAGE, portalClaimsFromPayload } from './token-payload.ts';

/** One identity provider whose tokens we accept: the built-in issuer or a tenant's Keycloak realm. */
export interface IssuerTrust {
  /** Exact `iss` of its tokens. */
  issuer: string;
  /** JWKS over HTTP (another process, Keycloak). Exactly one of jwksUrl / jwks. */
  jwksUrl?: string;
  /** JWKS in process (the built-in issuer in the all-in-one process). */
  jwks?: () => Promise<JSONWebKeySet>;
  /** Maps a verified payload to PortalClaims; default: the built-in issuer's claim names. */
  mapClaims?: (payload: JWTPayload) => PortalClaims;
}

export interface TokenVerifierOptions {
  issuers: IssuerTrust[];
  /** Accepted clock skew between issuer and verifier for exp/nbf/iat (default 30 s). */
  clockToleranceSeconds?: number;
  /**
   * Minimum gap between two key-set refetches triggered by an unknown `kid` (default 30 s).
   * Without it, tokens with made-up kids would turn every request into a JWKS fetch.
   */
  jwksCooldownSeconds?: number;
  /** Key sets are refetched after this age even when every kid is known (default 10 min). */
  jwksCacheMaxAgeSeconds?: number;
  /** Verified tokens remembered until they expire (default 10,000; 0 disables). */
  verifiedCacheSize?: number;
  /**
   * Trust for an issuer not configured yet, or null: how a new firm's Keycloak realm
   * becomes trusted without restarting every service (see keycloakRealmTrust).
   */
  discoverIssuer?: (iss: string) => IssuerTrust | null;
}

export interface TokenVerifier {
  /** Verified claims of a token; throws Unauthenticated when it is missing or not acceptable. */
  verify(token: string | null | undefined): Promise<PortalClaims>;
  /**
   * The claims of a token verified before and not expired, or undefined (then call verify):
   * the gateway's hot path answers most requests without waiting a turn of the event loop.
   */
  verifiedBefore(token: string): Readonly<PortalClaims> | undefined;
  /** Trusts another issuer, or replaces the trust of the same `iss` (its key cache starts empty). */
  addIssuer(trust: IssuerTrust): void;
  removeIssuer(issuer: string): void;
}

/** Asymmetric algorithms only: a symmetric `alg` in a forged header must never be tried. */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];
const KEYS_UNAVAILABLE_MESSAGE = 'The sign-in service is unavailable. Please try again shortly.';

/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(authorizationHeader: string | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorizationHeader ?? '');
  return match?.[1] ?? null;
}

interface Trusted {
  getKey: JWTVerifyGetKey;
  mapClaims: (payload: JWTPayload) => PortalClaims;
}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const cooldownMs = (options.jwksCooldownSeconds ?? 30) * 1000;
  const cacheMaxAgeMs = (options.jwksCacheMaxAgeSeconds ?? 600) * 1000;
  const trusts = new Map<string, Trusted>();
  // A signature check costs far more than the rest of a proxied request; the gateway and
  // the service both check every token, so each remembers what it already verified.
  const verified = new VerifiedTokenCache(options.verifiedCacheSize ?? 10_000);

  function keyResolver(trust: IssuerTrust): JWTVerifyGetKey {
    if (trust.jwksUrl && !trust.jwks) {
      return createRemoteJWKSet(new URL(trust.jwksUrl), { cooldownDuration: cooldownMs, cacheMaxAge: cacheMaxAgeMs });
    }
    if (trust.jwks && !trust.jwksUrl) return cachedLocalKeySet(trust.jwks, cooldownMs, cacheMaxAgeMs);
    throw new Error(`Issuer trust ${trust.issuer} needs exactly one of jwksUrl or jwks`);
  }

  function addIssuer(trust: IssuerTrust): void {
    verified.clear();
    trusts.set(trust.issuer, {
      getKey: unavailableOnFetchFailure(keyResolver(trust)),
      mapClaims: trust.mapClaims ?? portalClaimsFromPayload,
    });
  }

  for (const trust of options.issuers) addIssuer(trust);

  return {
    async verify(token) {
      if (!token) throw new Unauthenticated();
      const remembered = verified.get(token);
      if (remembered) return remembered;
      let iss: string | undefined;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        throw new Unauthenticated(INVALID_TOKEN_MESSAGE);
      }
      if (iss !== undefined && !trusts.has(iss)) {
        const discovered = options.discoverIssuer?.(iss);
        if (discovered) addIssuer(discovered);
      }
      const trusted = iss === undefined ? undefined : trusts.get(iss);
      if (!trusted) throw new Unauthenticated(INVALID_TOKEN_MESSAGE);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, trusted.getKey, {
          issuer: iss,
          algorithms: ALGORITHMS,
          clockTolerance,
          // A token without an expiry would be valid forever.
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (e) {
        if (e instanceof DomainError) throw e;
        if (e instanceof errors.JOSEError) throw new Unauthenticated(INVALID_TOKEN_MESSAGE);
        throw e;
      }
      const claims = trusted.mapClaims(payload);
      verified.set(token, claims, (payload.exp as number) * 1000);
      return claims;
    },
    verifiedBefore: (token) => verified.get(token),
    addIssuer,
    removeIssuer(issuer) {
      verified.clear();
      trusts.delete(issuer);
    },
  };
}

/**
 * A key set from an in-process function, cached like jose's remote set: refetched when
 * older than the max age, or when a token names an unknown kid (at most once per cooldown,
 * which is how a rotation elsewhere becomes visible).
 */
function cachedLocalKeySet(load: () => Promise<JSONWebKeySet>, cooldownMs: number, maxAgeMs: number): JWTVerifyGetKey {
  let current: { keySet: ReturnType<typeof createLocalJWKSet>; fetchedAtMs: number } | undefined;
  let pending: Promise<NonNullable<typeof current>> | undefined;

  const refresh = () =>
    (pending ??= load()
      .then((jwks) => (current = { keySet: createLocalJWKSet(jwks), fetchedAtMs: Date.now() }))
      .finally(() => {
        pending = undefined;
      }));

  return async (header, token) => {
    const cached = current && Date.now() - current.fetchedAtMs < maxAgeMs ? current : await refresh();
    try {
      return await cached.keySet(header, token);
    } catch (e) {
      if (!(e instanceof errors.JWKSNoMatchingKey) || Date.now() - cached.fetchedAtMs < cooldownMs) throw e;
      return (await refresh()).keySet(header, token);
    }
  };
}

/**
 * Failing to fetch keys is our outage, not a bad token: answering 401 would log every
 * user out while the identity provider restarts. Key-matching errors stay token errors.
 */
function unavailableOnFetchFailure(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await getKey(header, token);
    } catch (e) {
      if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys) throw e;
      const unavailable = new Unavailable(KEYS_UNAVAILABLE_MESSAGE);
      unavailable.cause = e; // the UI gets the generic message; logs keep the real reason
      throw unavailable;
    }
  };
}

/** Bounded map of verified tokens to their claims, each kept only until the token's expiry. */
class VerifiedTokenCache {
  readonly #entries = new Map<string, { claims: PortalClaims; expiresAtMs: number }>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  get(token: string): Readonly<PortalClaims> | undefined {
    const hit = this.#entries.get(token);
    if (!hit) return undefined;
    if (hit.expiresAtMs <= Date.now()) {
      this.#entries.delete(token);
      return undefined;
    }
    return hit.claims;
  }

  set(token: string, claims: PortalClaims, expiresAtMs: number): void {
    if (this.#max === 0) return;
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    // Frozen, so every hit can hand out the same object: nobody can change what another reads.
    this.#entries.set(token, { claims: Object.freeze({ ...claims }), expiresAtMs });
  }

  clear(): void {
    this.#entries.clear();
  }
}
