// The suite's setup and teardown against a real portal (embedded default): teardown removes
// what the run made and nothing else, a kept firm keeps only what setup seeded, and a firm
// that is not a load-test firm is refused.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralServicePorts, spawnPortal, type PortalProcess } from '@ledgerline/server/portal-process.ts';
import { ensureK6, runK6 } from '../k6.ts';

const admin = { username: 'fixture-admin', password: 'fixture-admin-password' };
let portal: PortalProcess;
let dataDir: string;
let platformToken: string;

async function api<T>(path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<T> {
  const r = await fetch(`${portal.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<T>;
}

const firms = async () => (await api<{ shortName: string; name: string }[]>('/api/companies', { token: platformToken })).map((c) => c.shortName).sort();

/** A short smoke run of the scenarios that make files and tasks; k6's exit code. */
function smoke(env: Record<string, string>): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), 'loadtest-fixture-'));
  return runK6({ profile: 'smoke', baseUrl: portal.url, admin, outDir, env: { LOADTEST_SMOKE_S: '4', LOADTEST_SCENARIOS: 'upload-small,tasks', ...env } })
    .finally(() => rmSync(outDir, { recursive: true, force: true }));
}

beforeAll(async () => {
  ensureK6();
  dataDir = mkdtempSync(join(tmpdir(), 'loadtest-fixture-data-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['POSTGRES_URL', 'AMQP_URL', 'S3_ENDPOINT', 'KEYCLOAK_URL', 'NODE_ENV'].includes(name)));
  portal = await spawnPortal({
    ...env, ...ephemeralServicePorts(), LOG_LEVEL: 'warn', PORT: '0', PORTAL_DATA_DIR: dataDir,
    PORTAL_ADMIN_USERNAME: admin.username, PORTAL_ADMIN_PASSWORD: admin.password, GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  platformToken = (await api<{ token: string }>('/api/admin/auth/login', { method: 'POST', json: admin })).token;
  await api('/api/companies', { method: 'POST', token: platformToken, json: { name: 'Smith & Partners', shortName: 'smith' } });
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('load-test setup and teardown', () => {
  it('removes the firm it created and leaves the other firm alone', async () => {
    expect(await smoke({})).toBe(0);
    expect(await firms()).toEqual(['smith']);
  }, 300_000);

  it('keeps a kept firm with only what setup seeded: the run\'s uploads and tasks are gone', async () => {
    expect(await smoke({ LOADTEST_TENANT: 'ltkept', LOADTEST_KEEP_FIRM: '1' })).toBe(0);
    expect(await firms()).toEqual(['ltkept', 'smith']);
    const token = (await api<{ token: string }>('/api/ltkept/auth/login', { method: 'POST', json: { username: 'ltkept-admin-1', password: 'lt-ltkept-password' } })).token;
    const files = await api<{ originalName: string }[]>('/api/ltkept/files?limit=1000', { token });
    expect(files.map((f) => f.originalName).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `lt-seed-${i + 1}.txt`).sort());
    expect(await api<unknown[]>('/api/ltkept/tasks?limit=1000', { token })).toEqual([]);
  }, 300_000);

  it('refuses to use a firm that is not a load-test firm', async () => {
    expect(await smoke({ LOADTEST_TENANT: 'smith' })).not.toBe(0);
    expect(await firms()).toEqual(['ltkept', 'smith']);
    const smith = (await api<{ shortName: string; name: string }[]>('/api/companies', { token: platformToken })).find((c) => c.shortName === 'smith');
    expect(smith?.name).toBe('Smith & Partners');
  }, 300_000);
});
