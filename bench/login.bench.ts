// `npm run bench:login`: login throughput (logins/s) and latency of POST
// /api/{tenant}/auth/login through the gateway, on the embedded default or, with
// POSTGRES_URL set, on PostgreSQL. Each login verifies an argon2id hash (the deliberate
// cost) and signs a token. Usernames rotate over a pool so the per-user throttle is not
// what is measured.
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralServicePorts, spawnPortal } from '@ledgerline/server/portal-process.ts';
import { summarize } from './lib/bench-report.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const USERS = 20;
const tenant = `bench${Date.now().toString(36)}`;

const portal = await spawnPortal({
  ...process.env,
  LOG_LEVEL: 'warn',
  PORTAL_DATA_DIR: process.env.PORTAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-login-')),
  PORT: '0',
  ...ephemeralServicePorts(),
  PORTAL_ADMIN_USERNAME: 'bench-admin',
  PORTAL_ADMIN_PASSWORD: 'bench-secret',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
  LOGIN_MAX_FAILURES_PER_IP: '100000000',
});

const post = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${portal.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
};

try {
  const admin = (await post('/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token as string;
  await post('/api/companies', { name: 'Bench Firm', shortName: tenant }, admin);
  for (let i = 0; i < USERS; i++) {
    await post(`/api/${tenant}/users`, { username: `${tenant}-user${i}`, password: 'bench-password', fullName: `User ${i}`, roleId: 3 }, admin);
  }
  let n = 0;
  const run = (duration: number) => autocannon({
    url: `${portal.url}/api/${tenant}/auth/login`,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ username: `${tenant}-user${n++ % USERS}`, password: 'bench-password' }) }) }],
  });
  await run(2); // warm-up
  const r = await run(DURATION_S);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  console.log(summarize('login', r));
  console.log(`(${process.env.POSTGRES_URL ? 'PostgreSQL' : 'embedded PGlite'}, ${CONNECTIONS} connections, ${DURATION_S} s, argon2id per login)`);
} finally {
  await portal.stop();
}
