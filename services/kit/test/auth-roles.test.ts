import { describe, it, expect } from '@jest/globals';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import { builtInRoleNamed, canActInTenant, hasRole, isAdmin, isClient, isStaff, requireRole, roleIs, sameRoleName } from '@ledgerline/kit/auth/roles.ts';
import { storedUserScope } from '@ledgerline/kit/access/access-scope.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { keycloakRealmTrust } from '@ledgerline/kit/auth/keycloak-realm-trust.ts';

const user = (role: string, tenant: string | null = 'acme', platformAdmin = false): PortalClaims =>
  ({ sub: '7', username: 'u', fullName: 'U', role, tenant, platformAdmin });

describe('role helpers', () => {
  it('compares role names case-insensitively', () => {
    expect(isAdmin(user('Admin'))).toBe(true);
    expect(isAdmin(user('admin'))).toBe(true);
    expect(isAdmin(user('ADMIN'))).toBe(true);
    expect(isClient(user('client'))).toBe(true);
    expect(isClient(user('Client'))).toBe(true);
    expect(hasRole(user('dta'), 'DTA', 'CPA')).toBe(true);
    expect(hasRole(user('Bookkeeper'), 'bookkeeper')).toBe(true);
  });

  it('compares stored role names the same way (one helper for every service), and knows the built-in names in any case', () => {
    expect(sameRoleName(' client ', 'Client')).toBe(true);
    expect(roleIs('client', 'Client')).toBe(true);
    expect(roleIs('Bookkeeper', 'Admin', 'Client')).toBe(false);
    expect(['admin', 'ADMIN', 'dta', 'Cpa', ' client'].map(builtInRoleNamed)).toEqual(['Admin', 'Admin', 'DTA', 'CPA', 'Client']);
    expect(builtInRoleNamed('Administrator')).toBeNull();
    expect(storedUserScope({ role: 'client', clientIds: [4, 5], reportTypeIds: [] })).toMatchObject({ isClient: true, clients: [4] });
  });

  it('tells staff from clients, custom roles included', () => {
    for (const role of ['Admin', 'DTA', 'CPA', 'Bookkeeper']) {
      expect(isStaff(user(role))).toBe(true);
      expect(isClient(user(role))).toBe(false);
    }
    expect(isStaff(user('Client'))).toBe(false);
    expect(isAdmin(user('DTA'))).toBe(false);
    expect(isAdmin(user('Client'))).toBe(false);
  });

  it('requireRole passes listed roles and throws Forbidden otherwise', () => {
    expect(() => requireRole(user('cpa'), 'Admin', 'CPA')).not.toThrow();
    expect(() => requireRole(user('Client'), 'Admin', 'DTA')).toThrow(Forbidden);
    expect(() => requireRole(user('Admin'))).toThrow(Forbidden);
  });

  it('treats platform administrators as Admin, never as a client', () => {
    const root = user('PlatformAdmin', null, true);
    expect(isAdmin(root)).toBe(true);
    expect(isStaff(root)).toBe(true);
    expect(() => requireRole(root, 'Admin')).not.toThrow();
    expect(isClient(user('Client', null, true))).toBe(false);
    expect(() => requireRole(root, 'Client')).toThrow(Forbidden);
  });

  it('keeps tenant users in their own tenant and lets platform admins act in any', () => {
    expect(canActInTenant(user('Admin', 'acme'), 'acme')).toBe(true);
    expect(canActInTenant(user('Admin', 'acme'), 'beta')).toBe(false);
    expect(canActInTenant(user('Client', 'beta'), 'acme')).toBe(false);
    expect(canActInTenant(user('Admin', null), 'acme')).toBe(false);
    expect(canActInTenant(user('Admin', null, true), 'acme')).toBe(true);
    expect(canActInTenant(user('Admin', null, true), 'beta')).toBe(true);
  });
});

describe('keycloak realm trust', () => {
  it('trusts exactly the realms of the configured Keycloak and maps them to their firm', () => {
    const discover = keycloakRealmTrust('http://127.0.0.1:8180/', 'portal-');
    expect(discover('http://127.0.0.1:8180/realms/portal-acme')).toMatchObject({
      issuer: 'http://127.0.0.1:8180/realms/portal-acme',
      jwksUrl: 'http://127.0.0.1:8180/realms/portal-acme/protocol/openid-connect/certs',
    });
    expect(discover('http://127.0.0.1:8180/realms/master')).toBeNull();
    expect(discover('http://evil.test/realms/portal-acme')).toBeNull();
    expect(discover('http://127.0.0.1:8180/realms/portal-acme/../master')).toBeNull();
  });
});
