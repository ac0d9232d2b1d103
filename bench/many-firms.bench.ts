// `npm run bench:many-firms` (issue 45): grows an installation to BENCH_FIRMS firms through
// the API and prints, at 1, 10, 100, 250, 500 and BENCH_FIRMS firms, the time to create a
// firm (p50/p95 of the firms created since the last checkpoint) and what the installation
// costs while nobody uses it: transactions a second in its database (PostgreSQL only, from
// pg_stat_database) and the portal process's CPU, over BENCH_IDLE_SECONDS once it is quiet.
// The product runs in one process (`all`), on PostgreSQL when POSTGRES_URL is exported (in a
// scratch database of its own) and on the embedded PGlite otherwise.
// Start-up: from spawning the process to the gateway listening (every service has checked
// every firm's schema by then), on an empty installation and again on the grown one.
// The platform-admin screens (overview and analytics, p50/p95 of BENCH_ADMIN_READS reads
// each) and memory: the portal process's resident set, and the PostgreSQL backends' private
// memory (their RSS minus shared, on this machine). With KEYCLOAK_URL exported each firm is
// made with a Keycloak realm, and the Java process's resident set is printed too.
// A firm's own users: the first firm is made with 3 clients, an Admin and 5 files, and at every
// checkpoint its Admin signs in and reads the clients, the files, a file search and the
// dashboard BENCH_FIRM_READS times each (p50/p95): flat is the goal, whatever the number of
// firms (with Keycloak, the sign-in goes through the firm's realm).
// BENCH_BACKUP=1 (PostgreSQL only): once grown and stopped, `npm run backup`'s parts backup of the
// whole installation and its restore into an empty database, timed, with the firms' schemas and
// tables counted on both sides (the issue: a round trip on a default PostgreSQL at 1,000 firms).
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { restorePostgresBackup, writePostgresBackup } from '@ledgerline/server/backup/postgres-backup.ts';
import { startBenchPortal } from './lib/bench-portal.ts';
import { jsonCaller } from './lib/bench-client.ts';
import { benchFirm } from './lib/bench-firm.ts';
import { uploadBlankPdf } from '@ledgerline/kit/testing/upload-blank-pdf.ts';

const postgresServer = process.env.POSTGRES_URL;
const FIRMS = Number(process.env.BENCH_FIRMS ?? (postgresServer ? 1000 : 300));
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
/** Quiet before an idle window: the last firm's events and first scheduler visits settle. */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const CHECKPOINTS = [...new Set([1, 10, 100, 250, 500, FIRMS].filter((n) => n <= FIRMS))];
const TICKS_PER_SECOND = 100;
const ADMIN_READS = Number(process.env.BENCH_ADMIN_READS ?? 20);
const FIRM_READS = Number(process.env.BENCH_FIRM_READS ?? 20);
const keycloakUrl = process.env.KEYCLOAK_URL;

const scratch = postgresServer ? await createScratchDatabase(postgresServer) : null;
const start = async (dataDir?: string) => {
  const started = performance.now();
  const running = await startBenchPortal({
    mode: 'all', firstPort: Number(process.env.BENCH_FIRST_PORT ?? 18_500), dataPrefix: 'bench-many-firms-', dataDir,
    extraEnv: { ...(scratch ? { POSTGRES_URL: scratch.url } : {}), ...(keycloakUrl ? { KEYCLOAK_URL: keycloakUrl } : {}) },
  });
  return { running, ms: performance.now() - started };
};
const first = await start();
let portal = first.running;

const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
/**
 * Transactions committed or rolled back in the bench's database so far, and how many of the
 * tables' vacuums and analyses PostgreSQL's autovacuum has run there (each its own transaction,
 * counted in the first figure too): an idle window's transactions are the product's plus those.
 */
const transactions = async (): Promise<{ all: number; autovacuum: number } | null> => {
  if (!scratch) return null;
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ all: string; autovacuum: string }>(
      `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS all,
              (SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_all_tables) AS autovacuum`);
    return { all: Number(rows[0]!.all), autovacuum: Number(rows[0]!.autovacuum) };
  } finally {
    await client.end();
  }
};
/**
 * CPU ticks of the PostgreSQL backends serving the bench's database, per backend (the server
 * must run on this machine). A window's cost is the growth of the backends alive at its end.
 */
