import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';

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
  return {
    table,
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
      await tx.query(`INSERT INTO ${table} (kind, key, run_at, payload) VALUES ($1, $2, $3, $4::jsonb) ${upsert}`, [r.kind, r.key, r.run_at, JSON.stringify(r.payload)]);
    },
    async scheduleMany(tx, jobs) {
      if (!jobs.length) return;
      await tx.query(
        `INSERT INTO ${table} (kind, key, run_at, payload)
         SELECT j.kind, j.key, j.run_at, j.payload FROM jsonb_to_recordset($1::jsonb) AS j(kind text, key text, run_at timestamptz, payload jsonb) ${upsert}`,
        [JSON.stringify(jobs.map(row))],
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
