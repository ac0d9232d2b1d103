import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/database.ts';
import { migratePlatform, migrateTenant } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { createLogger } from '../src/logger.ts';
import { createJobQueue } from '../src/scheduler/job-queue.ts';
import { eventually } from '../src/testing/eventually.ts';
import { startScheduler, type JobHandler, type ScheduledTenant } from '../src/scheduler/scheduler.ts';

const REPLICA_FIXTURE = fileURLToPath(new URL('./fixtures/scheduler-replica.ts', import.meta.url));
const logger = createLogger('scheduler-test', 'silent');
const queue = createJobQueue('sched');
const firedTable = {
  service: 'sched-fired', scope: 'tenant' as const,
  migrations: [{ id: '001', sql: 'CREATE TABLE fired (key text NOT NULL, replica text NOT NULL, at timestamptz NOT NULL DEFAULT now())' }],
};

describe.each(databaseTargets())('Scheduler ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  const firmA: ScheduledTenant = { shortName: 'a', schema: `s_a_${randomBytes(3).toString('hex')}` };
  const firmB: ScheduledTenant = { shortName: 'b', schema: `s_b_${randomBytes(3).toString('hex')}` };
  const firms = async () => [firmA, firmB];

  const fire = (replica: string): JobHandler => async (tx, job) => {
    await tx.query('INSERT INTO fired (key, replica) VALUES ($1, $2)', [job.key, replica]);
  };
  const firedKeys = async (firm: ScheduledTenant) =>
    (await db.forSchema(firm.schema).query<{ key: string }>('SELECT key FROM fired ORDER BY key')).rows.map((r) => r.key);
  const pending = async (firm: ScheduledTenant) =>
    (await db.forSchema(firm.schema).query<{ n: number }>(`SELECT count(*) AS n FROM ${queue.table}`)).rows[0]!.n;
  const schedule = (firm: ScheduledTenant, key: string, runAt: Date, kind = 'remind') =>
    db.forSchema(firm.schema).transaction((tx) => queue.schedule(tx, { kind, key, runAt, payload: { key } }));
  const reset = async () => {
    for (const f of [firmA, firmB]) await db.forSchema(f.schema).query(`DELETE FROM fired; DELETE FROM ${queue.table}`);
  };

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [queue.dueIndexMigrations]);
    for (const f of [firmA, firmB]) await migrateTenant(db, f.schema, [queue.migrations, firedTable]);
  });
  afterAll(async () => { await scratch.drop(); });

  it('runs due jobs of every firm once, leaves future ones, and deletes what ran', async () => {
    await reset();
    const past = new Date(Date.now() - 1000);
    await schedule(firmA, 'a1', past);
    await schedule(firmB, 'b1', past);
    await schedule(firmA, 'later', new Date(Date.now() + 3_600_000));
    const s = startScheduler({ db, queue, tenants: firms, handlers: { remind: fire('r1') }, logger, pollMs: 60_000 }, false);
    expect(await s.tick()).toBe(2);
    expect(await s.tick()).toBe(0);
    expect(await firedKeys(firmA)).toEqual(['a1']);
    expect(await firedKeys(firmB)).toEqual(['b1']);
    expect(await pending(firmA)).toBe(1);
    await s.stop();
  });

  it('scheduling a key again moves the pending job instead of adding one; cancel drops it', async () => {
    await reset();
    await schedule(firmA, 'k', new Date(Date.now() + 3_600_000));
    await schedule(firmA, 'k', new Date(Date.now() - 1000));
    await schedule(firmA, 'gone', new Date(Date.now() - 1000));
    await db.forSchema(firmA.schema).transaction((tx) => queue.cancel(tx, 'gone'));
    const s = startScheduler({ db, queue, tenants: firms, handlers: { remind: fire('r1') }, logger, pollMs: 60_000 }, false);
    expect(await s.tick()).toBe(1);
    expect(await firedKeys(firmA)).toEqual(['k']);
    await s.stop();
  });

  it('a batch handler gets every claimed job of its kind at once; its rows go, or all are retried if it throws', async () => {
    await reset();
    const past = new Date(Date.now() - 1000);
    for (const key of ['x1', 'x2', 'x3']) await schedule(firmA, key, past, 'sweep');
    await schedule(firmA, 'single', past);
    const calls: string[][] = [];
    const sweep = async (tx: Parameters<JobHandler>[0], jobs: readonly { key: string }[]) => {
      calls.push(jobs.map((j) => j.key));
      for (const j of jobs) await tx.query('INSERT INTO fired (key, replica) VALUES ($1, $2)', [j.key, 'batch']);
    };
    const s = startScheduler({ db, queue, tenants: firms, handlers: { remind: fire('r1') }, batchHandlers: { sweep }, logger, pollMs: 60_000 }, false);
    expect(await s.tick()).toBe(4);
    await s.stop();
    expect(calls).toEqual([['x1', 'x2', 'x3']]);
    expect(await firedKeys(firmA)).toEqual(['single', 'x1', 'x2', 'x3']);
    expect(await pending(firmA)).toBe(0);

    await reset();
    for (const key of ['y1', 'y2']) await schedule(firmA, key, past, 'sweep');
    const failing = startScheduler({
      db, queue, tenants: firms, handlers: {}, logger, pollMs: 60_000, retryBaseMs: 3_600_000,
      batchHandlers: { sweep: async (tx) => { await tx.query("INSERT INTO fired (key, replica) VALUES ('half', 'batch')"); throw new Error('down'); } },
    }, false);
    await failing.tick();
    await failing.stop();
    expect(await firedKeys(firmA)).toEqual([]);
    const rows = await db.forSchema(firmA.schema).query<{ key: string; attempts: number; last_error: string }>(`SELECT key, attempts, last_error FROM ${queue.table} ORDER BY key`);
    expect(rows.rows).toEqual([{ key: 'y1', attempts: 1, last_error: 'Error: down' }, { key: 'y2', attempts: 1, last_error: 'Error: down' }]);
  });

  it('scheduleMany adds many jobs in one statement, moving those whose key is pending', async () => {
    await reset();
    await schedule(firmA, 'm1', new Date(Date.now() + 3_600_000));
    const past = new Date(Date.now() - 1000);
    await db.forSchema(firmA.schema).transaction((tx) => queue.scheduleMany(tx, [
      { kind: 'remind', key: 'm1', runAt: past, payload: { key: 'm1' } },
      { kind: 'remind', key: 'm2', runAt: past, payload: { key: 'm2' } },
      { kind: 'remind', key: 'm3', runAt: new Date(Date.now() + 3_600_000), payload: { key: 'm3' } },
    ]));
    await db.forSchema(firmA.schema).transaction((tx) => queue.scheduleMany(tx, []));
    const s = startScheduler({ db, queue, tenants: firms, handlers: { remind: fire('r1') }, logger, pollMs: 60_000 }, false);
    expect(await s.tick()).toBe(2);
    expect(await firedKeys(firmA)).toEqual(['m1', 'm2']);
    expect(await pending(firmA)).toBe(1);
    await s.stop();
  });

  it('a failing job is rolled back alone and retried later; the others of its batch commit', async () => {
    await reset();
    await schedule(firmA, 'ok', new Date(Date.now() - 2000));
    await schedule(firmA, 'bad', new Date(Date.now() - 1000), 'explode');
    const s = startScheduler({
      db, queue, tenants: firms, logger, pollMs: 60_000, retryBaseMs: 60_000,
      handlers: { remind: fire('r1'), explode: async (tx) => { await tx.query("INSERT INTO fired (key, replica) VALUES ('half-done', 'r1')"); throw new Error('boom'); } },
    }, false);
    expect(await s.tick()).toBe(2);
    expect(await firedKeys(firmA)).toEqual(['ok']);
    const { rows } = await db.forSchema(firmA.schema).query<{ attempts: number; last_error: string; later: boolean }>(
      `SELECT attempts, last_error, run_at > now() AS later FROM ${queue.table} WHERE key = 'bad'`,
    );
    expect(rows[0]).toEqual({ attempts: 1, last_error: 'Error: boom', later: true });
    await s.stop();
  });

  it('two replicas racing over the same due rows run each job exactly once', async () => {
    await reset();
    const past = new Date(Date.now() - 1000);
    await db.forSchema(firmA.schema).transaction(async (tx) => {
      for (let i = 0; i < 120; i++) await queue.schedule(tx, { kind: 'remind', key: `k${String(i).padStart(3, '0')}`, runAt: past, payload: {} });
    });
    const replicas = ['r1', 'r2'].map((r) => startScheduler({ db, queue, tenants: firms, handlers: { remind: fire(r) }, logger, pollMs: 60_000, batchSize: 7 }, false));
    const ran = await Promise.all([...replicas.map((r) => r.tick()), ...replicas.map((r) => r.tick())]);
    expect(ran.reduce((a, b) => a + b, 0)).toBe(120);
    const keys = await firedKeys(firmA);
    expect(keys).toHaveLength(120);
    expect(new Set(keys).size).toBe(120);
    for (const r of replicas) await r.stop();
  });

  it('a replica killed while it holds due jobs (its transaction never commits) leaves them to the next one, which runs each once', async () => {
    await reset();
    const past = new Date(Date.now() - 1000);
    for (const k of ['d1', 'd2', 'd3']) await schedule(firmA, k, past);
    if (scratch.url) {
      // PostgreSQL: a real second process claims the jobs, writes, and is killed before committing.
      const child = spawn(process.execPath, [REPLICA_FIXTURE], { env: { ...process.env, DATABASE_URL: scratch.url, SCHEMA: firmA.schema, TABLE: queue.table }, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => { if (c.toString().includes('holding')) resolve(); });
        child.once('exit', (code) => reject(new Error(`replica exited early with ${code}`)));
      });
      // While it holds the rows, another replica skips them rather than waiting or running them twice.
      const meanwhile = startScheduler({ db, queue, tenants: async () => [firmA], handlers: { remind: fire('r2') }, logger, pollMs: 60_000 }, false);
      expect(await meanwhile.tick()).toBe(0);
      await meanwhile.stop();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    } else {
      // PGlite (one process): the claiming transaction ends without a commit, as a killed process's does.
      await db.forSchema(firmA.schema).transaction(async (tx) => {
        await tx.query(`SELECT id FROM ${queue.table} FOR UPDATE SKIP LOCKED`);
        await tx.query("INSERT INTO fired (key, replica) VALUES ('d1', 'dead')");
        throw new Error('process killed');
      }).catch(() => undefined);
    }
    expect(await firedKeys(firmA)).toEqual([]);
    const next = startScheduler({ db, queue, tenants: async () => [firmA], handlers: { remind: fire('r2') }, logger, pollMs: 60_000 }, false);
    await eventually(async () => { expect(await next.tick()).toBeGreaterThanOrEqual(0); expect(await firedKeys(firmA)).toEqual(['d1', 'd2', 'd3']); });
    expect(await pending(firmA)).toBe(0);
    await next.stop();
  });
});
