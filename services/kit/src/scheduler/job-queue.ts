import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import { PLATFORM_SCHEMA } from '../db/tenant-schema.ts';

/**
 * The platform-level due index (one row per queue and firm schema): the earliest time at
 * which the firm's queue may have a job due, or NULL when the firm's queue is known to be
 * empty. Schedulers read it in one query per pass instead of visiting every firm, so an idle
 * installation costs one statement per pass whatever the number of firms.
 *
 * Invariant: `next_run_at` is at or before the earliest pending job of the firm's queue.
 * Scheduling a job lowers it in the same transaction (LEAST); moving a job later or
 * cancelling it leaves it early, which costs one visit that finds nothing due and then
 * recomputes the row (scheduler.ts). An early value is harmless; a late one would lose a job.
 * So write jobs through `schedule`/`scheduleMany` (a migration can call them in its `run`):
 * a row a migration inserts with SQL into a firm whose index row is complete is not seen
 * until something else makes the firm due.
 */
export const DUE_INDEX_TABLE = `${PLATFORM_SCHEMA}.scheduled_job_due`;

/** Platform migration of the due index, shared by every queue (one history entry, applied once). */
export const jobDueIndexMigrations: ServiceMigrations = {
  service: 'kit-job-due-index',
  scope: 'platform',
  migrations: [{
    id: '001_scheduled_job_due',
    sql: `CREATE TABLE scheduled_job_due (
      queue text NOT NULL,
      schema_name text NOT NULL,
      next_run_at timestamptz,
      -- false until a scheduler has computed the row from the firm's whole queue: a row that only
      -- scheduling made may miss jobs written otherwise (a tenant migration's INSERT).
      complete boolean NOT NULL DEFAULT false,
      PRIMARY KEY (queue, schema_name)
    );
    -- The schedulers' only question: which firms of my queue have something due now.
    CREATE INDEX scheduled_job_due_next ON scheduled_job_due (queue, next_run_at) WHERE next_run_at IS NOT NULL`,
  }],
};

/**
 * Transactions in which the scheduler runs a queue's claimed jobs. A job that reschedules
 * itself there need not touch the due index: the scheduler recomputes the firm's row right
 * after the claim commits. Skipping it also keeps a claim transaction (which holds job rows)
 * from ever waiting on the index row that a request's transaction holds while it waits on
 * one of those job rows.
 */
const claimTransactions = new WeakMap<Queryable, string>();

/** Marks `tx` as the scheduler's claim transaction for `table` (scheduler.ts only). */
export function markClaimTransaction(tx: Queryable, table: string): void {
  claimTransactions.set(tx, table);
}

/** A row of a service's job table, as a handler receives it. */
export interface DueJob<P = unknown> {
  id: number;
  kind: string;
  key: string;
  runAt: Date;
  payload: P;
  /** Failed runs so far (0 on the first run). */
  attempts: number;
}

export interface JobInput<P = unknown> {
  kind: string;
  runAt: Date | string;
  payload: P;
  /**
   * Names the job so it can be moved or cancelled, and so scheduling it again replaces the
   * pending one instead of adding a second (`reminder:task:42`). Without one, every call adds a job.
   */
  key?: string;
}

/**
 * The durable due rows of one service (DESIGN §7 scheduler), in every firm's schema:
 * reminders, overdue checks, emails to send, nightly work. A row exists until its job has
 * run; the scheduler (scheduler.ts) claims due rows with FOR UPDATE SKIP LOCKED, so each
 * runs on one replica, and deletes it in the transaction that holds the job's writes.
 */
