import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Database, Queryable, SchemaDb } from '../src/db/database.ts';
import { migratePlatform, migrateTenant } from '../src/db/migrations.ts';
import { openPostgresDatabase } from '../src/db/postgres-database.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { createLogger } from '../src/logger.ts';
import { createJobQueue, DUE_INDEX_TABLE } from '../src/scheduler/job-queue.ts';
import { startScheduler, type JobHandler, type ScheduledTenant, type Scheduler } from '../src/scheduler/scheduler.ts';

const logger = createLogger('due-index-test', 'silent');
const queue = createJobQueue('dueidx');
const firedTable = {
  service: 'dueidx-fired', scope: 'tenant' as const,
  migrations: [{ id: '001', sql: 'CREATE TABLE fired (key text NOT NULL, replica text NOT NULL)' }],
};
const FIRMS = 30;
const PAST = () => new Date(Date.now() - 1000);
const LATER = () => new Date(Date.now() + 3_600_000);

/** Every statement the scheduler issues, by where it ran: 'platform' or the firm's schema. */
function countingDatabase(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const counted = (q: Queryable, where: string): Queryable => ({
    query: (text, params) => { statements.push(where); return q.query(text, params); },
  });
  const wrapped: Database = {
    kind: db.kind,
    query: (text, params) => { statements.push('platform'); return db.query(text, params); },
    transaction: (fn) => db.transaction((tx) => fn(counted(tx, 'platform'))),
    forSchema: (schema): SchemaDb => {
      const inner = db.forSchema(schema);
      return {
        schema: inner.schema,
        query: (text, params) => { statements.push(schema); return inner.query(text, params); },
        transaction: (fn) => inner.transaction((tx) => fn(counted(tx, schema))),
      };
    },
    ping: () => db.ping(),
    close: () => db.close(),
  } as Database;
  return { db: wrapped, statements };
}

