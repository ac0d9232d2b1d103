import { describe, it, expect } from '@jest/globals';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import { FileSigningKeyStore, MemorySigningKeyStore } from '@ledgerline/kit/auth/signing-key-store.ts';
import { createTokenIssuer, type TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { bearerToken, createTokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Unauthenticated } from '@ledgerline/kit/errors.ts';

const ISSUER = 'https://portal.example.test/auth';
const MISSING = 'Authentication required. Please log in again.';
const INVALID = 'Invalid authentication token. Please log in again.';

const alice: PortalClaims = { sub: '42', username: 'alice', fullName: 'Alice Example', role: 'CPA', tenant: 'acme', platformAdmin: false };
const root: PortalClaims = { sub: '1', username: 'root', fullName: 'Platform Admin', role: 'Admin', tenant: null, platformAdmin: true };

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const verifierFor = (issuer: TokenIssuer) => createTokenVerifier({ issuers: [{ issuer: issuer.issuer, jwks: () => issuer.jwks() }], jwksCooldownSeconds: 0 });

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(Unauthenticated);
  return e as Error;
}

describe('token issuer and verifier', () => {
  it('round-trips every claim, for tenant users and platform admins', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    const token = await issuer.sign(alice);
    expect(await verifier.verify(token)).toEqual(alice);
    expect(await verifier.verify(await issuer.sign(root))).toEqual(root);

    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: ISSUER, sub: '42', preferred_username: 'alice', name: 'Alice Example', role: 'CPA', tenant: 'acme', platform_admin: false });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(kidOf(token)).toEqual(expect.any(String));
  });

  it('issues tokens longer than 50 characters with exactly three dot-separated parts', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 60 });
    const token = await issuer.sign(alice);
    expect(token.length).toBeGreaterThan(50);
    expect(token.split('.')).toHaveLength(3);
    expect(token.split('.').every((part) => part.length > 0)).toBe(true);
  });

  it('rejects an expired token with the invalid-token message', async () => {
    const keyStore = new MemorySigningKeyStore();
    const twoHoursAgo = Date.now() - 2 * 3600_000;
    const past = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 3600, now: () => twoHoursAgo });
    const token = await past.sign(alice);
    const present = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 3600 });
    expect((await rejection(verifierFor(present).verify(token))).message).toBe(INVALID);
  });

  it('accepts a token just past exp within the clock tolerance, not beyond it', async () => {
    const keyStore = new MemorySigningKeyStore();
    const tenSecondsLate = Date.now() - 70_000;
    const token = await createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 60, now: () => tenSecondsLate }).sign(alice);
    const jwks = () => createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 60 }).jwks();
    expect(await createTokenVerifier({ issuers: [{ issuer: ISSUER, jwks }], clockToleranceSeconds: 30 }).verify(token)).toEqual(alice);
    await rejection(createTokenVerifier({ issuers: [{ issuer: ISSUER, jwks }], clockToleranceSeconds: 0 }).verify(token));
  });

  it('rejects tampered signatures and payloads', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    const [header, payload, signature] = (await issuer.sign(alice)).split('.') as [string, string, string];
    // Flip a character in the middle: the last one may only carry padding bits.
    const mid = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, mid) + (signature[mid] === 'A' ? 'B' : 'A') + signature.slice(mid + 1);
    expect((await rejection(verifier.verify(`${header}.${payload}.${flipped}`))).message).toBe(INVALID);

    const promoted = Buffer.from(JSON.stringify({ ...decodeJwt(`${header}.${payload}.${signature}`), role: 'Admin' })).toString('base64url');
    expect((await rejection(verifier.verify(`${header}.${promoted}.${signature}`))).message).toBe(INVALID);
  });

  it('rejects a token signed by an issuer it does not trust, even with the same iss claim', async () => {
    const trusted = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(trusted);
    const stranger = createTokenIssuer({ issuer: 'https://elsewhere.example.test', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    expect((await rejection(verifier.verify(await stranger.sign(alice)))).message).toBe(INVALID);
    const impostor = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    expect((await rejection(verifier.verify(await impostor.sign(alice)))).message).toBe(INVALID);
  });

  it('tells a missing token from a malformed or unsigned one', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    expect((await rejection(verifier.verify(undefined))).message).toBe(MISSING);
    expect((await rejection(verifier.verify(''))).message).toBe(MISSING);
    expect((await rejection(verifier.verify('not-a-token'))).message).toBe(INVALID);
    const unsigned = new UnsecuredJWT({ role: 'Admin', preferred_username: 'x', name: 'x', tenant: null, platform_admin: true })
      .setIssuer(ISSUER).setSubject('1').setExpirationTime('1h').encode();
    expect((await rejection(verifier.verify(unsigned))).message).toBe(INVALID);
  });

  it('extracts bearer tokens from Authorization headers', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc.def.ghi ')).toBe('abc.def.ghi');
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer ')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('signing key rotation', () => {
  it('keeps verifying tokens signed before a rotation while new tokens use the new kid', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    const before = await issuer.sign(alice);
    expect(await verifier.verify(before)).toEqual(alice);
    await issuer.rotate();
    const after = await issuer.sign(alice);
    expect(kidOf(after)).not.toBe(kidOf(before));
    expect(await verifier.verify(before)).toEqual(alice);
    expect(await verifier.verify(after)).toEqual(alice);
    expect((await issuer.jwks()).keys.map((k) => k.kid).sort()).toEqual([kidOf(before), kidOf(after)].sort());
  });

  it('rotates by age and drops a retired key once all its tokens have expired', async () => {
    let t = Date.now();
    const keyStore = new MemorySigningKeyStore();
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 600, rotateAfterSeconds: 3600, now: () => t });
    const first = kidOf(await issuer.sign(alice));
    t += 3599_000;
    expect(kidOf(await issuer.sign(alice))).toBe(first);
    t += 1_000;
    const second = kidOf(await issuer.sign(alice));
    expect(second).not.toBe(first);
    t += 600_000; // tokens signed just before the rotation expire now, but may still be inside verifier clock tolerance
    expect((await issuer.jwks()).keys.map((k) => k.kid)).toContain(first);
    t += 60_000 + 120_000 + 1_000; // past the replicas' reload window and the tolerance grace
    expect((await issuer.jwks()).keys.map((k) => k.kid)).toEqual([second]);
    expect((await keyStore.loadAll()).map((k) => k.kid)).toEqual([second]);
  });

  it('creates one key when many tokens are signed concurrently on first use', async () => {
    const keyStore = new MemorySigningKeyStore();
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 60 });
    const tokens = await Promise.all(Array.from({ length: 10 }, () => issuer.sign(alice)));
    expect(new Set(tokens.map(kidOf)).size).toBe(1);
    expect(await keyStore.loadAll()).toHaveLength(1);
  });

  it('lets replicas sharing a key store pick up a rotation done by another', async () => {
    let t = Date.now();
    const keyStore = new MemorySigningKeyStore();
    const a = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 600, now: () => t });
    const b = createTokenIssuer({ issuer: ISSUER, keyStore, tokenTtlSeconds: 600, now: () => t });
    const first = kidOf(await a.sign(alice));
    expect(kidOf(await b.sign(alice))).toBe(first);
    await a.rotate();
    const second = kidOf(await a.sign(alice));
    t += 60_000;
    expect(kidOf(await b.sign(alice))).toBe(second);
    expect((await b.jwks()).keys.map((k) => k.kid).sort()).toEqual([first, second].sort());
  });
});

