import { beforeEach, describe, expect, it } from '@jest/globals';
import { clientCountLabel, rolesApiPath, usersApiPath } from '../src/access.api.ts';
import { installLocalStorage } from '../../ui/test/browser-globals.ts';

describe('access API paths', () => {
  beforeEach(() => {
    installLocalStorage().setItem('currentTenant', JSON.stringify({ id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true }));
  });

  it('uses the tenant form for users calls only when the path has two or more segments', () => {
    expect(usersApiPath('/acme/users')).toBe('/api/acme/users');
    expect(usersApiPath('/acme/users', '/7/client-access')).toBe('/api/acme/users/7/client-access');
    expect(usersApiPath('/users')).toBe('/api/users');
  });

  it("on /users a platform administrator (whose token names no firm) acts in the selected firm", () => {
    localStorage.setItem('token', 'platform-token');
    localStorage.setItem('user', JSON.stringify({ id: 1, role: 'admin', username: 'root', fullName: 'Root', platformAdmin: true }));
    expect(usersApiPath('/users')).toBe('/api/acme/users');
    expect(usersApiPath('/beta/users')).toBe('/api/beta/users');
  });

  it('scopes roles to the stored current tenant', () => {
    expect(rolesApiPath()).toBe('/api/acme/roles');
    expect(rolesApiPath('/4')).toBe('/api/acme/roles/4');
    installLocalStorage();
    expect(rolesApiPath()).toBe('/api/roles');
  });

  it("labels the Client column 'N client(s)' or 'No clients'", () => {
    expect(clientCountLabel(null)).toBe('No clients');
    expect(clientCountLabel([])).toBe('No clients');
    expect(clientCountLabel([4])).toBe('1 client(s)');
    expect(clientCountLabel([4, 9])).toBe('2 client(s)');
  });
});