const backendTicks = async (): Promise<Map<number, number> | null> => {
  if (!scratch) return null;
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const ticks = new Map<number, number>();
    for (const { pid } of rows) {
      try { ticks.set(pid, cpuTicks(pid)); } catch { /* not on this machine, or gone */ }
    }
    return ticks;
  } finally {
    await client.end();
  }
};
const grown = (before: Map<number, number> | null, after: Map<number, number> | null): number | null => {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, t] of after) total += t - (before.get(pid) ?? 0);
  return total;
};

/** Resident and shared memory of a process on this machine, in MB (statm counts 4 KiB pages). */
const memoryOf = (pid: number): { rss: number; shared: number } => {
  const [, resident, shared] = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ').map(Number);
  return { rss: (resident! * 4096) / 2 ** 20, shared: (shared! * 4096) / 2 ** 20 };
};
/** The PostgreSQL backends' private memory (RSS minus shared), summed, in MB. */
const backendsPrivateMb = async (): Promise<number | null> => {
  const ticks = await backendTicks();
  if (!ticks) return null;
  let total = 0;
  for (const pid of ticks.keys()) {
    try { const m = memoryOf(pid); total += m.rss - m.shared; } catch { /* gone */ }
  }
  return total;
};
/** Keycloak's Java process on this machine (a java command line naming keycloak; not its start script), if any. */
const keycloakPid = (): number | null => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [command, ...args] = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (command?.endsWith('java') && args.some((a) => a.includes('keycloak'))) return Number(entry);
    } catch { /* gone */ }
  }
  return null;
};

/** Firm schemas (with a migration history) and their tables, as the backup counts them. */
const firmTables = async (url: string): Promise<{ schemas: number; tables: number }> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ schemas: string; tables: string }>(
      `SELECT count(DISTINCT n.nspname) AS schemas, count(c.oid) AS tables FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid AND c.relkind IN ('r', 'p')
        WHERE n.nspname <> 'portal' AND EXISTS (SELECT 1 FROM pg_class h WHERE h.relnamespace = n.oid AND h.relname = 'schema_migrations')`);
    return { schemas: Number(rows[0]!.schemas), tables: Number(rows[0]!.tables) };
  } finally {
    await client.end();
  }
};

/** The parts backup of the stopped installation and its restore into an empty database: times, size, and what each side holds. */
const backupRoundTrip = async (url: string): Promise<string> => {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-backup-')), 'portal.tar');
  let started = performance.now();
  const out = createWriteStream(file);
  const manifest = await writePostgresBackup({ url, out });
  out.end();
  await finished(out);
  const backupS = (performance.now() - started) / 1000;
  const target = await createScratchDatabase(postgresServer!);
  try {
    started = performance.now();
    await restorePostgresBackup({ url: target.url, archive: createReadStream(file) });
    const restoreS = (performance.now() - started) / 1000;
    const [before, after] = [await firmTables(url), await firmTables(target.url)];
    return `backup ${backupS.toFixed(0)} s (${manifest.parts.length} parts of up to ${manifest.tablesPerPart} tables, lock table ${manifest.lockTableSlots}, `
      + `${(statSync(file).size / 2 ** 20).toFixed(0)} MB), restore ${restoreS.toFixed(0)} s; firm schemas ${before.schemas} → ${after.schemas}, their tables ${before.tables} → ${after.tables}`;
  } finally {
    await target.drop();
  }
};

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** p50 / p95 of `reads` runs of `step`, in ms. */
const timed = async (reads: number, step: () => Promise<unknown>): Promise<string> => {
  const times: number[] = [];
  for (let i = 0; i < reads; i++) {
    const started = performance.now();
    await step();
    times.push(performance.now() - started);
  }
  return `${quantile(times, 0.5).toFixed(0)} / ${quantile(times, 0.95).toFixed(0)} ms`;
};

