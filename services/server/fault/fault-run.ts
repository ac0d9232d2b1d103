// `npm run fault:run`: events flowing through the real servers while RabbitMQ, the files
// service's process and PostgreSQL are each restarted once, then the books are checked:
// no event lost, none applied twice, no file listed without its bytes, the dashboard's
// counts equal to the log. Needs POSTGRES_URL, AMQP_URL, AMQP_RESTART_COMMAND and
// POSTGRES_RESTART_COMMAND (shell commands that restart each server; .ci/run exports
// them), and S3_* if objects should go to MinIO. FAULT_UPLOADS (default 2000) uploads,
// each followed by a view, from FAULT_CONCURRENCY (8) clients. Prints the figures and
// exits non-zero when a check fails. It restarts shared servers: run it alone.
import { exec } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { apiClient, createSignedInUser, portalTestEnv, TEST_ADMIN, testClient } from '../src/portal-harness.ts';
import { spawnPortal, spawnService } from '../src/portal-process.ts';
import { servicePortEnv, serviceUrlEnv } from '../src/platform.config.ts';
import { SERVICE_MODULES } from '../src/targets.ts';

const run = promisify(exec);
const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (see the top of this file)`);
  return value;
};
const UPLOADS = Number(process.env.FAULT_UPLOADS ?? 2000);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 8);
const CONVERGE_MS = 180_000;
const scratch = await createScratchDatabase(need('POSTGRES_URL'));
const [amqpRestart, postgresRestart] = [need('AMQP_RESTART_COMMAND'), need('POSTGRES_RESTART_COMMAND')];
need('AMQP_URL');

// Fixed ports, so the files service in its own process and the rest find each other.
const base = 20_000 + Math.floor(Math.random() * 20_000);
const ports = Object.fromEntries(SERVICE_MODULES.map((m, i) => [m.name, base + i]));
const env = portalTestEnv({
  POSTGRES_URL: scratch.url, BUS_NAMESPACE: `fault-${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'error',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000', KEYCLOAK_URL: '',
  ...Object.fromEntries(SERVICE_MODULES.flatMap((m) => [[servicePortEnv(m.name), String(ports[m.name])], [serviceUrlEnv(m.name), `http://127.0.0.1:${ports[m.name]}`]])),
});
const others = SERVICE_MODULES.map((m) => m.name).filter((n) => n !== 'files');
let files = await spawnService(env, 'files', ports.files!);
const portal = await spawnPortal(env, [`--target=gateway,${others.join(',')}`]);
portal.child.stderr!.on('data', (c: Buffer) => process.stderr.write(c));
portal.child.on('exit', (code, signal) => console.error(`portal process exited: ${code ?? signal}`));
const db = new pg.Pool({ connectionString: scratch.url, max: 2 });
// The PostgreSQL restart drops idle connections; the pool reconnects on the next query.
db.on('error', () => undefined);

const figures: Record<string, string | number> = {};
const failures: string[] = [];
const check = (name: string, ok: boolean, detail: string) => {
  figures[name] = detail;
  if (!ok) failures.push(`${name}: ${detail}`);
};