export interface JobQueue {
  /** Tenant-scoped table `<service>_jobs`: include in the service's migrations. */
  migrations: ServiceMigrations;
  /** The platform's due index (the same set for every queue): include it too. */
  dueIndexMigrations: ServiceMigrations;
  /** The queue's name in the due index (its table's name). */
  readonly table: string;
  /** Adds (or, with a key already pending, moves and replaces) a job, inside the caller's transaction. */
  schedule(tx: Queryable, job: JobInput): Promise<void>;
  /** The same for many jobs in one statement (a year of tracker items arms thousands of reminders). */
  scheduleMany(tx: Queryable, jobs: readonly JobInput[]): Promise<void>;
  /** Drops the pending job with this key, if any. */
  cancel(tx: Queryable, key: string): Promise<void>;
  /** The same for many keys in one statement. */
  cancelMany(tx: Queryable, keys: readonly string[]): Promise<void>;
}

export function createJobQueue(service: string): JobQueue {
  if (!/^[a-z][a-z0-9_]*$/.test(service)) throw new Error(`Invalid service name for a table: ${service}`);
  const table = `${service}_jobs`;
  const upsert = `ON CONFLICT (key) DO UPDATE SET kind = EXCLUDED.kind, run_at = EXCLUDED.run_at, payload = EXCLUDED.payload, attempts = 0, last_error = NULL`;
  const row = (job: JobInput) => ({
    kind: job.kind, key: job.key ?? `${job.kind}:${randomUUID()}`, run_at: job.runAt instanceof Date ? job.runAt.toISOString() : job.runAt, payload: job.payload,
  });
  /**
   * Lowers the firm's due-index row to `runAt` in the caller's transaction. It runs before the
   * job rows are written, so a transaction that holds a job row of this firm also holds (or
   * never needs) the index row: two scheduling transactions queue on the index row rather
   * than deadlock over each other's job rows.
   */
  const lowerDueIndex = async (tx: Queryable, runAts: readonly string[]): Promise<void> => {
    if (claimTransactions.get(tx) === table) return;
    await tx.query(
      `INSERT INTO ${DUE_INDEX_TABLE} AS d (queue, schema_name, next_run_at)
       SELECT $1, current_schema(), min(t) FROM unnest($2::timestamptz[]) AS t
       ON CONFLICT (queue, schema_name) DO UPDATE SET next_run_at = LEAST(d.next_run_at, EXCLUDED.next_run_at)
       WHERE d.next_run_at IS NULL OR d.next_run_at > EXCLUDED.next_run_at`,
      [table, runAts],
    );
  };
  return {
    table,
    dueIndexMigrations: jobDueIndexMigrations,
    migrations: {
      service: `${service}-jobs`,
      scope: 'tenant',
      migrations: [{
        id: '001_jobs',
        sql: `CREATE TABLE ${table} (
          id bigserial PRIMARY KEY,
          kind text NOT NULL,
          key text NOT NULL UNIQUE,
          run_at timestamptz NOT NULL,
          payload jsonb NOT NULL,
          attempts integer NOT NULL DEFAULT 0,
          last_error text,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        -- The scheduler's only question: what is due now, oldest first.
        CREATE INDEX ${table}_due ON ${table} (run_at, id)`,
      }],
    },
    async schedule(tx, job) {
      const r = row(job);
      await lowerDueIndex(tx, [r.run_at]);
      await tx.query(`INSERT INTO ${table} (kind, key, run_at, payload) VALUES ($1, $2, $3, $4::jsonb) ${upsert}`, [r.kind, r.key, r.run_at, JSON.stringify(r.payload)]);
    },
    async scheduleMany(tx, jobs) {
      if (!jobs.length) return;
      const rows = jobs.map(row);
      await lowerDueIndex(tx, rows.map((r) => r.run_at));
      await tx.query(
        `INSERT INTO ${table} (kind, key, run_at, payload)
         SELECT j.kind, j.key, j.run_at, j.payload FROM jsonb_to_recordset($1::jsonb) AS j(kind text, key text, run_at timestamptz, payload jsonb) ${upsert}`,
        [JSON.stringify(rows)],
      );
    },
    async cancel(tx, key) {
      await tx.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    },
    async cancelMany(tx, keys) {
      if (keys.length) await tx.query(`DELETE FROM ${table} WHERE key = ANY($1::text[])`, [keys]);
    },
  };
}
