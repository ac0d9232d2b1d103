import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { adminLogin, apiClient, createSignedInUser, portalTestEnv, testClient } from '../src/portal-harness.ts';
import { startPortal } from '../src/portal.ts';

/*
 * A service that never received a user's events (deployed after the user was made, or
 * the event is still on its way) asks identity with the caller's own token, serves the
 * stored role and lists identity answers, and remembers them; a later deletion still
 * reaches it as an event. Three runs of the product on one database: the users are made
 * while the files service is down, and the files service then listens on a bus namespace
 * that never carried their events.
 */
describe('a service that never received a user\'s events', () => {
  it('serves the user with identity\'s stored access, then follows a deletion', async () => {
    const scratch = process.env.POSTGRES_URL ? await createScratchDatabase(process.env.POSTGRES_URL) : null;
    const env = portalTestEnv(scratch ? { POSTGRES_URL: scratch.url } : {});
    const run = async (target: string) => {
      const portal = await startPortal({ env: { ...env, BUS_NAMESPACE: `late-${randomBytes(4).toString('hex')}` }, target });
      const login = await adminLogin(portal.gatewayUrl!);
      return { portal, call: apiClient(portal.gatewayUrl!), platform: ((await login.json()) as { token: string }).token };
    };
    const firm = `late${randomBytes(3).toString('hex')}`;
    try {
      let { portal, call, platform } = await run('all');
      expect((await call('POST', '/api/companies', platform, { name: 'Late Service LLP', shortName: firm })).status).toBe(201);
      const client = await call<Client>('POST', `/api/${firm}/clients`, platform, testClient('Late Client'));
      expect(client.status).toBe(201);
      await portal.stop();

      ({ portal, call, platform } = await run('gateway,identity,directory,activity'));
      const user = await createSignedInUser(call, platform, firm, { username: `late_client_${firm}`, fullName: 'Late Client User', roleId: 4, clientIds: [client.body.id], reportTypeIds: null });
      await portal.stop();

      ({ portal, call, platform } = await run('all'));
      const form = new FormData();
      form.append('fileType', 'report');
      form.append('clientId', String(client.body.id));
      form.append('file', new Blob(['Total 4242']), 'statement.txt');
      const upload = await fetch(`${portal.gatewayUrl}/api/${firm}/files`, { method: 'POST', headers: { authorization: `Bearer ${platform}` }, body: form });
      expect(upload.status).toBe(201);
      // Without the stored lists the Client user would reach no client and see nothing.
      const seen = await call<{ originalName: string }[]>('GET', `/api/${firm}/files`, user.token);
      expect(seen).toMatchObject({ status: 200, body: [{ originalName: 'statement.txt' }] });

      expect((await call('DELETE', `/api/${firm}/users/${user.id}`, platform)).status).toBe(200);
      await eventually(async () => expect((await call('GET', `/api/${firm}/files`, user.token)).status).toBe(401), 5_000);
      await portal.stop();
    } finally {
      await scratch?.drop();
    }
  }, 180_000);
});
