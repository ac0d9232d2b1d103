import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { SignJWT, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import { JWKS_PATH, createJwksRouter } from '@ledgerline/kit/auth/jwks-router.ts';
import { keycloakClaimsMapper } from '@ledgerline/kit/auth/keycloak-claims.ts';
import { MemorySigningKeyStore } from '@ledgerline/kit/auth/signing-key-store.ts';
import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { createTokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Unauthenticated, Unavailable } from '@ledgerline/kit/errors.ts';

const ISSUER = 'https://portal.example.test/auth';
const alice: PortalClaims = { sub: '42', username: 'alice', fullName: 'Alice Example', role: 'CPA', tenant: 'acme', platformAdmin: false };

describe('JWKS over HTTP', () => {
  const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
  let server: Server;
  let jwksUrl: string;
  let fetches = 0;

  beforeAll(async () => {
    const app = express();
    app.use((req, _res, next) => {
      if (req.path === JWKS_PATH) fetches++;
      next();
    });
    app.use(createJwksRouter(issuer));
    server = app.listen(0);
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${JWKS_PATH}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves the public keys only, with a short cache lifetime', async () => {
    const res = await fetch(jwksUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const body = (await res.json()) as JSONWebKeySet;
    expect(body.keys.length).toBeGreaterThan(0);
    for (const key of body.keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
      expect(key).not.toHaveProperty('d');
    }
  });

  it('fetches the key set once for many verifications and again for an unknown kid', async () => {
    const verifier = createTokenVerifier({ issuers: [{ issuer: ISSUER, jwksUrl }], jwksCooldownSeconds: 0 });
    const start = fetches;
    const tokens = await Promise.all(Array.from({ length: 5 }, () => issuer.sign(alice)));
    for (let i = 0; i < 4; i++) {
      for (const token of tokens) expect(await verifier.verify(token)).toEqual(alice);
    }
    expect(fetches - start).toBe(1);

    await issuer.rotate();
    const fresh = await issuer.sign(alice);
    expect(await verifier.verify(fresh)).toEqual(alice);
    expect(fetches - start).toBe(2);
    expect(await verifier.verify(tokens[0]!)).toEqual(alice);
    expect(await verifier.verify(fresh)).toEqual(alice);
    expect(fetches - start).toBe(2);
  });

  it('does not refetch for unknown kids during the cooldown', async () => {
    const verifier = createTokenVerifier({ issuers: [{ issuer: ISSUER, jwksUrl }], jwksCooldownSeconds: 30 });
    const start = fetches;
    expect(await verifier.verify(await issuer.sign(alice))).toEqual(alice);
    await issuer.rotate();
    const fresh = await issuer.sign(alice);
    await expect(verifier.verify(fresh)).rejects.toBeInstanceOf(Unauthenticated);
    await expect(verifier.verify(fresh)).rejects.toBeInstanceOf(Unauthenticated);
    expect(fetches - start).toBe(1);
  });

  it('reports an unreachable key set as unavailable, not as a bad token', async () => {
    const closed = express().listen(0);
    await new Promise<void>((resolve) => closed.once('listening', () => resolve()));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}${JWKS_PATH}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const verifier = createTokenVerifier({ issuers: [{ issuer: ISSUER, jwksUrl: deadUrl }] });
    const error = await verifier.verify(await issuer.sign(alice)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Unavailable);
    expect((error as Error).cause).toBeDefined();
  });
});

describe('in-process key set cache', () => {
  it('calls the jwks function once for many verifications and again for an unknown kid', async () => {
    const issuer = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    let calls = 0;
    const jwks = () => {
      calls++;
      return issuer.jwks();
    };
    const verifier = createTokenVerifier({ issuers: [{ issuer: ISSUER, jwks }], jwksCooldownSeconds: 0 });
    const token = await issuer.sign(alice);
    await Promise.all(Array.from({ length: 10 }, () => verifier.verify(token)));
    expect(calls).toBe(1);
    await issuer.rotate();
    expect(await verifier.verify(await issuer.sign(alice))).toEqual(alice);
    expect(calls).toBe(2);
    expect(await verifier.verify(token)).toEqual(alice);
    expect(calls).toBe(2);
  });
});

describe('several trusted issuers', () => {
  const realm = 'https://sso.example.test/realms/beta';

  async function keycloakRealm() {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const publicJwk = { ...(await exportJWK(publicKey)), kid: 'realm-key-1', alg: 'RS256', use: 'sig' };
    const sign = (payload: Record<string, unknown>, expiresIn = '5m') =>
      new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'realm-key-1', typ: 'JWT' })
        .setIssuer(realm).setSubject('f3c1a2de-0000-4000-8000-000000000001').setIssuedAt().setExpirationTime(expiresIn).sign(privateKey);
    return { jwks: async () => ({ keys: [publicJwk] }), sign };
  }

  it('verifies the built-in issuer and a Keycloak realm side by side, each with its own claim mapping', async () => {
    const builtIn = createTokenIssuer({ issuer: ISSUER, keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 3600 });
    const kc = await keycloakRealm();
    const verifier = createTokenVerifier({
      issuers: [
        { issuer: ISSUER, jwks: () => builtIn.jwks() },
        { issuer: realm, jwks: kc.jwks, mapClaims: keycloakClaimsMapper('beta') },
      ],
    });
    const kcToken = await kc.sign({
      portal_user_id: '7',
      preferred_username: 'bob',
      name: 'Bob Realm',
      realm_access: { roles: ['default-roles-beta', 'offline_access', 'uma_authorization', 'DTA'] },
      // A tenant-looking claim in a realm token must not decide the tenant.
      tenant: 'acme',
    });
    // sub is the portal's user id, not the realm's own user UUID.
    expect(await verifier.verify(kcToken)).toEqual({
      sub: '7', username: 'bob', fullName: 'Bob Realm', role: 'DTA', tenant: 'beta', platformAdmin: false,
    });
    expect(await verifier.verify(await builtIn.sign(alice))).toEqual(alice);
  });

  it('rejects a realm token without a portal role, and a built-in-shaped token signed by the realm key', async () => {
    const kc = await keycloakRealm();
    const verifier = createTokenVerifier({ issuers: [{ issuer: realm, jwks: kc.jwks, mapClaims: keycloakClaimsMapper('beta') }] });
    const noRole = await kc.sign({ portal_user_id: '8', preferred_username: 'carol', realm_access: { roles: ['default-roles-beta', 'offline_access'] } });
    await expect(verifier.verify(noRole)).rejects.toThrow('Invalid authentication token. Please log in again.');
    const wrongShape = await kc.sign({ portal_user_id: '8', preferred_username: 'carol', role: 'Admin' });
    await expect(verifier.verify(wrongShape)).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('rejects a realm token without a numeric portal user id, whatever else it carries', async () => {
    const kc = await keycloakRealm();
    const verifier = createTokenVerifier({ issuers: [{ issuer: realm, jwks: kc.jwks, mapClaims: keycloakClaimsMapper('beta') }] });
    const claims = { preferred_username: 'dave', name: 'Dave Realm', realm_access: { roles: ['CPA'] } };
    await expect(verifier.verify(await kc.sign(claims))).rejects.toThrow('Invalid authentication token. Please log in again.');
    await expect(verifier.verify(await kc.sign({ ...claims, portal_user_id: 'f3c1a2de' }))).rejects.toBeInstanceOf(Unauthenticated);
    await expect(verifier.verify(await kc.sign({ ...claims, portal_user_id: 9 }))).rejects.toBeInstanceOf(Unauthenticated);
    expect(await verifier.verify(await kc.sign({ ...claims, portal_user_id: '9' }))).toMatchObject({ sub: '9', username: 'dave', role: 'CPA' });
  });

  it("takes the portal's spelling of the username over Keycloak's lowercased one", async () => {
    const kc = await keycloakRealm();
    const verifier = createTokenVerifier({ issuers: [{ issuer: realm, jwks: kc.jwks, mapClaims: keycloakClaimsMapper('beta') }] });
    const token = await kc.sign({ portal_user_id: '10', portal_username: 'AnnaB', preferred_username: 'annab', realm_access: { roles: ['DTA'] } });
    expect(await verifier.verify(token)).toEqual({ sub: '10', username: 'AnnaB', fullName: 'AnnaB', role: 'DTA', tenant: 'beta', platformAdmin: false });
  });

  it('adds and removes trusts at run time', async () => {
    const kc = await keycloakRealm();
    const verifier = createTokenVerifier({ issuers: [] });
    const token = await kc.sign({ portal_user_id: '7', preferred_username: 'bob', realm_access: { roles: ['Client'] } });
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(Unauthenticated);
    verifier.addIssuer({ issuer: realm, jwks: kc.jwks, mapClaims: keycloakClaimsMapper('beta') });
    expect(await verifier.verify(token)).toMatchObject({ username: 'bob', fullName: 'bob', role: 'Client', tenant: 'beta' });
    verifier.removeIssuer(realm);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('refuses a trust without exactly one key source', () => {
    const verifier = createTokenVerifier({ issuers: [] });
    expect(() => verifier.addIssuer({ issuer: realm })).toThrow('exactly one');
    expect(() => verifier.addIssuer({ issuer: realm, jwksUrl: 'http://127.0.0.1:1/jwks', jwks: async () => ({ keys: [] }) })).toThrow('exactly one');
  });
});