describe('file signing key store', () => {
  it('keeps keys across a restart so old tokens still verify, in a 0600 file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledgerline-keys-'));
    try {
      const keyDir = join(dir, 'keys');
      const before = createTokenIssuer({ issuer: ISSUER, keyStore: new FileSigningKeyStore(keyDir), tokenTtlSeconds: 3600 });
      const token = await before.sign(alice);

      const store = new FileSigningKeyStore(keyDir);
      expect((await stat(store.path)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(store.path, 'utf8')).keys).toHaveLength(1);

      const restarted = createTokenIssuer({ issuer: ISSUER, keyStore: store, tokenTtlSeconds: 3600 });
      expect(await verifierFor(restarted).verify(token)).toEqual(alice);
      expect(kidOf(await restarted.sign(alice))).toBe(kidOf(token));
      expect(await store.loadAll()).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loses no key when saves overlap, and refuses a corrupt file instead of replacing it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledgerline-keys-'));
    try {
      const store = new FileSigningKeyStore(dir);
      const key = (kid: string) => ({ kid, alg: 'ES256' as const, createdAtMs: 1, privateJwk: { kty: 'EC' } });
      await Promise.all(['a', 'b', 'c'].map((kid) => store.save(key(kid))));
      expect((await store.loadAll()).map((k) => k.kid).sort()).toEqual(['a', 'b', 'c']);
      await store.remove('b');
      expect((await store.loadAll()).map((k) => k.kid).sort()).toEqual(['a', 'c']);

      await writeFile(store.path, '{"keys": [');
      await expect(store.loadAll()).rejects.toThrow();
      await expect(createTokenIssuer({ issuer: ISSUER, keyStore: store, tokenTtlSeconds: 60 }).sign(alice)).rejects.toThrow();
      expect(await readFile(store.path, 'utf8')).toBe('{"keys": [');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('verified token cache', () => {
  it('forgets verified tokens when their issuer is no longer trusted', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    const token = await issuer.sign(alice);
    expect(await verifier.verify(token)).toEqual(alice);
    verifier.removeIssuer(ISSUER);
    expect((await rejection(verifier.verify(token))).message).toBe(INVALID);
  });

  it('returns copies, so a caller cannot alter what later requests see', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const verifier = verifierFor(issuer);
    const token = await issuer.sign(alice);
    const first = await verifier.verify(token);
    first.role = 'Admin';
    expect((await verifier.verify(token)).role).toBe('CPA');
  });

  it('does not serve a token past its expiry from the cache', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 1 });
    const verifier = createTokenVerifier({ issuers: [{ issuer: ISSUER, jwks: () => issuer.jwks() }], clockToleranceSeconds: 0 });
    const token = await issuer.sign(alice);
    expect(await verifier.verify(token)).toEqual(alice);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await rejection(verifier.verify(token))).message).toBe(INVALID);
  });
});

describe('issuer discovery', () => {
  it('trusts an issuer the discover function vouches for, and only that one', async () => {
    const realm = createTokenIssuer({ issuer: 'https://kc.test/realms/portal-acme', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 600 });
    const stranger = createTokenIssuer({ issuer: 'https://evil.test', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 600 });
    const asked: string[] = [];
    const verifier = createTokenVerifier({
      issuers: [],
      discoverIssuer: (iss) => {
        asked.push(iss);
        return iss === realm.issuer ? { issuer: iss, jwks: () => realm.jwks() } : null;
      },
    });
    expect(await verifier.verify(await realm.sign(alice))).toEqual(alice);
    expect(await verifier.verify(await realm.sign(alice))).toEqual(alice);
    expect((await rejection(verifier.verify(await stranger.sign(alice)))).message).toBe(INVALID);
    expect(asked).toEqual([realm.issuer, stranger.issuer]);
  });
});
