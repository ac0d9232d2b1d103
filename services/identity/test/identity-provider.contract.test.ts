import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import { createTokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Unauthenticated, Unavailable } from '@ledgerline/kit/errors.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { SecondFactorSetupRequired, type IdentityProvider } from '../src/providers/identity-provider.ts';
import { totpCode } from '../src/mfa/totp.ts';
import { KeycloakIdentityProvider } from '../src/providers/keycloak-identity-provider.ts';
import {
  TEST_REALM_PREFIX,
  identityProviderTargets,
  keycloakAdminCredentials,
  keycloakTestAdmin,
  tenantName,
  type ProviderHarness,
} from './support/identity-provider-targets.ts';

// The contract every identity provider keeps, run against the built-in provider and a
// real Keycloak. One tenant (realm) serves all cases of a provider, so the Keycloak run
// provisions two realms in all; each case uses its own users. Within a case, refused
// logins of a user come after that user's successful ones: Keycloak 26's brute-force
// protection now and then refuses the right password sent milliseconds after a wrong one
// for the same user (as only a test sends them).

const ROLES = ['Admin', 'DTA', 'CPA', 'Client'];
/** What the UI checks of a token (spec): a JWT, three dot-separated parts, longer than 50 characters. */
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

describe.each(identityProviderTargets())('$kind identity provider', (target) => {
  let harness: ProviderHarness;
  let provider: IdentityProvider;
  let tenant: string;
  let otherTenant: string;

  beforeAll(async () => {
    harness = await target.open();
    provider = harness.provider;
    tenant = await harness.newTenant();
    otherTenant = await harness.newTenant();
    await provider.provisionTenant(tenant, ROLES);
    await provider.provisionTenant(otherTenant, ROLES);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  async function createUser(t: string, username: string, user: { fullName: string; role: string; password: string }): Promise<number> {
    const id = await harness.createUserRecord(t, username, user.fullName);
    await provider.upsertUser(t, { id, username, ...user });
    return id;
  }

  /** Signs in and returns the claims a service of tenant `t` reads from the token. */
  async function signIn(t: string, username: string, password: string): Promise<PortalClaims> {
    const token = await provider.login(t, username, password);
    expect(token).toMatch(JWT);
    expect(token!.length).toBeGreaterThan(50);
    const { realmSessionId, ...claims } = await harness.verifierFor(t).verify(token);
    // A realm's token names its realm session (sign out everywhere ends it); the built-in issuer's sessions are identity's.
    expect(realmSessionId).toEqual(target.kind === 'keycloak' ? expect.any(String) : undefined);
    return claims;
  }

  it('signs a user in with a token that carries the portal user, role and tenant', async () => {
    // Capitals, an apostrophe, an ampersand and umlauts: the names come back as the portal spells them.
    const fullName = "Zoë O'Brien & Söhne";
    const id = await createUser(tenant, 'AliceB', { fullName, role: 'CPA', password: 'alice-pass-1' });
    expect(await signIn(tenant, 'AliceB', 'alice-pass-1')).toEqual({
      sub: String(id), username: 'AliceB', fullName, role: 'CPA', tenant, platformAdmin: false,
    });
  });

  it('refuses a wrong password and an unknown user with null', async () => {
    await createUser(tenant, 'bruno', { fullName: 'Bruno Bell', role: 'DTA', password: 'bruno-pass-1' });
    expect(await provider.login(tenant, 'bruno', 'bruno-pass-2')).toBeNull();
    expect(await provider.login(tenant, 'bruno', '')).toBeNull();
    expect(await provider.login(tenant, 'nobody-here', 'bruno-pass-1')).toBeNull();
  });

  it('puts a changed role into the next login, and only that role', async () => {
    const id = await createUser(tenant, 'carla', { fullName: 'Carla Cruz', role: 'Client', password: 'carla-pass-1' });
    expect(await signIn(tenant, 'carla', 'carla-pass-1')).toMatchObject({ sub: String(id), role: 'Client' });
    await provider.upsertUser(tenant, { id, username: 'carla', fullName: 'Carla Cruz', role: 'Admin' });
    expect(await signIn(tenant, 'carla', 'carla-pass-1')).toMatchObject({ sub: String(id), role: 'Admin' });
    await provider.upsertUser(tenant, { id, username: 'carla', fullName: 'Carla Cruz', role: 'DTA' });
    expect(await signIn(tenant, 'carla', 'carla-pass-1')).toMatchObject({ role: 'DTA' });
  });

  it('replaces the password when one is given and keeps it when none is', async () => {
    const id = await createUser(tenant, 'dario', { fullName: 'Dario Diaz', role: 'CPA', password: 'dario-old-1' });
    await provider.upsertUser(tenant, { id, username: 'dario', fullName: 'Dario Diaz', role: 'CPA', password: 'dario-new-1' });
    expect(await signIn(tenant, 'dario', 'dario-new-1')).toMatchObject({ sub: String(id), fullName: 'Dario Diaz' });
    await provider.upsertUser(tenant, { id, username: 'dario', fullName: 'Dario Diaz-Ortega', role: 'CPA' });
    expect(await signIn(tenant, 'dario', 'dario-new-1')).toMatchObject({ sub: String(id), fullName: 'Dario Diaz-Ortega' });
    expect(await provider.login(tenant, 'dario', 'dario-old-1')).toBeNull();
  });

  it('creates an invited user without a password: nothing signs them in until their invitation sets one', async () => {
    const id = await harness.createUserRecord(tenant, 'erin', 'Erin Earl');
    await provider.upsertUser(tenant, { id, username: 'erin', fullName: 'Erin Earl', role: 'CPA' });
    expect(await provider.login(tenant, 'erin', '')).toBeNull();
    expect(await provider.login(tenant, 'erin', 'erin-pass-1')).toBeNull();
    await provider.upsertUser(tenant, { id, username: 'erin', fullName: 'Erin Earl', role: 'CPA', password: 'erin-pass-1' });
    expect(await signIn(tenant, 'erin', 'erin-pass-1')).toMatchObject({ sub: String(id), role: 'CPA' });
  });

  it('refuses a deleted user, and deleting an unknown one is harmless', async () => {
    await createUser(tenant, 'fiona', { fullName: 'Fiona Fox', role: 'DTA', password: 'fiona-pass-1' });
    await provider.deleteUser(tenant, 'fiona');
    expect(await provider.login(tenant, 'fiona', 'fiona-pass-1')).toBeNull();
    await expect(provider.deleteUser(tenant, 'fiona')).resolves.toBeUndefined();
  });

  it('follows a renamed user: the new username signs in with the same password, the old one no longer does', async () => {
    const id = await createUser(tenant, 'MaxM', { fullName: 'Max Muster', role: 'CPA', password: 'max-pass-1' });
    await provider.upsertUser(tenant, { id, username: 'MaxMuster', fullName: 'Max Muster', role: 'CPA' });
    expect(await signIn(tenant, 'MaxMuster', 'max-pass-1')).toMatchObject({ sub: String(id), username: 'MaxMuster' });
    expect(await provider.login(tenant, 'MaxM', 'max-pass-1')).toBeNull();
    await provider.deleteUser(tenant, 'MaxMuster');
    expect(await provider.login(tenant, 'MaxMuster', 'max-pass-1')).toBeNull();
  });

  it('moves the users of a renamed role to the new name', async () => {
    await provider.upsertRole(tenant, 'Auditor');
    const first = await createUser(tenant, 'gina', { fullName: 'Gina Gold', role: 'Auditor', password: 'gina-pass-1' });
    const second = await createUser(tenant, 'hugo', { fullName: 'Hugo Hale', role: 'Auditor', password: 'hugo-pass-1' });
    await createUser(tenant, 'ines', { fullName: 'Ines Ito', role: 'CPA', password: 'ines-pass-1' });
    await provider.renameRole(tenant, 'Auditor', 'Reviewer');
    expect(await signIn(tenant, 'gina', 'gina-pass-1')).toMatchObject({ sub: String(first), role: 'Reviewer' });
    expect(await signIn(tenant, 'hugo', 'hugo-pass-1')).toMatchObject({ sub: String(second), role: 'Reviewer' });
    expect(await signIn(tenant, 'ines', 'ines-pass-1')).toMatchObject({ role: 'CPA' });
    await provider.deleteRole(tenant, 'Reviewer');
    await provider.deleteRole(tenant, 'Auditor');
  });

  it('provisions again without losing users, credentials or roles', async () => {
    const id = await createUser(tenant, 'jonas', { fullName: 'Jonas Jung', role: 'Client', password: 'jonas-pass-1' });
    await provider.provisionTenant(tenant, ROLES);
    expect(await signIn(tenant, 'jonas', 'jonas-pass-1')).toEqual({
      sub: String(id), username: 'jonas', fullName: 'Jonas Jung', role: 'Client', tenant, platformAdmin: false,
    });
  });

  it('keeps tenants apart: credentials of one tenant do not sign in to another, and its tokens map to it only', async () => {
    const here = await createUser(tenant, 'kim', { fullName: 'Kim Here', role: 'Admin', password: 'kim-here-1' });
    const there = await createUser(otherTenant, 'kim', { fullName: 'Kim There', role: 'Client', password: 'kim-there-1' });
    expect(await signIn(otherTenant, 'kim', 'kim-there-1')).toEqual({
      sub: String(there), username: 'kim', fullName: 'Kim There', role: 'Client', tenant: otherTenant, platformAdmin: false,
    });

    const token = await provider.login(tenant, 'kim', 'kim-here-1');
    expect(await harness.verifierFor(tenant).verify(token)).toMatchObject({ sub: String(here), tenant });
    const viaOther = await harness.verifierFor(otherTenant).verify(token).then((claims) => claims.tenant, (e: unknown) => e);
    if (provider.trustFor(otherTenant)) {
      // A realm's trust accepts only that realm's tokens.
      expect(viaOther).toBeInstanceOf(Unauthenticated);
    } else {
      // One built-in issuer signs for every tenant: the token still names its own tenant.
      expect(viaOther).toBe(tenant);
    }

    expect(await provider.login(tenant, 'kim', 'kim-there-1')).toBeNull();
    expect(await provider.login(otherTenant, 'kim', 'kim-here-1')).toBeNull();
  });

  it('refuses every login of a retired tenant, leaves other tenants alone, and signs in again once reactivated', async () => {
    const id = await createUser(tenant, 'lena', { fullName: 'Lena Lind', role: 'DTA', password: 'lena-pass-1' });
    await createUser(otherTenant, 'lena', { fullName: 'Lena Lind', role: 'DTA', password: 'lena-pass-2' });
    await provider.retireTenant(tenant);
    expect(await provider.login(tenant, 'lena', 'lena-pass-1')).toBeNull();
    expect(await provider.login(tenant, 'AliceB', 'alice-pass-1')).toBeNull();
    expect(await signIn(otherTenant, 'lena', 'lena-pass-2')).toMatchObject({ tenant: otherTenant });
    // Retiring keeps the data (spec: the company record goes, the tenant's data stays).
    await provider.provisionTenant(tenant, ROLES);
    expect(await signIn(tenant, 'lena', 'lena-pass-1')).toMatchObject({ sub: String(id), role: 'DTA', tenant });
  });
});

describe('Keycloak identity provider without a server', () => {
  it('reports an unreachable Keycloak as unavailable, for logins and provisioning alike', async () => {
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    const provider = new KeycloakIdentityProvider({ url: 'http://127.0.0.1:1', adminUsername: 'admin', adminPassword: 'admin', requestTimeoutMs: 2_000 });
    await expect(provider.login('acme', 'anna', 'anna-pass-1')).rejects.toBeInstanceOf(Unavailable);
    await expect(provider.provisionTenant('acme', ROLES)).rejects.toBeInstanceOf(Unavailable);
  });
});

const keycloakUrl = realServerUrl('KEYCLOAK_URL');
if (keycloakUrl) {
  describe('Keycloak realm of a tenant', () => {
    it("does not let users change their own tokens' claims in Keycloak's account console", async () => {
      const admin = await keycloakTestAdmin(keycloakUrl);
      const tenant = tenantName();
      const realm = `${TEST_REALM_PREFIX}${tenant}`;
      const provider = new KeycloakIdentityProvider({ url: keycloakUrl, ...keycloakAdminCredentials(), realmPrefix: TEST_REALM_PREFIX });
      try {
        await provider.provisionTenant(tenant, ROLES);
        await provider.upsertUser(tenant, { id: 77, username: 'nora', fullName: 'Nora Nagel', role: 'Client', password: 'nora-pass-1' });
        const token = await provider.login(tenant, 'nora', 'nora-pass-1');
        const account = `${keycloakUrl}/realms/${realm}/account`;
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
        expect((await fetch(account, { headers })).status).toBe(200);
        for (const change of [
          { username: 'nora-admin' },
          { firstName: 'Someone Else' },
          { lastName: 'Impostor' },
          { attributes: { portal_user_id: ['1'], portal_username: ['admin'] } },
        ]) {
          const res = await fetch(account, { method: 'POST', headers, body: JSON.stringify({ username: 'nora', firstName: 'Nora Nagel', ...change }) });
          expect({ change, status: res.status }).toEqual({ change, status: 400 });
        }
        const claims = await createTokenVerifier({ issuers: [provider.trustFor(tenant)] }).verify(await provider.login(tenant, 'nora', 'nora-pass-1'));
        expect(claims).toEqual({ sub: '77', username: 'nora', fullName: 'Nora Nagel', role: 'Client', tenant, platformAdmin: false, realmSessionId: expect.any(String) });
      } finally {
        await provider.close();
        await admin.realms.del({ realm }, { catchNotFound: true });
      }
    });
  });

  describe('Keycloak sessions of a changed user', () => {
    it('ends the realm sessions of a user whose role changes, and keeps them when it does not', async () => {
      const admin = await keycloakTestAdmin(keycloakUrl);
      const tenant = tenantName();
      const realm = `${TEST_REALM_PREFIX}${tenant}`;
      const provider = new KeycloakIdentityProvider({ url: keycloakUrl, ...keycloakAdminCredentials(), realmPrefix: TEST_REALM_PREFIX });
      const sessionsOf = async () => {
        const [user] = await admin.users.find({ realm, username: 'omar', exact: true });
        return (await admin.users.listSessions({ realm, id: user!.id! })).length;
      };
      try {
        await provider.provisionTenant(tenant, ROLES);
        const omar = { id: 78, username: 'omar', fullName: 'Omar Ortiz', password: 'omar-pass-1' };
        await provider.upsertUser(tenant, { ...omar, role: 'Admin' });
        expect(await provider.login(tenant, 'omar', 'omar-pass-1')).toMatch(JWT);
        expect(await sessionsOf()).toBe(1);
        await provider.upsertUser(tenant, { ...omar, fullName: 'Omar O. Ortiz', role: 'Admin', password: undefined });
        expect(await sessionsOf()).toBe(1);
        await provider.upsertUser(tenant, { ...omar, role: 'Client', password: undefined });
        expect(await sessionsOf()).toBe(0);
      } finally {
        await provider.close();
        await admin.realms.del({ realm }, { catchNotFound: true });
      }
    });

    it('lists the realm sessions a token names in its sid, ends one of them or all (sign out everywhere)', async () => {
      const admin = await keycloakTestAdmin(keycloakUrl);
      const tenant = tenantName();
      const realm = `${TEST_REALM_PREFIX}${tenant}`;
      const provider = new KeycloakIdentityProvider({ url: keycloakUrl, ...keycloakAdminCredentials(), realmPrefix: TEST_REALM_PREFIX });
      const verifier = createTokenVerifier({ issuers: [provider.trustFor(tenant)] });
      const quinn = { id: 81, username: 'quinn' };
      try {
        await provider.provisionTenant(tenant, ROLES);
        await provider.upsertUser(tenant, { ...quinn, fullName: 'Quinn Quade', role: 'CPA', password: 'quinn-pass-1' });
        const first = (await verifier.verify((await provider.login(tenant, 'quinn', 'quinn-pass-1'))!)).realmSessionId;
        const second = (await verifier.verify((await provider.login(tenant, 'quinn', 'quinn-pass-1'))!)).realmSessionId;
        expect((await provider.realmSessions(tenant, quinn)).map((x) => x.id).sort()).toEqual([first, second].sort());
        expect(await provider.endRealmSessions(tenant, quinn, first)).toEqual([first]);
        expect((await provider.realmSessions(tenant, quinn)).map((x) => x.id)).toEqual([second]);
        expect(await provider.endRealmSessions(tenant, quinn, 'no-such-session')).toEqual([]);
        expect(await provider.endRealmSessions(tenant, quinn)).toEqual([second]);
        expect(await provider.realmSessions(tenant, quinn)).toEqual([]);
      } finally {
        await provider.close();
        await admin.realms.del({ realm }, { catchNotFound: true });
      }
    });
  });

  describe('Keycloak second factors of a user', () => {
    it('a user required a factor is refused with SecondFactorSetupRequired after the right password only; an added authenticator\'s code then signs them in; a reset removes it', async () => {
      const admin = await keycloakTestAdmin(keycloakUrl);
      const tenant = tenantName();
      const realm = `${TEST_REALM_PREFIX}${tenant}`;
      const provider = new KeycloakIdentityProvider({ url: keycloakUrl, ...keycloakAdminCredentials(), realmPrefix: TEST_REALM_PREFIX });
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      try {
        await provider.provisionTenant(tenant, ROLES);
        const pia = { id: 79, username: 'pia', fullName: 'Pia Park', role: 'CPA' };
        await provider.upsertUser(tenant, { ...pia, password: 'pia-pass-1', secondFactorRequired: true });
        await expect(provider.login(tenant, 'pia', 'pia-pass-1')).rejects.toBeInstanceOf(SecondFactorSetupRequired);
        expect(await provider.usersWithAuthenticator(tenant)).toEqual(new Set());
        await provider.addAuthenticator(tenant, 'pia', secret);
        expect(await provider.usersWithAuthenticator(tenant)).toEqual(new Set([79]));
        expect(await provider.asksForOtp(tenant, 'pia')).toBe(true);
        expect(await provider.login(tenant, 'pia', 'pia-pass-1', totpCode(secret))).toMatch(JWT);
        // Lifted and set again as the policy says; a reset takes the authenticator away and asks for one again.
        await provider.requireSecondFactor(tenant, [{ id: 79, username: 'pia', required: false }]);
        await provider.resetSecondFactors(tenant, { id: 79, username: 'pia', required: true });
        expect(await provider.asksForOtp(tenant, 'pia')).toBe(false);
        await expect(provider.login(tenant, 'pia', 'pia-pass-1')).rejects.toBeInstanceOf(SecondFactorSetupRequired);
        await provider.requireSecondFactor(tenant, [{ id: 79, username: 'pia', required: false }, { id: 80, username: 'nobody', required: true }]);
        expect(await provider.login(tenant, 'pia', 'pia-pass-1')).toMatch(JWT);
        // A wrong password is refused as any is, required action or not.
        await provider.requireSecondFactor(tenant, [{ id: 79, username: 'pia', required: true }]);
        expect(await provider.login(tenant, 'pia', 'not-pias-password')).toBeNull();
        const [user] = await admin.users.find({ realm, username: 'pia', exact: true });
        expect(user!.requiredActions).toEqual(['CONFIGURE_TOTP']);
      } finally {
        await provider.close();
        await admin.realms.del({ realm }, { catchNotFound: true });
      }
    });
  });

  describe('Keycloak admin session', () => {
    it('signs in again when Keycloak stops accepting its admin token', async () => {
      const admin = await keycloakTestAdmin(keycloakUrl);
      // An administrator of its own, so revoking its sessions disturbs no other suite.
      const username = `contract-admin-${randomBytes(4).toString('hex')}`;
      const password = randomBytes(12).toString('hex');
      const { id } = await admin.users.create({ realm: 'master', username, enabled: true, credentials: [{ type: 'password', value: password, temporary: false }] });
      const adminRole = await admin.roles.findOneByName({ realm: 'master', name: 'admin' });
      await admin.users.addRealmRoleMappings({ realm: 'master', id, roles: [{ id: adminRole!.id!, name: 'admin' }] });
      const tenant = tenantName();
      const realm = `${TEST_REALM_PREFIX}${tenant}`;
      const provider = new KeycloakIdentityProvider({ url: keycloakUrl, adminUsername: username, adminPassword: password, realmPrefix: TEST_REALM_PREFIX });
      try {
        await provider.provisionTenant(tenant, ROLES);
        await admin.users.logout({ realm: 'master', id });
        await provider.upsertRole(tenant, 'Auditor');
        expect(await admin.roles.findOneByName({ realm, name: 'Auditor' })).toMatchObject({ name: 'Auditor' });
      } finally {
        await provider.close();
        await admin.realms.del({ realm }, { catchNotFound: true });
        await admin.users.del({ realm: 'master', id });
      }
    });
  });
}
