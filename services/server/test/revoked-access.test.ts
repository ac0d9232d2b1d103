import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_ADMIN, TEST_USER_PASSWORD, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';
import { SERVICE_MODULES } from '../src/targets.ts';

/*
 * Every service decides from the stored user, not from the token's claims (docs/api/authorization.md):
 * after a user is deleted, demoted, re-created under the same username,
 * or their firm is deactivated, their old token loses what it granted in every service
 * within about a second (the read models' per-process cache), long before it expires.
 */

/** Bound for the change to reach every service: events on RabbitMQ in CI, a one-second cache, a one-second firm poll. */
const PROPAGATION_MS = 5_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
let platform: string;
const suffix = randomBytes(3).toString('hex');
const FIRM = `rev${suffix}`;
const u = (name: string) => `${name}_${suffix}`;
const ROLE = { admin: 1, client: 4 };
let firmId: number;
let clientId: number;

/** One signed-in read per service that serves firm data, with the status a live Admin gets. */
const READS: { service: string; path: string }[] = [
  { service: 'identity', path: '/users' },
  { service: 'identity', path: '/auth/me' },
  { service: 'directory', path: '/clients' },
  { service: 'files', path: '/files' },
  { service: 'activity', path: '/activity-logs' },
  { service: 'activity', path: '/dashboard' },
  { service: 'chat', path: '/prompt-templates' },
  // Reads nothing of the firm, and still checks the caller as every route does (issue 38, I1).
  { service: 'chat', path: '/chat/assistant' },
  { service: 'tasks', path: '/tasks' },
  { service: 'tasks', path: '/notifications' },
  { service: 'compliance', path: '/compliance-tracker' },
  { service: 'insights', path: '/compliance-insights' },
  { service: 'messaging', path: '/conversations' },
  { service: 'messaging', path: '/messages/unread/count' },
  { service: 'requests', path: '/document-requests' },
  { service: 'signatures', path: '/signature-requests' },
  { service: 'billing', path: '/invoices' },
];

const statuses = async (token: string) =>
  Promise.all(READS.map(async (r) => `${r.service} ${r.path} ${(await call('GET', `/api/${FIRM}${r.path}`, token)).status}`));
const expectAll = async (token: string, status: number) =>
  expect(await statuses(token)).toEqual(READS.map((r) => `${r.service} ${r.path} ${status}`));

const newAdmin = (who: string) =>
  createSignedInUser(call, platform, FIRM, { username: u(who), fullName: `${who} ${suffix}`, roleId: ROLE.admin, clientIds: null, reportTypeIds: null });

beforeAll(async () => {
  // Each check reads from every service at once, again and again until it holds: far more
  // than a person's rate, which the gateway's limit (tested on its own) would refuse.
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
  call = apiClient(portal.gatewayUrl);
  platform = portal.adminToken;
  const firm = await call<{ id: number }>('POST', '/api/companies', platform, { name: `Revocation ${suffix}`, shortName: FIRM });
  expect(firm.status).toBe(201);
  firmId = firm.body.id;
  const client = await call<Client>('POST', `/api/${FIRM}/clients`, platform, testClient('Kept Client'));
  expect(client.status).toBe(201);
  clientId = client.body.id;
}, 120_000);
afterAll(async () => { await portal.stop(); });

