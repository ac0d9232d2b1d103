import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DirectoryLookup } from '../src/directory/directory-lookup.ts';
import type { DirectoryClient, DirectoryReadModel, DirectoryReportType } from '../src/directory/directory-read-model.ts';
import type { TenantRequest } from '../src/tenancy/tenant-requests.ts';

/** A read model whose records arrive a little after the call, as a directory event does. */
function lateModel(arriveAfterMs: number, client: DirectoryClient, reportType: DirectoryReportType): DirectoryReadModel {
  const arrives = Date.now() + arriveAfterMs;
  return {
    client: async (_db: unknown, id: number) => (Date.now() >= arrives && id === client.id ? client : null),
    reportType: async (_db: unknown, id: number) => (Date.now() >= arrives && id === reportType.id ? reportType : null),
  } as unknown as DirectoryReadModel;
}

const caller = (token: string): TenantRequest => ({
  token, shortName: 'acme', tenant: 'acme', db: {} as TenantRequest['db'],
  scope: { role: 'DocumentRequest', isAdmin: false, isClient: false, clients: [4], reportTypes: [9] },
}) as unknown as TenantRequest;

describe('directory lookup', () => {
  let directory: Server;
  let asked = 0;
  let url = '';
  beforeAll(async () => {
    // The directory refuses anything but a firm user's token, as the real one does.
    directory = createServer((_req, res) => { asked += 1; res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"no"}'); });
    await new Promise<void>((resolve) => directory.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => directory.close(() => resolve())));

  it('a caller without a token (a forwarded request upload) waits for the record\'s event instead of asking the directory', async () => {
    const client: DirectoryClient = { id: 4, name: 'Aurora', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: 'individual', fiscalYearEnd: '12-31', state: null, registrations: null };
    const lookup = new DirectoryLookup(lateModel(400, client, { id: 9, name: 'Audit' }), () => url);
    asked = 0;
    await expect(lookup.reportType(caller(''), 9)).resolves.toEqual({ id: 9, name: 'Audit' });
    await expect(lookup.client(caller(''), 4)).resolves.toEqual(client);
    expect(asked).toBe(0);
  });

  it('a firm user\'s call for a record the model lacks asks the directory, whose refusal is a clear 503', async () => {
    const lookup = new DirectoryLookup(lateModel(60_000, {} as DirectoryClient, { id: 9, name: 'Audit' }), () => url);
    asked = 0;
    await expect(lookup.reportType(caller('user-token'), 9)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(asked).toBe(1);
  });
});
