import type { Database, Queryable, SchemaDb } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { DUE_INDEX_TABLE, markClaimTransaction, type DueJob, type JobQueue } from './job-queue.ts';

/** A firm whose schema the scheduler visits. */
export interface ScheduledTenant {
  shortName: string;
  schema: string;
}

/**
 * Runs one job. Its writes go through `tx`, the transaction that also deletes the job's
 * row: they commit together or not at all, so a replica that dies mid-job leaves the row
 * for the next claim and the job's effects happen once. Work outside the database (an
 * email) is at least once: it may repeat if the process dies between it and the commit.
 */
export type JobHandler = (tx: Queryable, job: DueJob, tenant: ScheduledTenant) => Promise<void>;

/**
 * Runs every claimed job of one kind in one call, for work that is cheaper as a set (a
 * morning's reminders over a firm's thousands of requests: a few statements instead of a
 * few per job). The jobs succeed or fail together: on a throw, all are rolled back and retried.
 */
export type BatchJobHandler = (tx: Queryable, jobs: readonly DueJob[], tenant: ScheduledTenant) => Promise<void>;

export interface SchedulerOptions {
  db: Database;
  queue: JobQueue;
  /** The firms to visit (active ones), asked again on every tick. */
  tenants: () => Promise<ScheduledTenant[]>;
  handlers: Record<string, JobHandler>;
  /** Kinds whose claimed jobs run together (BatchJobHandler). */
  batchHandlers?: Record<string, BatchJobHandler>;
  logger: Logger;
  pollMs: number;
  /** Jobs claimed per firm and transaction. */
  batchSize?: number;
  /** Jobs of a batch-handled kind claimed per firm and transaction (they run as one set, so more at once costs little). */
  batchClaimSize?: number;
  /** First retry delay after a failed run; doubles per attempt up to an hour. */
  retryBaseMs?: number;
  /** Firms with due work run at once, at most this many (a morning's reminders over many firms). */
  concurrency?: number;
}