try {
  const call = apiClient(portal.url);
  const login = await call<{ token: string }>('POST', '/api/admin/auth/login', null, TEST_ADMIN);
  const platform = login.body.token;
  const firm = `fault${randomBytes(3).toString('hex')}`;
  if ((await call('POST', '/api/companies', platform, { name: 'Fault Run LLP', shortName: firm })).status !== 201) throw new Error('firm not created');
  const client = await call<{ id: number }>('POST', `/api/${firm}/clients`, platform, testClient('Fault Client'));
  if (client.status !== 201) throw new Error(`client not created: ${client.status} ${JSON.stringify(client.body)}`);
  const admin = await createSignedInUser(call, platform, firm, { username: `admin_${firm}`, fullName: 'Fault Admin', roleId: 1, clientIds: null, reportTypeIds: null });
  const auth = { authorization: `Bearer ${admin.token}` };

  const uploaded = new Map<number, string>();
  let views = 0;
  let refused = 0;
  let attempted = 0;
  const disruptions: { name: string; at: number; recoveredAfterMs?: number }[] = [];

  /** One upload, then a view of it; false when the upload was refused or cut off. */
  const upload = async (n: number): Promise<boolean> => {
    const startedAt = Date.now();
    const content = `Fault run statement ${n} total ${n * 7}`;
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(client.body.id));
    form.append('file', new Blob([content]), `statement-${n}.txt`);
    try {
      const r = await fetch(`${portal.url}/api/${firm}/files`, { method: 'POST', headers: auth, body: form, signal: AbortSignal.timeout(60_000) });
      if (r.status !== 201) {
        refused++;
        const reason = await r.text();
        if (r.status < 500) throw new Error(`upload refused with ${r.status}: ${reason}`); // not a restart's doing
        return false;
      }
      const id = ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
      uploaded.set(id, content);
      if (uploaded.size % 100 === 0) console.error(`fault run: ${uploaded.size} uploads acknowledged, ${refused} refused`);
      // Recovered: an upload begun after the restart began has gone through.
      for (const d of disruptions) if (startedAt >= d.at) d.recoveredAfterMs ??= Date.now() - d.at;
      // The activity service knows the file once its upload event arrived: until then a view is 404.
      for (let tries = 0; tries < 100; tries++) {
        const v = await fetch(`${portal.url}/api/${firm}/activity-logs`, {
          method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'view', fileId: id }), signal: AbortSignal.timeout(60_000),
        }).catch(() => null);
        await v?.arrayBuffer();
        if (v?.status === 201) { views++; break; }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return true;
    } catch (err) {
      if (String(err).includes('upload refused')) throw err;
      refused++; // cut off by a restart: nothing was promised
      return false;
    }
  };

  const schedule: [number, string, () => Promise<void>][] = [
    [0.25, 'RabbitMQ restart', async () => { await run(amqpRestart); }],
    [0.5, 'files process SIGKILL and restart', async () => {
      files.child.kill('SIGKILL');
      await new Promise((resolve) => files.child.once('exit', resolve));
      files = await spawnService(env, 'files', ports.files!);
    }],
    [0.75, 'PostgreSQL restart', async () => { await run(postgresRestart); }],
  ];
  const started = Date.now();
  let next = 0;
  const disrupting: Promise<void>[] = [];
  const deadline = Date.now() + 15 * 60_000;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (uploaded.size < UPLOADS && Date.now() < deadline && !failures.length) {
      const n = attempted++;
      const due = schedule[next];
      if (due && uploaded.size >= due[0] * UPLOADS) {
        next++;
        const d = { name: due[1], at: Date.now() };
        console.error(`fault run: ${d.name}`);
        disruptions.push(d);
        disrupting.push(due[2]().catch((err: unknown) => { failures.push(`${d.name} failed: ${String(err)}`); }));
      }
      // A refused upload is tried again (as a client would) once the service is back.
      if (!(await upload(n))) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }));
  await Promise.all(disrupting);
  figures['load seconds'] = ((Date.now() - started) / 1000).toFixed(1);
  figures['uploads acknowledged / attempted'] = `${uploaded.size} / ${attempted}`;
  figures['views acknowledged'] = views;
  figures['requests refused or cut off during restarts'] = refused;
  for (const d of disruptions) figures[`${d.name}: an upload begun after it succeeds within`] = d.recoveredAfterMs === undefined ? 'never' : `${(d.recoveredAfterMs / 1000).toFixed(1)} s`;

  // The books, once every event has been consumed (or the time is up).
  const schema = firm;
  const q = async <T>(sql: string) => (await db.query(sql)).rows as T[];
  const settle = Date.now();
  let books = { files: 0, processed: 0, uploadLogs: 0, viewLogs: 0, duplicateUploads: 0 };
  for (;;) {
    const [row] = await q<{ files: number; processed: number; upload_logs: number; view_logs: number; duplicate_uploads: number }>(`
      SELECT (SELECT count(*)::int FROM ${schema}.files) AS files,
             (SELECT count(*)::int FROM ${schema}.files WHERE processed_at IS NOT NULL) AS processed,
             (SELECT count(*)::int FROM ${schema}.activity_logs WHERE action = 'upload') AS upload_logs,
             (SELECT count(*)::int FROM ${schema}.activity_logs WHERE action = 'view') AS view_logs,
             (SELECT count(*)::int FROM (SELECT file_id FROM ${schema}.activity_logs WHERE action = 'upload' GROUP BY file_id HAVING count(*) > 1) d) AS duplicate_uploads`);
    books = { files: row!.files, processed: row!.processed, uploadLogs: row!.upload_logs, viewLogs: row!.view_logs, duplicateUploads: row!.duplicate_uploads };
    if ((books.processed === books.files && books.uploadLogs === books.files) || Date.now() - settle > CONVERGE_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  figures['seconds to converge after the load'] = ((Date.now() - settle) / 1000).toFixed(1);
  const [events] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM portal.inbox`);
  figures['events consumed (inbox)'] = events!.n;
  check('every acknowledged upload is a file', [...uploaded.keys()].length <= books.files, `${books.files} files for ${uploaded.size} acknowledged`);
  check('no upload event lost (activity log)', books.uploadLogs === books.files, `${books.uploadLogs} upload entries for ${books.files} files`);
  check('no upload event applied twice', books.duplicateUploads === 0, `${books.duplicateUploads} files logged more than once`);
  check('no extraction lost', books.processed === books.files, `${books.processed} of ${books.files} files extracted`);
  check('every acknowledged view logged', books.viewLogs >= views, `${books.viewLogs} view entries for ${views} acknowledged`);

  // Every listed file has its bytes.
  const listed = await q<{ id: number }>(`SELECT id FROM ${schema}.files ORDER BY id`);
  let missing = 0;
  for (const { id } of listed) {
    const r = await fetch(`${portal.url}/api/${firm}/files/${id}`, { headers: auth });
    const body = await r.text();
    if (r.status !== 200 || (uploaded.has(id) && body !== uploaded.get(id))) missing++;
  }
  check('no file listed without its bytes', missing === 0, `${missing} of ${listed.length} files unreadable or altered`);

  // The dashboard's counters equal the log.
  const dashboard = (await call<DashboardOverview>('GET', `/api/${firm}/dashboard`, admin.token)).body;
  check('dashboard documents equal the files', dashboard.totalDocuments === books.files, `dashboard ${dashboard.totalDocuments}, files ${books.files}`);
  check('dashboard activities equal the log', dashboard.totalActivities === books.uploadLogs + books.viewLogs,
    `dashboard ${dashboard.totalActivities}, log ${books.uploadLogs + books.viewLogs}`);
} finally {
  await files.stop();
  await portal.stop();
  await db.end();
  await scratch.drop();
}

console.log('\nFault run (RabbitMQ, the files process and PostgreSQL each restarted once under load)');
for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(50)} ${value}`);
console.log(failures.length ? `\nFAILED:\n  ${failures.join('\n  ')}` : '\nAll checks passed.');
process.exit(failures.length ? 1 : 0);
