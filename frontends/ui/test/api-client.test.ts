import { beforeEach, describe, expect, it } from '@jest/globals';
import { ApiError, apiJson, apiPath, apiRequest, createQueryClient, getQueryFn } from '@ledgerline/ui/api-client.ts';
import { installFetch, installLocalStorage } from './browser-globals.ts';

const acme = { id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('api client', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = installLocalStorage();
  });

  describe('apiPath', () => {
    it('uses /api/… when no tenant is stored', () => {
      expect(apiPath('clients')).toBe('/api/clients');
      expect(apiPath('/clients/7')).toBe('/api/clients/7');
    });

    it('prefixes the stored current tenant', () => {
      storage.setItem('currentTenant', JSON.stringify(acme));
      expect(apiPath('clients')).toBe('/api/acme/clients');
    });

    it('lets an explicit tenant win, and null force the unprefixed form', () => {
      storage.setItem('currentTenant', JSON.stringify(acme));
      expect(apiPath('users', { tenant: 'beta' })).toBe('/api/beta/users');
      expect(apiPath('companies', { tenant: null })).toBe('/api/companies');
    });
  });

  describe('apiRequest', () => {
    it('sends the bearer token from authToken, falling back to token, with credentials', async () => {
      const requests = installFetch(() => json({}));
      storage.setItem('token', 'plain.token.value');
      await apiRequest('GET', '/api/clients');
      storage.setItem('authToken', 'auth.token.value');
      await apiRequest('GET', '/api/clients');

      expect(requests.map((r) => new Headers(r.init.headers).get('Authorization'))).toEqual([
        'Bearer plain.token.value',
        'Bearer auth.token.value',
      ]);
      expect(requests.every((r) => r.init.credentials === 'include')).toBe(true);
    });

    it('sends no Authorization header without a stored token', async () => {
      const requests = installFetch(() => json({}));
      await apiRequest('GET', '/api/tenant/info');
      expect(new Headers(requests[0]!.init.headers).has('Authorization')).toBe(false);
    });

    it('sends bodies as JSON', async () => {
      const requests = installFetch(() => json({ id: 1 }, 201));
      const created = await apiJson<{ id: number }>('POST', '/api/roles', { name: 'Auditor' });
      expect(created).toEqual({ id: 1 });
      expect(requests[0]!.init.method).toBe('POST');
      expect(requests[0]!.init.body).toBe('{"name":"Auditor"}');
      expect(new Headers(requests[0]!.init.headers).get('Content-Type')).toBe('application/json');
    });

    it('passes FormData through for the browser to encode', async () => {
      const requests = installFetch(() => json({}));
      const form = new FormData();
      form.append('file', new Blob(['x']), 'a.txt');
      await apiRequest('POST', '/api/files', form);
      expect(requests[0]!.init.body).toBe(form);
      expect(new Headers(requests[0]!.init.headers).has('Content-Type')).toBe(false);
    });

    it('throws "{status}: {body}" for a non-OK response', async () => {
      installFetch(() => new Response('{"message":"Role name is required"}', { status: 400, statusText: 'Bad Request' }));
      const error = await apiRequest('POST', '/api/roles', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe('400: {"message":"Role name is required"}');
      expect((error as ApiError).status).toBe(400);
    });

    it('uses the status text when the error body is empty', async () => {
      installFetch(() => new Response(null, { status: 503, statusText: 'Service Unavailable' }));
      await expect(apiRequest('GET', '/api/clients')).rejects.toThrow('503: Service Unavailable');
    });

    it('gives null for an empty successful body', async () => {
      installFetch(() => new Response(null, { status: 204 }));
      await expect(apiJson('DELETE', '/api/roles/3')).resolves.toBeNull();
    });
  });

  describe('getQueryFn', () => {
    const context = (queryKey: readonly unknown[]) =>
      ({ queryKey, signal: new AbortController().signal, meta: undefined, client: createQueryClient() }) as unknown as Parameters<ReturnType<typeof getQueryFn>>[0];

    it('GETs the first element of the query key with the bearer token', async () => {
      storage.setItem('token', 'a.b.c');
      const requests = installFetch(() => json([{ id: 1 }]));
      const data = await getQueryFn({ on401: 'throw' })(context(['/api/companies', { page: 2 }]));
      expect(data).toEqual([{ id: 1 }]);
      expect(requests).toHaveLength(1);
      expect(requests[0]!.url).toBe('/api/companies');
      expect(requests[0]!.init.method ?? 'GET').toBe('GET');
      expect(new Headers(requests[0]!.init.headers).get('Authorization')).toBe('Bearer a.b.c');
      expect(requests[0]!.init.credentials).toBe('include');
    });

    it('returns null on 401 with returnNull, and throws with throw', async () => {
      installFetch(() => new Response('Unauthorized', { status: 401, statusText: 'Unauthorized' }));
      await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/me']))).resolves.toBeNull();
      await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/me']))).rejects.toThrow('401: Unauthorized');
    });
  });

  describe('createQueryClient', () => {
    it('never retries, refetches on focus or interval, and keeps data fresh', () => {
      const queries = createQueryClient().getDefaultOptions().queries!;
      expect(queries.retry).toBe(false);
      expect(queries.refetchOnWindowFocus).toBe(false);
      expect(queries.refetchInterval).toBe(false);
      expect(queries.staleTime).toBe(Infinity);
      expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
    });

    it('fetches a query once through the generic query fn even when it fails', async () => {
      const requests = installFetch(() => new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
      await expect(createQueryClient().fetchQuery({ queryKey: ['/api/report-types'] })).rejects.toThrow('500: boom');
      expect(requests.map((r) => r.url)).toEqual(['/api/report-types']);
    });

    it('serves a cached query without fetching again', async () => {
      const requests = installFetch(() => json([{ id: 7 }]));
      const client = createQueryClient();
      await client.fetchQuery({ queryKey: ['/api/roles'] });
      await expect(client.fetchQuery({ queryKey: ['/api/roles'] })).resolves.toEqual([{ id: 7 }]);
      expect(requests).toHaveLength(1);
    });
  });
});
