// `npm run bench:dashboard`: the dashboards at scale. Seeds one firm
// on PostgreSQL (POSTGRES_URL required; a scratch database, dropped at the end) with
// 100,000 files and 2,000,000 activity entries (BENCH_LOGS) spread over a year, builds the
// rollups exactly as the service's writes would, then drives through the gateway, at 20
// connections: GET dashboard as the firm's Admin, a CPA with 20 clients and a Client user;
// GET activity-logs (newest 100) as Admin and CPA; a user's and a client's detail dialog;
// and GET admin/analytics. Prints p50/p95 per call (list target: p95 < 50 ms).
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { percentile95, summarize } from './lib/bench-report.ts';
import { servicePortEnv, serviceUrlEnv } from '@ledgerline/server/platform.config.ts';
import { spawnPortal, spawnService } from '@ledgerline/server/portal-process.ts';
import { SERVICE_MODULES } from '@ledgerline/server/targets.ts';

const serverUrl = process.env.POSTGRES_URL;
if (!serverUrl) {
  console.error('the dashboard benchmark needs POSTGRES_URL (the target is set for PostgreSQL).');
  process.exit(2);
}
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const FILES = 100_000;
const LOGS = Number(process.env.BENCH_LOGS ?? 2_000_000);
const CLIENTS = 2_000;
const STAFF = 60;
const tenant = `benchactivity${Date.now().toString(36)}`;
// Every service runs (identity asks each to migrate a new firm), on fixed ports the separate gateway is told.
const servicePorts = SERVICE_MODULES.map((m, i) => ({ name: m.name, port: Number(process.env.BENCH_PORT_BASE ?? 18_120) + i }));

const scratch = await createScratchDatabase(serverUrl);
const env = {
  ...process.env,
  POSTGRES_URL: scratch.url,
  LOG_LEVEL: 'warn',
  PORTAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-activity-')),
  PORT: '0',
  ...Object.fromEntries(servicePorts.flatMap(({ name, port }) => [[servicePortEnv(name), String(port)], [serviceUrlEnv(name), `http://127.0.0.1:${port}`]])),
  PORTAL_ADMIN_USERNAME: 'bench-admin',
  PORTAL_ADMIN_PASSWORD: 'bench-secret',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
};
const services = await spawnService(env, servicePorts.map((s) => s.name).join(','), servicePorts.map((s) => s.port));
const portal = await spawnPortal(env, ['--target=gateway']);
const db = await openPostgresDatabase({ url: scratch.url });

const post = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${portal.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
};

/** What the service's consumers and posts would have written, in bulk SQL (same tables, same rollups). */
const SEED = [
  // Every 50th file belongs to the firm (no client); a third are reports of 10 report types.
  `INSERT INTO activity_files (id, name, size, client_id, client_name, file_type, report_type_id, uploaded_by_id, uploader_name, uploaded_at)
   SELECT i, 'Document ' || i || '.pdf', 10000 + i * 37 % 5000000,
     CASE WHEN i % 50 = 0 THEN NULL ELSE i % ${CLIENTS} + 1 END,
     CASE WHEN i % 50 = 0 THEN NULL ELSE 'Client ' || (i % ${CLIENTS} + 1) END,
     CASE WHEN i % 50 = 0 THEN 'firm_document' WHEN i % 3 = 0 THEN 'report' ELSE 'company_document' END,
     CASE WHEN i % 50 <> 0 AND i % 3 = 0 THEN i % 10 + 1 END,
     i % ${STAFF} + 1, 'Staff ' || (i % ${STAFF} + 1), now() - (i % 525600) * interval '1 minute'
   FROM generate_series(1, ${FILES}) AS i`,
  `INSERT INTO activity_logs (action, file_id, file_name, user_id, user_name, client_id, client_name, details, "timestamp")
   SELECT (ARRAY['view','view','view','download','download','chat','upload','delete','update','view'])[i % 10 + 1],
     f.id, f.name, i % ${STAFF} + 1, 'Staff ' || (i % ${STAFF} + 1), f.client_id, f.client_name, NULL,
     now() - (i % 525600) * interval '1 minute' - (i % 60) * interval '1 second'
   FROM generate_series(1, ${LOGS}) AS i JOIN activity_files f ON f.id = (i::bigint * 7919) % ${FILES} + 1`,
  `INSERT INTO activity_counts (client_id, user_id, action, count, last_at)
   SELECT coalesce(client_id, 0), user_id, action, count(*), max("timestamp") FROM activity_logs GROUP BY 1, 2, 3`,
  `INSERT INTO activity_days (day, count) SELECT ("timestamp" AT TIME ZONE 'UTC')::date, count(*) FROM activity_logs GROUP BY 1`,
  `INSERT INTO activity_file_counts (file_id, views, downloads, chats)
   SELECT file_id, count(*) FILTER (WHERE action = 'view'), count(*) FILTER (WHERE action = 'download'), count(*) FILTER (WHERE action = 'chat')
   FROM activity_logs WHERE file_id IS NOT NULL AND action IN ('view', 'download', 'chat') GROUP BY file_id`,
  `INSERT INTO activity_document_counts (client_id, file_type, report_type_id, documents)
   SELECT coalesce(client_id, 0), file_type, coalesce(report_type_id, 0), count(*) FROM activity_files WHERE deleted_at IS NULL GROUP BY 1, 2, 3`,
  'ANALYZE activity_files', 'ANALYZE activity_logs', 'ANALYZE activity_counts', 'ANALYZE activity_file_counts', 'ANALYZE activity_document_counts', 'ANALYZE activity_days',
];

