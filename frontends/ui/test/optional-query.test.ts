import { beforeEach, describe, expect, it } from '@jest/globals';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { getOptional } from '@ledgerline/ui/optional-query.ts';
import { installFetch, installLocalStorage } from './browser-globals.ts';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('getOptional', () => {
  beforeEach(() => {
    installLocalStorage();
  });

  it('answers the data, null for a 404, and throws every other failure', async () => {
    installFetch((url) => (url.endsWith('/clients') ? json([{ id: 1, name: 'Acme Client' }]) : url.endsWith('/report-types') ? json({ message: 'Not found' }, 404) : json({ message: 'boom' }, 500)));
    await expect(getOptional('/api/clients')).resolves.toEqual([{ id: 1, name: 'Acme Client' }]);
    await expect(getOptional('/api/report-types')).resolves.toBeNull();
    await expect(getOptional('/api/admin/analytics')).rejects.toBeInstanceOf(ApiError);
  });
});