try {
  const call = jsonCaller(portal.url);
  const { token } = await call<{ token: string }>('POST', '/api/auth/login', { username: 'bench-admin', password: 'bench-secret' });
  const rows: string[] = [];
  const firmRows: string[] = [];
  const tag = Date.now().toString(36);
  // The probed firm, made first: its users' screens are read again at every checkpoint.
  const probe = { shortName: `f${tag}0`, username: `probe-${tag}` };
  const probeFirm = await benchFirm(call, { name: 'Firm 0', shortName: probe.shortName }, 3);
  const probeAdmin = await probeFirm.user(probe.username, 1, null);
  for (let i = 0; i < 5; i++) {
    await uploadBlankPdf(portal.url, probe.shortName, probeAdmin.token, { clientId: probeFirm.clientIds[i % 3]!, name: `bank-statement-${i}.pdf` });
  }
  let created = 1;
  for (const checkpoint of CHECKPOINTS) {
    const times: number[] = [];
    for (; created < checkpoint; created++) {
      const started = performance.now();
      await call('POST', '/api/companies', { name: `Firm ${created}`, shortName: `f${tag}${created}` }, token);
      times.push(performance.now() - started);
    }
    await sleep(SETTLE_SECONDS * 1000);
    const pid = portal.gatewayPid!;
    const [tx0, cpu0, pg0] = [await transactions(), cpuTicks(pid), await backendTicks()];
    await sleep(IDLE_SECONDS * 1000);
    const [tx1, cpu1, pg1] = [await transactions(), cpuTicks(pid), await backendTicks()];
    const postgresCpu = grown(pg0, pg1);
    const admin = (path: string) => timed(ADMIN_READS, () => call('GET', path, undefined, token));
    const [overview, analytics] = [await admin('/api/admin/overview'), await admin('/api/admin/analytics')];
    const firmPath = (path: string) => `/api/${probe.shortName}${path}`;
    const firmRead = (path: string) => timed(FIRM_READS, () => call('GET', firmPath(path), undefined, probeAdmin.token));
    const signIn = await timed(FIRM_READS, () => call('POST', firmPath('/auth/login'), { username: probe.username, password: 'password1' }));
    const firmRow = [
      String(checkpoint).padStart(6), signIn.padStart(14), (await firmRead('/clients')).padStart(14), (await firmRead('/files')).padStart(14),
      (await firmRead('/files?search=statement')).padStart(14), (await firmRead('/dashboard')).padStart(14),
    ].join('  ');
    firmRows.push(firmRow);
    const postgresMb = await backendsPrivateMb();
    const kc = keycloakUrl ? keycloakPid() : null;
    // The bench's own reads (pg_stat_database, pg_stat_activity) are transactions too: not the installation's.
    const txPerSecond = tx0 === null || tx1 === null ? null : (tx1.all - tx0.all - 2) / IDLE_SECONDS;
    const autovacuumPerSecond = tx0 === null || tx1 === null ? null : (tx1.autovacuum - tx0.autovacuum) / IDLE_SECONDS;
    const core = (ticks: number) => `${((ticks / (IDLE_SECONDS * TICKS_PER_SECOND)) * 100).toFixed(1)} %`;
    const row = [
      String(checkpoint).padStart(6),
      // The first firm is the probed one, made with its clients and files: not a bare creation.
      (times.length ? `${quantile(times, 0.5).toFixed(0)} / ${quantile(times, 0.95).toFixed(0)} ms` : '—').padStart(16),
      (txPerSecond === null ? '—' : txPerSecond.toFixed(1)).padStart(10),
      (autovacuumPerSecond === null ? '—' : autovacuumPerSecond.toFixed(1)).padStart(10),
      core(cpu1 - cpu0).padStart(9),
      (postgresCpu === null ? '—' : core(postgresCpu)).padStart(9),
      overview.padStart(14),
      analytics.padStart(14),
      `${memoryOf(pid).rss.toFixed(0)} MB`.padStart(9),
      (postgresMb === null ? '—' : `${postgresMb.toFixed(0)} MB`).padStart(9),
      ...(kc ? [`${memoryOf(kc).rss.toFixed(0)} MB`.padStart(9)] : []),
    ].join('  ');
    rows.push(row);
    console.log(row, '|', firmRow);
  }
  await portal.stop();
  const again = await start(portal.dataDir);
  portal = again.running;
  console.log(`\n${FIRMS} firms on ${scratch ? 'PostgreSQL' : 'PGlite'}${keycloakUrl ? ', each with a Keycloak realm' : ''}, one process; idle over ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s of quiet`);
  console.log(' firms  create p50 / p95     idle tx/s  autovacuum/s  portal CPU  backends CPU  admin overview  admin analytics  portal RSS  backends private' + (keycloakUrl ? '  Keycloak RSS' : ''));
  for (const row of rows) console.log(row);
  console.log(`\nThe first firm's Admin (3 clients, 5 files), ${FIRM_READS} reads each, p50 / p95`);
  console.log(' firms         sign-in         clients           files     file search       dashboard');
  for (const row of firmRows) console.log(row);
  console.log(`start-up to serving: ${(first.ms / 1000).toFixed(1)} s with no firm, ${(again.ms / 1000).toFixed(1)} s with ${FIRMS}`);
  if (process.env.BENCH_BACKUP === '1' && scratch) {
    await portal.stop();
    console.log(await backupRoundTrip(scratch.url));
  }
} finally {
  await portal.stop();
  await scratch?.drop();
}