export interface Scheduler {
  /** One pass over the firms with due work; resolves with the number of jobs run. Tests call it directly. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

const MAX_RETRY_MS = 60 * 60_000;

/**
 * DESIGN §7 scheduler: the database is the source of truth, never an in-memory timer.
 * Every `pollMs` each replica claims its firms' due rows with FOR UPDATE SKIP LOCKED (rows
 * another replica holds are skipped, not waited for) and runs each job in a savepoint of the
 * claiming transaction: a job that throws is rolled back alone and its row pushed back with
 * a growing delay; a job that succeeds deletes its row in the same commit as its writes.
 * pg-boss was the alternative, but it needs LISTEN/advisory features and a schema of its
 * own that PGlite (the embedded default) does not give it.
 *
 * A pass does not visit every firm: it asks the platform's due index (job-queue.ts) which
 * firms have something due, in one query, and visits those (up to `concurrency` at once).
 * A firm the index has no row for yet (created or imported since, or an installation from
 * before the index) is visited once; after each visit the firm's row is recomputed from its
 * queue. So an idle installation costs one query per pass, whatever the number of firms.
 */
export function startScheduler(options: SchedulerOptions, autoStart = true): Scheduler {
  const { db, queue, logger } = options;
  const batch = options.batchSize ?? 50;
  const batchClaim = options.batchClaimSize ?? 1000;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  let stopped = false;
  let running: Promise<number> | null = null;

  /** Claims and runs due jobs: of one batch-handled kind, or of any kind. */
  const runBatch = async (firm: ScheduledTenant, schemaDb: SchemaDb, kind?: string): Promise<number> => schemaDb.transaction(async (tx) => {
    markClaimTransaction(tx, queue.table);
    const { rows } = await tx.query<{ id: number; kind: string; key: string; run_at: Date; payload: unknown; attempts: number }>(
      `SELECT id, kind, key, run_at, payload, attempts FROM ${queue.table}
       WHERE run_at <= now()${kind === undefined ? '' : ' AND kind = $2'} ORDER BY run_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      kind === undefined ? [batch] : [batchClaim, kind],
    );
    const jobs = rows.map((row): DueJob => ({ id: Number(row.id), kind: row.kind, key: row.key, runAt: row.run_at, payload: row.payload, attempts: row.attempts }));
    const batched = new Map<string, DueJob[]>();
    for (const job of jobs) if (options.batchHandlers?.[job.kind]) batched.set(job.kind, [...(batched.get(job.kind) ?? []), job]);
    for (const [kind, group] of batched) {
      await tx.query('SAVEPOINT scheduled_job');
      try {
        await options.batchHandlers![kind]!(tx, group, firm);
        await tx.query(`DELETE FROM ${queue.table} WHERE id = ANY($1::bigint[])`, [group.map((j) => j.id)]);
        await tx.query('RELEASE SAVEPOINT scheduled_job');
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT scheduled_job');
        for (const job of group) await retryLater(tx, job, err, firm);
      }
    }
    for (const job of jobs.filter((j) => !batched.has(j.kind))) {
      const handler = options.handlers[job.kind];
      await tx.query('SAVEPOINT scheduled_job');
      try {
        if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
        await handler(tx, job, firm);
        // The handler may have rescheduled the same key (a recurring job): only this run's row goes.
        await tx.query(`DELETE FROM ${queue.table} WHERE id = $1`, [job.id]);
        await tx.query('RELEASE SAVEPOINT scheduled_job');
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT scheduled_job');
        await retryLater(tx, job, err, firm);
      }
    }
    return rows.length;
  });

  const retryLater = async (tx: Queryable, job: DueJob, err: unknown, firm: ScheduledTenant): Promise<void> => {
    const delayMs = Math.min(retryBaseMs * 2 ** job.attempts, MAX_RETRY_MS);
    await tx.query(
      `UPDATE ${queue.table} SET attempts = attempts + 1, last_error = $2, run_at = now() + ($3::int * interval '1 millisecond') WHERE id = $1`,
      [job.id, String(err).slice(0, 2000), delayMs],
    );
    logger.warn({ err: String(err), kind: job.kind, key: job.key, tenant: firm.shortName, attempts: job.attempts + 1 }, 'scheduled job failed; retried later');
  };

  /** Firm schemas whose index row a scheduler has computed (loaded once; any other firm is visited). */
  let indexed: Set<string>;

  /**
   * Sets the firm's index row to its earliest pending job (NULL: none). The row is locked
   * before the queue is read, so a scheduling transaction still in flight either committed
   * its job before the read (and it is counted) or lowers the row after this write (LEAST).
   */
  const recomputeDue = (schemaDb: SchemaDb): Promise<void> => schemaDb.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ${DUE_INDEX_TABLE} (queue, schema_name, next_run_at) VALUES ($1, $2, now()) ON CONFLICT (queue, schema_name) DO NOTHING`,
      [queue.table, schemaDb.schema],
    );
    await tx.query(`SELECT 1 FROM ${DUE_INDEX_TABLE} WHERE queue = $1 AND schema_name = $2 FOR UPDATE`, [queue.table, schemaDb.schema]);
    await tx.query(
      `UPDATE ${DUE_INDEX_TABLE} SET next_run_at = (SELECT min(run_at) FROM ${queue.table}), complete = true WHERE queue = $1 AND schema_name = $2`,
      [queue.table, schemaDb.schema],
    );
  });

  /** Runs everything due in one firm, then recomputes its index row. */
  const visit = async (firm: ScheduledTenant): Promise<number> => {
    const schemaDb = db.forSchema(firm.schema);
    let total = 0;
    try {
      // A full batch may mean more is due: keep going until the firm has nothing due.
      for (const kind of Object.keys(options.batchHandlers ?? {})) {
        for (let n = batchClaim; n === batchClaim && !stopped;) {
          n = await runBatch(firm, schemaDb, kind);
          total += n;
        }
      }
      for (let n = batch; n === batch && !stopped;) {
        n = await runBatch(firm, schemaDb);
        total += n;
      }
      // Stopped mid-firm: the row stays early, and the next start visits the firm again.
      if (!stopped) {
        await recomputeDue(schemaDb);
        indexed.add(firm.schema);
      }
    } catch (err) {
      // A firm whose schema is not migrated yet (created a moment ago) or a lost connection:
      // the rows stay, the index row stays early (or absent), the next tick tries again.
      logger.warn({ err: String(err), tenant: firm.shortName }, 'scheduler pass failed for a firm');
    }
    return total;
  };

  const loadIndexed = async (): Promise<Set<string>> => new Set(
    (await db.query<{ schema_name: string }>(`SELECT schema_name FROM ${DUE_INDEX_TABLE} WHERE queue = $1 AND complete`, [queue.table])).rows.map((r) => r.schema_name),
  );

  const tick = async (): Promise<number> => {
    indexed ??= await loadIndexed();
    const firms = await options.tenants();
    const active = new Set(firms.map((f) => f.schema));
    // A firm that left (suspended, deleted, moved away) and comes back is visited again:
    // its schema may have been replaced (an import) while this replica was not looking.
    for (const schema of indexed) if (!active.has(schema)) indexed.delete(schema);
    const { rows } = await db.query<{ schema_name: string }>(
      `SELECT schema_name FROM ${DUE_INDEX_TABLE} WHERE queue = $1 AND next_run_at <= now()`,
      [queue.table],
    );
    const due = new Set(rows.map((r) => r.schema_name));
    const toVisit = firms.filter((f) => due.has(f.schema) || !indexed.has(f.schema));
    let total = 0;
    let next = 0;
    const worker = async () => {
      while (!stopped && next < toVisit.length) {
        const ran = await visit(toVisit[next++]!);
        total += ran;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, toVisit.length) }, worker));
    return total;
  };

  const loop = async () => {
    while (!stopped) {
      running = tick().catch((err: unknown) => { logger.warn({ err: String(err) }, 'scheduler pass failed'); return 0; });
      await running;
      running = null;
      if (!stopped) await new Promise((resolve) => { timer = setTimeout(resolve, options.pollMs); });
    }
  };
  let timer: NodeJS.Timeout | undefined;
  if (autoStart) void loop();

  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
