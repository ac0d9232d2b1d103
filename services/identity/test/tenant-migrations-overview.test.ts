import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_MIGRATION_PROGRESS_PATH } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { freePort } from '@ledgerline/kit/testing/free-port.ts';
import { tenantMigrationsOverview } from '../src/tenants/tenant-migrations-overview.ts';

/*
 * The admin console's upgrade progress gathers every service's answer (issue 45): the firms
 * closed anywhere, once each; a service that does not answer is listed unreachable, and
 * identity itself, which migrates before it listens, is not asked.
 */
describe('tenantMigrationsOverview', () => {
  let files: http.Server;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    files = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ behind: 3, pending: 2, firms: ['beta', 'acme'] }));
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => { files.close(); });

  it('merges the closed firms of every service, lists an unreachable one, and does not ask identity', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const overview = await tenantMigrationsOverview([
      { service: 'identity', url: down }, { service: 'files', url }, { service: 'tasks', url }, { service: 'billing', url: down },
    ], 'admin-token');
    expect(overview).toEqual({
      pendingFirms: ['acme', 'beta'],
      services: [
        { service: 'files', reachable: true, behind: 3, pending: 2 },
        { service: 'tasks', reachable: true, behind: 3, pending: 2 },
        { service: 'billing', reachable: false, behind: 0, pending: 0 },
      ],
    });
    expect(seen).toEqual([`${INTERNAL_MIGRATION_PROGRESS_PATH} Bearer admin-token`, `${INTERNAL_MIGRATION_PROGRESS_PATH} Bearer admin-token`]);
  });
});
