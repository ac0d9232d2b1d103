import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPortal, type RunningPortal } from './portal.ts';
import { ephemeralServicePorts } from './portal-process.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';

/**
 * Test support shared by every service's API and browser tests: the real portal
 * (gateway + services) on ephemeral ports and a fresh data folder, on the real servers
 * of the surrounding environment when CI exports them.
 */
/** How long a stopped test portal's broker queues outlive it. */
const TEST_QUEUE_EXPIRES_SECONDS = 120;

export const TEST_ADMIN = { username: 'platform-admin', password: 'admin-secret-1' };

export function portalTestEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const passThrough = ['POSTGRES_URL', 'AMQP_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET',
    'KEYCLOAK_URL', 'KEYCLOAK_ADMIN_USERNAME', 'KEYCLOAK_ADMIN_PASSWORD', 'PATH', 'HOME', 'CI'];
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  for (const name of passThrough) if (process.env[name]) env[name] = process.env[name];
  return {
    ...env,
    PORTAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    PORT: '0',
    ...ephemeralServicePorts(),
    GATEWAY_HOST: '127.0.0.1',
    PORTAL_ADMIN_USERNAME: TEST_ADMIN.username,
    PORTAL_ADMIN_PASSWORD: TEST_ADMIN.password,
    ...extra,
  };
}

export async function adminLogin(gatewayUrl: string, password = TEST_ADMIN.password): Promise<Response> {
  return fetch(`${gatewayUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: TEST_ADMIN.username, password }),
  });
}

/** A small JSON client over the gateway: `call('POST', '/api/acme/users', token, body)`. */
export interface ApiReply<T = Record<string, unknown>> { status: number; body: T }

export function apiClient(gatewayUrl: string) {
  return async <T = Record<string, unknown>>(method: string, path: string, token?: string | null, body?: unknown): Promise<ApiReply<T>> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${gatewayUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
  };
}

type ApiCall = ReturnType<typeof apiClient>;

/** A client body the default (US) field rules accept, for suites that need a client of some firm. */
export const testClient = (name: string) => ({
  name, address: '1 Main Street, Springfield', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'IL-445',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
});

/** What a suite's firm user is made of; every test user has the password TEST_USER_PASSWORD. */
export interface TestUser {
  username: string;
  fullName: string;
  roleId: number;
  clientIds: number[] | null;
  reportTypeIds: number[] | null;
  /** Where the user's mail goes (a suite that reads it); none by default. */
  email?: string;
}
export const TEST_USER_PASSWORD = 'password1';

/**
 * Creates a firm user as the platform administrator and signs them in at the firm's login:
 * the API suites' actors (Admin, DTA, CPA, Client of their own firm or another).
 */
export async function createSignedInUser(call: ApiCall, platformToken: string, tenant: string, user: TestUser): Promise<{ id: number; token: string }> {
  const created = await call<{ id: number }>('POST', `/api/${tenant}/users`, platformToken, { ...user, password: TEST_USER_PASSWORD });
  if (created.status !== 201) throw new Error(`creating ${user.username} answered ${created.status}: ${JSON.stringify(created.body)}`);
  const login = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, null, { username: user.username, password: TEST_USER_PASSWORD });
  if (login.status !== 200) throw new Error(`signing in ${user.username} answered ${login.status}: ${JSON.stringify(login.body)}`);
  return { id: created.body.id, token: login.body.token };
}

/**
 * The product on the real servers of the environment, in a PostgreSQL database and a
 * broker namespace of its own: a test may count firms or expect an empty platform, and
 * its events never reach another suite's services, even on shared servers.
 */
/** `options.logger`: the portal's logger (a test reading the log mailer's lines passes one). */
export async function startTestPortal(extra: Record<string, string> = {}, options: { logger?: Logger | undefined } = {}): Promise<RunningPortal & { gatewayUrl: string; adminToken: string }> {
  const serverUrl = process.env.POSTGRES_URL;
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : null;
  // Its own broker namespace too: services of parallel test portals share queue names. Its
  // queues go two minutes after it stops: a run starts hundreds of portals, and a broker
  // holding their thousands of quorum queues stopped answering new connections.
  const env = portalTestEnv({
    ...(scratch ? { POSTGRES_URL: scratch.url } : {}), BUS_NAMESPACE: `test-${randomBytes(4).toString('hex')}`, BUS_QUEUE_EXPIRES_SECONDS: String(TEST_QUEUE_EXPIRES_SECONDS), ...extra,
  });
  const portal = await startPortal({ env, ...(options.logger ? { logger: options.logger } : {}) });
  const stop = async () => {
    await portal.stop();
    await scratch?.drop();
  };
  const r = await adminLogin(portal.gatewayUrl!);
  if (!r.ok) {
    await stop();
    throw new Error(`admin login failed: ${r.status}`);
  }
  return { ...portal, stop, gatewayUrl: portal.gatewayUrl!, adminToken: ((await r.json()) as { token: string }).token };
}
