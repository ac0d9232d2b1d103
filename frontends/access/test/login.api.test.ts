import { describe, expect, it } from '@jest/globals';
import { fetchTenantInfo, requestLogin } from '../src/login.api.ts';
import { installFetch } from '../../ui/test/browser-globals.ts';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const credentials = { username: 'carl', password: 'carl-secret-1' };

describe('login calls', () => {
  it('posts the credentials without a bearer token and returns the login', async () => {
    const login = { token: 'a.b.c', user: { id: 7, username: 'carl' }, tenant: null };
    const requests = installFetch(() => json(login));
    await expect(requestLogin('/api/acme/auth/login', credentials)).resolves.toEqual({ ok: true, response: login });
    expect(requests[0]!.url).toBe('/api/acme/auth/login');
    expect(new Headers(requests[0]!.init.headers).has('Authorization')).toBe(false);
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual(credentials);
  });

  it("tells a refusal (with the server's message, if any) from a network fault", async () => {
    installFetch(() => json({ message: 'Invalid username or password' }, 401));
    await expect(requestLogin('/api/auth/login', credentials)).resolves.toEqual({ ok: false, reason: 'rejected', message: 'Invalid username or password' });
    installFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(requestLogin('/api/auth/login', credentials)).resolves.toEqual({ ok: false, reason: 'rejected', message: undefined });
    installFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(requestLogin('/api/auth/login', credentials)).resolves.toEqual({ ok: false, reason: 'network' });
  });

  it('reads tenant info, treating unknown and inactive firms alike', async () => {
    const acme = { id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true, urlPattern: 'path' };
    installFetch((url) => (url === '/api/acme/info' ? json(acme) : url === '/api/dormant/info' ? json({ ...acme, isActive: false }) : json({ message: 'Tenant not found' }, 404)));
    await expect(fetchTenantInfo('acme')).resolves.toEqual(acme);
    await expect(fetchTenantInfo('dormant')).resolves.toBeNull();
    await expect(fetchTenantInfo('nobody')).resolves.toBeNull();
    installFetch(() => json({ message: 'down' }, 503));
    await expect(fetchTenantInfo('acme')).rejects.toThrow('503');
  });
});