describe('old tokens after the stored user changed', () => {
  it('probes every service that serves firm data', () => {
    const served = SERVICE_MODULES.filter((m) => m.apiResources.some((r) => !['auth', 'info', 'companies'].includes(r) && !r.startsWith('admin/') && !r.startsWith('public/')));
    expect(new Set(READS.map((r) => r.service))).toEqual(new Set(served.map((m) => m.name)));
  });

  it('refuses a deleted Admin\'s token everywhere (401), and it can no longer create users, clients or links', async () => {
    const doomed = await newAdmin('doomed');
    await expectAll(doomed.token, 200);
    expect((await call('DELETE', `/api/${FIRM}/users/${doomed.id}`, platform)).status).toBe(200);

    // Identity reads its own table: at once.
    expect((await call('POST', `/api/${FIRM}/users`, doomed.token, { username: u('minted'), password: TEST_USER_PASSWORD, fullName: 'Minted', roleId: ROLE.admin })).status).toBe(401);
    await eventually(() => expectAll(doomed.token, 401), PROPAGATION_MS);
    expect((await call('POST', `/api/${FIRM}/clients`, doomed.token, testClient('Sneaky'))).status).toBe(401);
    expect((await call('GET', `/api/${FIRM}/clients/${clientId}/portal-link`, doomed.token)).status).toBe(401);
    expect((await call('POST', `/api/${FIRM}/auth/login`, null, { username: u('minted'), password: TEST_USER_PASSWORD })).status).toBe(401);
  });

  it('takes a demoted Admin\'s rights in every service, and it cannot promote itself back', async () => {
    const demoted = await newAdmin('demoted');
    const update = { username: u('demoted'), fullName: `demoted ${suffix}`, password: '', clientIds: [clientId], reportTypeIds: null };
    expect((await call('PUT', `/api/${FIRM}/users/${demoted.id}`, platform, { ...update, roleId: ROLE.client })).status).toBe(200);

    // Identity: no user or role administration with the old Admin token, at once.
    expect((await call('PUT', `/api/${FIRM}/users/${demoted.id}`, demoted.token, { ...update, roleId: ROLE.admin })).status).toBe(403);
    expect((await call('POST', `/api/${FIRM}/roles`, demoted.token, { name: 'Escalated' })).status).toBe(403);
    // The user list shrinks to the people picker of a Client user: no other Client user in it.
    const picker = await call<{ id: number; role: string }[]>('GET', `/api/${FIRM}/users`, demoted.token);
    expect(picker.status).toBe(200);
    expect(picker.body.filter((u) => u.role === 'Client' && u.id !== demoted.id)).toEqual([]);
    expect((await call<{ role: string }>('GET', `/api/${FIRM}/auth/me`, demoted.token)).body.role).toBe('Client');
    // The other services: a Client user's reach, once the change has arrived.
    await eventually(async () => {
      expect((await call('POST', `/api/${FIRM}/clients`, demoted.token, testClient('Sneaky'))).status).toBe(403);
      expect((await call('GET', `/api/${FIRM}/activity-logs`, demoted.token)).status).toBe(200);
      expect((await call<Client[]>('GET', `/api/${FIRM}/clients`, demoted.token)).body.map((c) => c.id)).toEqual([clientId]);
    }, PROPAGATION_MS);
    const stored = await call<{ roleId: number }>('GET', `/api/${FIRM}/users/${demoted.id}`, platform);
    expect(stored.body.roleId).toBe(ROLE.client);
  });

  it('refuses the old token of a user deleted and re-created under the same username; the new user\'s token works', async () => {
    const first = await newAdmin('reborn');
    expect((await call('DELETE', `/api/${FIRM}/users/${first.id}`, platform)).status).toBe(200);
    const second = await createSignedInUser(call, platform, FIRM, { username: u('reborn'), fullName: 'Reborn', roleId: ROLE.client, clientIds: [clientId], reportTypeIds: null });
    expect(second.id).not.toBe(first.id);
    await eventually(() => expectAll(first.token, 401), PROPAGATION_MS);
    expect((await call('GET', `/api/${FIRM}/files`, second.token)).status).toBe(200);
  });

  it('refuses the token of an ended session in every service, the routes that read nothing of the firm included', async () => {
    const signedOut = await newAdmin('signedout');
    await expectAll(signedOut.token, 200);
    // The session is listed as this one, whether the built-in issuer or the firm's Keycloak realm keeps it.
    const listed = await call<{ current: boolean }[]>('GET', `/api/${FIRM}/auth/sessions`, signedOut.token);
    expect(listed.body.filter((x) => x.current)).toHaveLength(1);
    expect((await call<{ revoked: number }>('POST', `/api/${FIRM}/auth/sessions/revoke-all`, signedOut.token)).body.revoked).toBeGreaterThanOrEqual(1);
    await eventually(() => expectAll(signedOut.token, 401), PROPAGATION_MS);
    expect(await call('GET', `/api/${FIRM}/chat/assistant`, signedOut.token)).toMatchObject({ status: 401, body: { message: 'Your session has ended. Please sign in again.' } });
  });

  it('refuses a platform administrator\'s ended session in the platform-level calls of the firm services too', async () => {
    const signIn = await call<{ token: string }>('POST', '/api/admin/auth/login', null, TEST_ADMIN);
    expect(signIn.status).toBe(200);
    const ended = signIn.body.token;
    const platformReads = ['/api/admin/analytics', '/api/admin/chat-sessions'];
    const statusesOf = async (token: string) => Promise.all(platformReads.map(async (path) => (await call('GET', path, token)).status));
    expect(await statusesOf(ended)).toEqual([200, 200]);
    // Ends only that sign-in's session (the suite's own platform token lives on).
    const sessions = await call<{ id: string; current: boolean }[]>('GET', '/api/admin/auth/sessions', ended);
    const current = sessions.body.find((x) => x.current)!;
    expect((await call('DELETE', `/api/admin/auth/sessions/${current.id}`, platform)).status).toBe(200);
    await eventually(async () => expect(await statusesOf(ended)).toEqual([401, 401]), PROPAGATION_MS);
    expect(await statusesOf(platform)).toEqual([200, 200]);
  });

  it('refuses every token of a deactivated firm in every service, and serves them again once reactivated', async () => {
    const staff = await newAdmin('staff');
    const company = { name: `Revocation ${suffix}`, shortName: FIRM, urlPattern: 'path' };
    expect((await call('PUT', `/api/companies/${firmId}`, platform, { ...company, isActive: false })).status).toBe(200);
    await eventually(() => expectAll(staff.token, 404), PROPAGATION_MS);
    expect((await call('PUT', `/api/companies/${firmId}`, platform, { ...company, isActive: true })).status).toBe(200);
    await eventually(() => expectAll(staff.token, 200), PROPAGATION_MS);
  });
});
