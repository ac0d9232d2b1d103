import { describe, expect, it } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';
import { invalidateApiResources, readsApiResource } from '@ledgerline/ui/api-invalidation.ts';

describe('API resource invalidation', () => {
  it('matches both path forms and a query string, but not other resources', () => {
    const resources = ['files', 'activity-logs'];
    expect(readsApiResource(['/api/files'], resources)).toBe(true);
    expect(readsApiResource(['/api/acme/files?clientId=2'], resources)).toBe(true);
    expect(readsApiResource(['/api/acme/activity-logs'], resources)).toBe(true);
    expect(readsApiResource(['/api/acme/files/7'], resources)).toBe(true);
    expect(readsApiResource(['/api/acme/clients'], resources)).toBe(false);
    expect(readsApiResource(['/api/profile-files'], resources)).toBe(false);
    expect(readsApiResource(['files'], resources)).toBe(false);
    expect(readsApiResource([42], resources)).toBe(false);
  });

  it('marks exactly those cached queries stale', async () => {
    const client = new QueryClient();
    for (const url of ['/api/acme/files?x=1', '/api/acme/users', '/api/acme/roles']) client.setQueryData([url], []);
    await invalidateApiResources(client, ['files', 'users']);
    const stale = client.getQueryCache().getAll().filter((query) => query.isStale()).map((query) => query.queryKey[0]);
    expect(stale.sort()).toEqual(['/api/acme/files?x=1', '/api/acme/users']);
  });
});
