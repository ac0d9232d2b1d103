import type { SchemaDb } from '../db/database.ts';
import { DUE_INDEX_TABLE, type JobQueue } from '../scheduler/job-queue.ts';

/**
 * Tests only: "the time comes" for pending jobs of a firm (all, or those with `key`), as if
 * their run_at had passed. A job's time is never moved with SQL in the product (the queue's
 * `schedule` keeps the platform's due index in step); a test that fast-forwards must lower the
 * firm's due-index row too, or the scheduler rightly finds the firm idle.
 */
export async function makeJobsDue(firm: SchemaDb, queue: JobQueue, key?: string): Promise<void> {
  await firm.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ${DUE_INDEX_TABLE} AS d (queue, schema_name, next_run_at) VALUES ($1, current_schema(), now() - interval '1 minute')
       ON CONFLICT (queue, schema_name) DO UPDATE SET next_run_at = EXCLUDED.next_run_at`,
      [queue.table],
    );
    await tx.query(
      `UPDATE ${queue.table} SET run_at = now() - interval '1 minute'${key === undefined ? '' : ' WHERE key = $1'}`,
      key === undefined ? [] : [key],
    );
  });
}