try {
  const platform = (await post('/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token as string;
  const firm = await post('/api/companies', { name: 'Bench Activity', shortName: tenant }, platform);
  const schema = db.forSchema(firm.schemaName as string);
  const seedStarted = performance.now();
  for (const sql of SEED) await schema.query(sql);
  console.log(`seeded ${FILES} files and ${LOGS} activity entries in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const user = async (who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null) => {
    await post(`/api/${tenant}/users`, { username: `${tenant}-${who}`, password: 'bench-password', fullName: `Bench ${who}`, roleId, clientIds, reportTypeIds }, platform);
    return (await post(`/api/${tenant}/auth/login`, { username: `${tenant}-${who}`, password: 'bench-password' })).token as string;
  };
  const admin = await user('admin', 1, null, null);
  const cpa = await user('cpa', 3, Array.from({ length: 20 }, (_, i) => i * 97 + 1), [1, 2, 3, 4, 5]);
  const client = await user('client', 4, [7], null);
  // Access lists reach the activity service as events.
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const cases: [string, string, string][] = [
    ['dashboard as Admin', `/api/${tenant}/dashboard`, admin],
    ['dashboard as CPA (20 clients)', `/api/${tenant}/dashboard`, cpa],
    ['dashboard as Client', `/api/${tenant}/dashboard`, client],
    ['activity-logs as Admin', `/api/${tenant}/activity-logs`, admin],
    ['activity-logs as CPA', `/api/${tenant}/activity-logs`, cpa],
    ['activity-logs as Client', `/api/${tenant}/activity-logs`, client],
    ['user details as Admin', `/api/${tenant}/dashboard/users/7/activity`, admin],
    ['client engagement as Admin', `/api/${tenant}/dashboard/clients/7/engagement`, admin],
    ['admin/analytics', '/api/admin/analytics', platform],
  ];
  for (const [label, path, token] of cases) {
    const check = await fetch(`${portal.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!check.ok) throw new Error(`${label}: ${check.status} ${await check.text()}`);
    const run = (duration: number) => autocannon({ url: `${portal.url}${path}`, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } });
    await run(1); // warm-up
    const r = await run(DURATION_S);
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    console.log(`${summarize(label.padEnd(30), r)}  p95 ${percentile95(r) < 50 ? '< 50 ms' : '>= 50 ms'}`);
  }
  console.log(`(PostgreSQL, ${FILES} files, ${LOGS} entries, ${CONNECTIONS} connections, ${DURATION_S} s each; gateway and services in separate processes; ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)} at the end)`);
} finally {
  await db.close();
  await portal.stop();
  await services.stop();
  await scratch.drop();
}
