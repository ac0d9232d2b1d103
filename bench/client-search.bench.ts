// `npm run bench:clients`: the Client Management search box at scale. Seeds 10,000
// clients in one firm on PostgreSQL (POSTGRES_URL required), one multi-row INSERT per
// 1,000 through the directory's own store, then drives GET /api/{tenant}/clients?search=…
// through the gateway as the firm's Admin with varied terms (names, emails, phone and
// ID fragments, streets) and prints p50/p95 (target: p95 < 50 ms). As deployed, the
// services and the gateway run as separate processes (BENCH_MODE=split, default);
// BENCH_MODE=all runs every target in one process (the embedded default).
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { spawnPortal, spawnService } from '@ledgerline/server/portal-process.ts';
import { percentile95, summarize } from './lib/bench-report.ts';
import type { ClientRecord } from '@ledgerline/directory-service/clients/client.store.ts';
import { ClientStore } from '@ledgerline/directory-service/clients/client.store.ts';

const postgresUrl = process.env.POSTGRES_URL;
if (!postgresUrl) {
  console.error('bench:clients needs POSTGRES_URL (the target is set for PostgreSQL).');
  process.exit(2);
}
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CLIENTS = 10_000;
const BATCH = 1_000;
const tenant = `benchclients${Date.now().toString(36)}`;
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';
const IDENTITY_PORT = Number(process.env.BENCH_IDENTITY_PORT ?? 18_111);
const DIRECTORY_PORT = Number(process.env.BENCH_DIRECTORY_PORT ?? 18_112);

const FIRST = ['Aurora', 'Birch', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Keystone', 'Lumen', 'Meridian', 'Nimbus', 'Orchid', 'Pioneer', 'Quartz', 'Summit', 'Tidewater', 'Vertex'];
const SECOND = ['Accounting', 'Bakery', 'Builders', 'Consulting', 'Dental', 'Farms', 'Logistics', 'Media', 'Motors', 'Partners', 'Pharmacy', 'Realty', 'Studios', 'Textiles', 'Ventures'];
const STREETS = ['Oak', 'Maple', 'Cedar', 'Lake', 'Hill', 'Park', 'River', 'Sunset', 'Mill', 'Church'];
const pad = (n: number, width: number) => String(n).padStart(width, '0');

function client(i: number): ClientRecord {
  const name = `${FIRST[i % FIRST.length]} ${SECOND[Math.floor(i / FIRST.length) % SECOND.length]} ${i}`;
  return {
    name,
    address: `${100 + (i % 900)} ${STREETS[i % STREETS.length]} Street, Suite ${i}`,
    phone: `(${pad(200 + (i % 800), 3)})-${pad(i % 1000, 3)}-${pad(i, 4).slice(-4)}`,
    federalId: `${pad(i % 100, 2)}-${pad(i * 7919 % 10_000_000, 7)}`,
    stateId: `ST-${pad(i * 31 % 1_000_000, 6)}`,
    email: `office${i}@${FIRST[i % FIRST.length]!.toLowerCase()}-${i % 97}.example`,
    employeeCount: i % 500,
    startDate: `20${pad(10 + (i % 15), 2)}-${pad(1 + (i % 12), 2)}-${pad(1 + (i % 28), 2)}`,
    uploadDestination: i % 5 === 0 ? 'google_drive' : 'server',
    jurisdiction: 'US',
    entityType: null,
  };
}

/** What people type: a name, part of an email, phone digits, an ID, a street with its number. */
function searchTerms(count: number): string[] {
  return Array.from({ length: count }, (_, n) => {
    const c = client((n * 7_919) % CLIENTS);
    const pick = [c.name, c.email.slice(0, 9), c.phone.slice(-8), c.federalId, c.stateId.toLowerCase(), c.address.split(',')[0]!, c.name.split(' ').slice(0, 2).join(' ')];
    return pick[n % pick.length]!;
  });
}

const env = {
  ...process.env,
  LOG_LEVEL: 'warn',
  PORTAL_DATA_DIR: process.env.PORTAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-clients-')),
  PORT: '0',
  IDENTITY_PORT: String(IDENTITY_PORT),
  DIRECTORY_PORT: String(DIRECTORY_PORT),
  IDENTITY_SERVICE_URL: `http://127.0.0.1:${IDENTITY_PORT}`,
  DIRECTORY_SERVICE_URL: `http://127.0.0.1:${DIRECTORY_PORT}`,
  PORTAL_ADMIN_USERNAME: 'bench-admin',
  PORTAL_ADMIN_PASSWORD: 'bench-secret',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
};
const services = MODE === 'split' ? await spawnService(env, 'identity,directory', [IDENTITY_PORT, DIRECTORY_PORT]) : null;
const portal = await spawnPortal(env, MODE === 'split' ? ['--target=gateway'] : []);
const db = await openPostgresDatabase({ url: postgresUrl });

const post = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${portal.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
};

try {
  const platform = (await post('/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token as string;
  const firm = await post('/api/companies', { name: 'Bench Clients', shortName: tenant }, platform);
  const store = new ClientStore();
  const schema = db.forSchema(firm.schemaName as string);
  const seedStarted = performance.now();
  for (let from = 0; from < CLIENTS; from += BATCH) {
    await schema.transaction((tx) => store.createMany(tx, Array.from({ length: BATCH }, (_, k) => client(from + k))));
  }
  await schema.query('ANALYZE clients');
  console.log(`seeded ${CLIENTS} clients in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // The firm's own Admin, so every request also reads the caller's access from the read model.
  await post(`/api/${tenant}/users`, { username: `${tenant}-admin`, password: 'bench-password', fullName: 'Bench Admin', roleId: 1 }, platform);
  const token = (await post(`/api/${tenant}/auth/login`, { username: `${tenant}-admin`, password: 'bench-password' })).token as string;

  const terms = searchTerms(500);
  let n = 0;
  const run = (duration: number) => autocannon({
    url: `${portal.url}/api/${tenant}/clients`,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ setupRequest: (req) => ({ ...req, path: `/api/${tenant}/clients?search=${encodeURIComponent(terms[n++ % terms.length]!)}` }) }],
  });
  await run(2); // warm-up
  const r = await run(DURATION_S);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  console.log(summarize('search', r));
  const p95 = percentile95(r);
  console.log(`(PostgreSQL, ${CLIENTS} clients, ${terms.length} search terms, ${CONNECTIONS} connections, ${DURATION_S} s) p95 target < 50 ms: ${p95 < 50 ? 'met' : 'MISSED'}`);
  // Latency at a fixed connection count is mostly CPU queueing: say how busy the machine was.
  console.log(`(${MODE === 'split' ? 'gateway and services in separate processes' : 'every target in one process'}; ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)} at the end)`);
} finally {
  await db.close();
  await portal.stop();
  await services?.stop();
}
