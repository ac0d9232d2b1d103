import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import { Unauthenticated } from '@ledgerline/kit/errors.ts';
import type { IdentityProvider } from '../src/providers/identity-provider.ts';
import { identityProviderTargets, type ProviderHarness } from './support/identity-provider-targets.ts';

// The contract every identity provider keeps, run against the built-in provider and a
// real Keycloak. One tenant (realm) serves all cases of a provider, so the Keycloak run
// provisions two realms in all; each case uses its own users.

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
    return harness.verifierFor(t).verify(token);
  }

  it('signs a user in with a token that carries the portal user, role and tenant', async () => {
    const fullName = "Zoë O'Brien & Söhne";
    const id = await createUser(tenant, 'alice', { fullName, role: 'CPA', password: 'alice-pass-1' });
    expect(await signIn(tenant, 'alice', 'alice-pass-1')).toEqual({
      sub: String(id), username: 'alice', fullName, role: 'CPA', tenant, platformAdmin: false,
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
    expect(await provider.login(tenant, 'dario', 'dario-old-1')).toBeNull();
    expect(await signIn(tenant, 'dario', 'dario-new-1')).toMatchObject({ sub: String(id), fullName: 'Dario Diaz' });

    await provider.upsertUser(tenant, { id, username: 'dario', fullName: 'Dario Diaz-Ortega', role: 'CPA' });
    expect(await signIn(tenant, 'dario', 'dario-new-1')).toMatchObject({ sub: String(id), fullName: 'Dario Diaz-Ortega' });
    expect(await provider.login(tenant, 'dario', 'dario-old-1')).toBeNull();
  });

  it('needs a password to create a user', async () => {
    const id = await harness.createUserRecord(tenant, 'erin', 'Erin Earl');
    await expect(provider.upsertUser(tenant, { id, username: 'erin', fullName: 'Erin Earl', role: 'CPA' })).rejects.toThrow('password is required');
    expect(await provider.login(tenant, 'erin', '')).toBeNull();
  });

  it('refuses a deleted user, and deleting an unknown one is harmless', async () => {
    await createUser(tenant, 'fiona', { fullName: 'Fiona Fox', role: 'DTA', password: 'fiona-pass-1' });
    await provider.deleteUser(tenant, 'fiona');
    expect(await provider.login(tenant, 'fiona', 'fiona-pass-1')).toBeNull();
    await expect(provider.deleteUser(tenant, 'fiona')).resolves.toBeUndefined();
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
    expect(await provider.login(tenant, 'kim', 'kim-there-1')).toBeNull();
    expect(await provider.login(otherTenant, 'kim', 'kim-here-1')).toBeNull();
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
  });

  // Last: the shared tenant signs nobody in afterwards.
  it('refuses every login of a retired tenant and leaves other tenants alone', async () => {
    await createUser(tenant, 'lena', { fullName: 'Lena Lind', role: 'DTA', password: 'lena-pass-1' });
    await createUser(otherTenant, 'lena', { fullName: 'Lena Lind', role: 'DTA', password: 'lena-pass-2' });
    await provider.retireTenant(tenant);
    expect(await provider.login(tenant, 'lena', 'lena-pass-1')).toBeNull();
    expect(await provider.login(tenant, 'alice', 'alice-pass-1')).toBeNull();
    expect(await signIn(otherTenant, 'lena', 'lena-pass-2')).toMatchObject({ tenant: otherTenant });
  });
});