describe.each(databaseTargets())('Scheduler due index ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  const suffix = randomBytes(3).toString('hex');
  const firms: ScheduledTenant[] = Array.from({ length: FIRMS }, (_, i) => ({ shortName: `f${i}`, schema: `s_due_${i}_${suffix}` }));
  const [firmA, firmB, firmC] = firms as [ScheduledTenant, ScheduledTenant, ScheduledTenant];
  const tenants = async () => firms;
  const started: Scheduler[] = [];

  const fire = (replica: string): JobHandler => async (tx, job) => {
    await tx.query('INSERT INTO fired (key, replica) VALUES ($1, $2)', [job.key, replica]);
  };
  const fired = async (firm: ScheduledTenant) =>
    (await db.forSchema(firm.schema).query<{ key: string; replica: string }>('SELECT key, replica FROM fired ORDER BY key, replica')).rows;
  const schedule = (firm: ScheduledTenant, key: string, runAt: Date) =>
    db.forSchema(firm.schema).transaction((tx) => queue.schedule(tx, { kind: 'remind', key, runAt, payload: {} }));
  const scheduler = (on: Database, replica: string, extra: Partial<Parameters<typeof startScheduler>[0]> = {}) => {
    const s = startScheduler({ db: on, queue, tenants, handlers: { remind: fire(replica) }, logger, pollMs: 60_000, ...extra }, false);
    started.push(s);
    return s;
  };
  /** A scheduler whose first pass (every firm unknown to the index) is done, with its statement log cleared. */
  const warm = async (replica: string, extra: Partial<Parameters<typeof startScheduler>[0]> = {}) => {
    const counted = countingDatabase(db);
    const s = scheduler(counted.db, replica, extra);
    await s.tick();
    counted.statements.length = 0;
    return { s, statements: counted.statements };
  };
  const visitedFirms = (statements: string[]) => [...new Set(statements.filter((w) => w !== 'platform'))];

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [queue.dueIndexMigrations]);
    for (const f of firms) await migrateTenant(db, f.schema, [queue.migrations, firedTable]);
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
  });
  afterAll(async () => { await scratch.drop(); });

  it('an idle pass over many firms issues one platform query and none per firm', async () => {
    const counted = countingDatabase(db);
    const s = scheduler(counted.db, 'r1');
    // The first pass computes the index row of every firm it has never seen.
    await s.tick();
    expect(visitedFirms(counted.statements)).toHaveLength(FIRMS);
    counted.statements.length = 0;
    expect(await s.tick()).toBe(0);
    expect(await s.tick()).toBe(0);
    expect(counted.statements).toEqual(['platform', 'platform']);
  });

  it('a scheduled job makes only its firm due; it runs once and the firm is idle again', async () => {
    const { s, statements } = await warm('r1');
    await schedule(firmA, 'a-now', PAST());
    await schedule(firmB, 'b-later', LATER());
    expect(await s.tick()).toBe(1);
    expect(visitedFirms(statements)).toEqual([firmA.schema]);
    statements.length = 0;
    expect(await s.tick()).toBe(0);
    expect(visitedFirms(statements)).toEqual([]);
    expect(await fired(firmA)).toEqual([{ key: 'a-now', replica: 'r1' }]);
    expect(await fired(firmB)).toEqual([]);
    const { rows } = await db.query<{ schema_name: string; later: boolean }>(
      `SELECT schema_name, next_run_at > now() AS later FROM ${DUE_INDEX_TABLE} WHERE queue = $1 AND schema_name = ANY($2::text[]) AND next_run_at IS NOT NULL`,
      [queue.table, [firmA.schema, firmB.schema]],
    );
    expect(rows).toEqual([{ schema_name: firmB.schema, later: true }]);
  });

  it('a job moved later does not run (one visit recomputes the row); moved back it runs once', async () => {
    const { s, statements } = await warm('r1');
    await schedule(firmC, 'moved', PAST());
    await schedule(firmC, 'moved', LATER());
    expect(await s.tick()).toBe(0);
    statements.length = 0;
    expect(await s.tick()).toBe(0);
    expect(visitedFirms(statements)).toEqual([]);
    await schedule(firmC, 'moved', PAST());
    expect(await s.tick()).toBe(1);
    expect(await s.tick()).toBe(0);
    expect((await fired(firmC)).filter((r) => r.key === 'moved')).toEqual([{ key: 'moved', replica: 'r1' }]);
  });

  it('a cancelled job never runs, and its firm is idle after one visit', async () => {
    const { s, statements } = await warm('r1');
    const firm = firms[3]!;
    await schedule(firm, 'cancelled', PAST());
    await db.forSchema(firm.schema).transaction((tx) => queue.cancel(tx, 'cancelled'));
    expect(await s.tick()).toBe(0);
    statements.length = 0;
    expect(await s.tick()).toBe(0);
    expect(visitedFirms(statements)).toEqual([]);
    expect(await fired(firm)).toEqual([]);
  });

  it('a job that reschedules itself inside its run is seen by the next pass', async () => {
    const firm = firms[4]!;
    let runs = 0;
    const { s } = await warm('r1', {
      handlers: {
        remind: async (tx, job) => {
          runs++;
          await tx.query('INSERT INTO fired (key, replica) VALUES ($1, $2)', [`${job.key}#${runs}`, 'r1']);
          if (runs === 1) await queue.schedule(tx, { kind: 'remind', key: 'recurring-next', runAt: PAST(), payload: {} });
        },
      },
    });
    await schedule(firm, 'recurring', PAST());
    expect(await s.tick()).toBe(1);
    expect(await s.tick()).toBe(1);
    expect(await s.tick()).toBe(0);
    expect((await fired(firm)).map((r) => r.key)).toEqual(['recurring#1', 'recurring-next#2']);
  });

  it('a job scheduled while no scheduler runs is claimed once by the one started after the restart', async () => {
    const before = await warm('before');
    await before.s.stop();
    const firm = firms[5]!;
    await schedule(firm, 'across-restart', PAST());
    const counted = countingDatabase(db);
    const after = scheduler(counted.db, 'after');
    expect(await after.tick()).toBe(1);
    // The index rows the first process computed hold: the new one visits only the due firm.
    expect(visitedFirms(counted.statements)).toEqual([firm.schema]);
    expect(await before.s.tick()).toBe(0);
    expect(await fired(firm)).toEqual([{ key: 'across-restart', replica: 'after' }]);
  });

  it('two replicas (two pools on PostgreSQL) run each due job of many firms once', async () => {
    const second = scratch.url ? await openPostgresDatabase({ url: scratch.url }) : db;
    try {
      const r1 = scheduler(db, 'r1', { concurrency: 3, batchSize: 2 });
      const r2 = scheduler(second, 'r2', { concurrency: 3, batchSize: 2 });
      await Promise.all([r1.tick(), r2.tick()]);
      const targets = firms.slice(10, 20);
      for (const f of targets) {
        await db.forSchema(f.schema).transaction((tx) => queue.scheduleMany(tx, ['x', 'y', 'z'].map((k) => ({ kind: 'remind', key: `${f.shortName}-${k}`, runAt: PAST(), payload: {} }))));
      }
      let total = 0;
      // A firm one replica still holds may be left to a later pass: run until none is due.
      for (let more = 1; more;) {
        more = (await Promise.all([r1.tick(), r2.tick(), r1.tick(), r2.tick()])).reduce((a, b) => a + b, 0);
        total += more;
      }
      expect(total).toBe(30);
      for (const f of targets) {
        const keys = (await fired(f)).map((r) => r.key);
        expect(keys).toEqual([`${f.shortName}-x`, `${f.shortName}-y`, `${f.shortName}-z`]);
      }
    } finally {
      if (second !== db) await second.close();
    }
  });

  it('firms with work run concurrently, never more than the bound at once', async () => {
    let inFlight = 0;
    let most = 0;
    let bothStarted!: () => void;
    const twoInFlight = new Promise<void>((resolve) => { bothStarted = resolve; });
    const { s } = await warm('r1', {
      concurrency: 2,
      handlers: {
        remind: async (tx, job) => {
          inFlight++;
          most = Math.max(most, inFlight);
          if (inFlight === 2) bothStarted();
          // PostgreSQL: the first firm's job waits inside its transaction until a second firm's
          // starts (it would wait forever if firms ran one after another). PGlite runs one
          // transaction at a time, so there only the bound is checked.
          if (target.name === 'postgres') await twoInFlight;
          await tx.query('INSERT INTO fired (key, replica) VALUES ($1, $2)', [job.key, 'bounded']);
          inFlight--;
        },
      },
    });
    const targets = firms.slice(20, 26);
    for (const f of targets) await schedule(f, 'bounded', PAST());
    expect(await s.tick()).toBe(targets.length);
    expect(most).toBeLessThanOrEqual(2);
    if (target.name === 'postgres') expect(most).toBe(2);
    for (const f of targets) expect(await fired(f)).toEqual([{ key: 'bounded', replica: 'bounded' }]);
  });
});
