import { describe, expect, it } from '@jest/globals';
import { accessRedirect, audienceRedirect, loginPathFor } from '../src/guard-redirect.ts';

describe('guards', () => {
  it('sends an unauthenticated user on /{tenant}/dashboard to /{tenant}/login', () => {
    expect(accessRedirect('authenticated', '/acme/dashboard', 'anonymous')).toBe('/acme/login');
    expect(accessRedirect('authenticated', '/acme/dashboard/', 'anonymous')).toBe('/acme/login');
  });

  it('sends an unauthenticated user on any other guarded path to /login', () => {
    for (const path of ['/', '/tasks', '/acme/tasks', '/acme/dashboard/extra', '/account-settings', '/admin/dashboard']) {
      expect([path, accessRedirect('authenticated', path, 'anonymous')]).toEqual([path, '/login']);
    }
  });

  it('lets an authenticated user through guarded routes', () => {
    expect(accessRedirect('authenticated', '/acme/dashboard', 'authenticated')).toBeNull();
    expect(accessRedirect('authenticated', '/tasks', 'authenticated')).toBeNull();
  });

  it('sends an authenticated user on /login to /', () => {
    expect(accessRedirect('guest', '/login', 'authenticated')).toBe('/');
    expect(accessRedirect('guest', '/login', 'anonymous')).toBeNull();
  });

  it("shows another firm's login to a signed-in user (the admin console's 'Open'), but not their own firm's", () => {
    expect(accessRedirect('guest', '/globex/login', 'authenticated', 'acme')).toBeNull();
    expect(accessRedirect('guest', '/globex/login', 'authenticated', undefined)).toBeNull();
    expect(accessRedirect('guest', '/acme/login', 'authenticated', 'acme')).toBe('/');
    expect(accessRedirect('guest', '/admin/login', 'authenticated', 'acme')).toBe('/');
    expect(accessRedirect('guest', '/login', 'authenticated', 'acme')).toBe('/');
  });

  it('never redirects from public routes', () => {
    expect(accessRedirect('public', '/acme/client/4/portal', 'anonymous')).toBeNull();
    expect(accessRedirect('public', '/acme/client/4/portal', 'authenticated')).toBeNull();
  });

  it('never treats admin as a tenant', () => {
    expect(loginPathFor('/admin/dashboard')).toBe('/login');
  });
});

describe('audienceRedirect', () => {
  it('lets each audience open its own pages', () => {
    expect(audienceRedirect(['staff'], 'CPA', 'acme')).toBeNull();
    expect(audienceRedirect(['client'], 'Client', 'acme')).toBeNull();
    expect(audienceRedirect(['staff', 'client'], 'client', undefined)).toBeNull();
  });

  it('sends a Client user from a staff page to their own reports, tenant-prefixed when known', () => {
    expect(audienceRedirect(['staff'], 'Client', 'acme')).toBe('/acme/client-reports');
    expect(audienceRedirect(['staff'], 'client', undefined)).toBe('/client-reports');
  });

  it('sends staff from a Client page to their dashboard', () => {
    expect(audienceRedirect(['client'], 'Admin', 'acme')).toBe('/acme/dashboard');
    expect(audienceRedirect(['client'], 'DTA', undefined)).toBe('/');
  });
});
