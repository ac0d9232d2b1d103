import { describe, expect, it } from '@jest/globals';
import { RouteTable } from '../src/route-table.ts';

const table = new RouteTable();
table.addService({ service: 'identity', url: 'http://identity' }, ['auth', 'admin/auth', 'users', 'info'], ['/.well-known/']);
table.addService({ service: 'files', url: 'http://files' }, ['files', 'public/files']);
table.addService({ service: 'directory', url: 'http://directory' }, ['auth/google', 'clients']);

describe('RouteTable', () => {
  it('routes unprefixed calls by their first segment', () => {
    expect(table.resolveApi('/api/users/7?x=1')).toEqual({ pathTenant: null, servicePath: '/api/users/7?x=1', target: { service: 'identity', url: 'http://identity' } });
  });

  it('treats an unknown first segment as the tenant and strips it', () => {
    const r = table.resolveApi('/api/acme/files?search=tax');
    expect(r.pathTenant).toBe('acme');
    expect(r.servicePath).toBe('/api/files?search=tax');
    expect(r.target?.service).toBe('files');
  });

  it('prefers the longest resource match', () => {
    expect(table.resolveApi('/api/auth/google/callback/3?tenant=acme').target?.service).toBe('directory');
    expect(table.resolveApi('/api/auth/login').target?.service).toBe('identity');
    expect(table.resolveApi('/api/acme/auth/login').target?.service).toBe('identity');
    expect(table.resolveApi('/api/public/files/9').target?.service).toBe('files');
  });

  it('returns no target for unknown resources', () => {
    expect(table.resolveApi('/api/acme/nothing-here').target).toBeNull();
    expect(table.resolveApi('/api').target).toBeNull();
  });

  it('reserves every first segment so no tenant can shadow a resource', () => {
    expect([...table.reservedNames()].sort()).toEqual(['admin', 'auth', 'clients', 'files', 'info', 'public', 'users']);
  });

  it('refuses two services claiming one resource', () => {
    expect(() => table.addService({ service: 'other', url: 'http://other' }, ['users'])).toThrow(/claimed by both identity and other/);
  });

  it('routes other paths by prefix', () => {
    expect(table.resolveOther('/.well-known/jwks.json')?.service).toBe('identity');
    expect(table.resolveOther('/socket.io/')).toBeNull();
  });
});
