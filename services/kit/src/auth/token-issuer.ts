import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Logger } from '../logger.ts';
import type { PortalClaims } from './claims.ts';
import type { SigningKeyStore, StoredSigningKey } from './signing-key-store.ts';
import { toTokenClaims } from './token-payload.ts';

/**
 * ES256 rather than EdDSA: jose and Node 24 both handle Ed25519 well, but ES256 is what
 * every verifier on the path accepts today (Keycloak adapters, proxies, older JOSE
 * libraries), and its compact signatures keep tokens short. Keycloak realms sign RS256;
 * the verifier accepts both.
 */
const ALG = 'ES256';
const DEFAULT_ROTATE_AFTER_SECONDS = 30 * 24 * 60 * 60;
/**
 * How long a process trusts its view of the key store. Another replica sharing the
 * store may rotate; within this window we pick up its key (so our JWKS lists it) and
 * stop signing with the one it replaced.
 */
const KEY_RELOAD_MS = 60_000;
/** Verifiers accept tokens a little past `exp` (clock tolerance); keep the key that long too. */
const RETIRE_GRACE_SECONDS = 120;

export interface TokenIssuerOptions {
  /** The `iss` of every token; verifiers pick the trust by it. */
  issuer: string;
  keyStore: SigningKeyStore;
  tokenTtlSeconds: number;
  /** Age after which the signing key is replaced on next use (default 30 days). */
  rotateAfterSeconds?: number;
  logger?: Pick<Logger, 'info'>;
  /** Clock in epoch milliseconds; injectable so tests can age keys and tokens. */
  now?: () => number;
}

export interface TokenIssuer {
  readonly issuer: string;
  sign(claims: PortalClaims): Promise<string>;
  /** Public keys of every key whose tokens may still be unexpired. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Starts signing with a fresh key now (scheduled rotation also happens on its own). */
  rotate(): Promise<void>;
}

interface LoadedKey {
  stored: StoredSigningKey;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  const { issuer, keyStore, tokenTtlSeconds, logger } = options;
  const rotateAfterMs = (options.rotateAfterSeconds ?? DEFAULT_ROTATE_AFTER_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  if (!(tokenTtlSeconds > 0) || !(rotateAfterMs > 0)) throw new Error('tokenTtlSeconds and rotateAfterSeconds must be positive');

  /** Oldest first; the newest key signs, older ones only verify until their tokens expire. */
  let keys: LoadedKey[] = [];
  let loadedAtMs = -Infinity;
  // Loading and generating run one at a time, so concurrent first calls create one key, not several.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = lock.then(fn);
    lock = run.catch(() => undefined);
    return run;
  };

  const isStale = () => now() - loadedAtMs >= KEY_RELOAD_MS;
  const isTooOld = (k: LoadedKey) => now() - k.stored.createdAtMs >= rotateAfterMs;

  /**
   * A key stops signing when its successor appears (plus one reload window for replicas
   * that have not seen the successor yet); its last tokens expire one TTL later.
   */
  function publicUntilMs(index: number): number {
    const successor = keys[index + 1];
    if (!successor) return Infinity;
    return successor.stored.createdAtMs + KEY_RELOAD_MS + (tokenTtlSeconds + RETIRE_GRACE_SECONDS) * 1000;
  }

  async function load(stored: StoredSigningKey): Promise<LoadedKey> {
    const privateKey = (await importJWK(stored.privateJwk, ALG)) as CryptoKey;
    const { kty, crv, x, y } = stored.privateJwk;
    return { stored, privateKey, publicJwk: { kty, crv, x, y, kid: stored.kid, alg: ALG, use: 'sig' } };
  }

  async function prune(): Promise<void> {
    const t = now();
    const expired = keys.filter((_, i) => publicUntilMs(i) <= t);
    for (const k of expired) {
      await keyStore.remove(k.stored.kid);
      logger?.info({ issuer, kid: k.stored.kid }, 'retired token signing key removed');
    }
    keys = keys.filter((k) => !expired.includes(k));
  }

  async function reload(): Promise<void> {
    const stored = (await keyStore.loadAll()).sort((a, b) => a.createdAtMs - b.createdAtMs);
    const known = new Map(keys.map((k) => [k.stored.kid, k]));
    keys = await Promise.all(stored.map((s) => known.get(s.kid) ?? load(s)));
    loadedAtMs = now();
    await prune();
  }

  async function generate(): Promise<LoadedKey> {
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    // The thumbprint covers only the public members, so it is a stable, collision-free kid.
    const kid = await calculateJwkThumbprint(privateJwk);
    const stored: StoredSigningKey = { kid, alg: ALG, createdAtMs: now(), privateJwk };
    await keyStore.save(stored);
    const loaded = await load(stored);
    keys.push(loaded);
    logger?.info({ issuer, kid }, 'token signing key generated');
    await prune();
    return loaded;
  }

  async function signingKey(): Promise<LoadedKey> {
    const newest = keys.at(-1);
    if (newest && !isStale() && !isTooOld(newest)) return newest;
    return exclusive(async () => {
      if (isStale()) await reload();
      const current = keys.at(-1);
      return current && !isTooOld(current) ? current : generate();
    });
  }

  return {
    issuer,

    async sign(claims) {
      const key = await signingKey();
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ ...toTokenClaims(claims) })
        .setProtectedHeader({ alg: ALG, kid: key.stored.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + tokenTtlSeconds)
        .sign(key.privateKey);
    },

    async jwks() {
      // Ensures a key exists, so a verifier fetching before the first login caches a usable set.
      await signingKey();
      const t = now();
      return { keys: keys.filter((_, i) => publicUntilMs(i) > t).map((k) => k.publicJwk) };
    },

    async rotate() {
      await exclusive(async () => {
        if (isStale()) await reload();
        await generate();
      });
    },
  };
}
