import type { EventEnvelope } from '../bus/bus.ts';
import type { Queryable } from '../db/database.ts';
import { PLATFORM_SCHEMA, quoteIdent } from '../db/tenant-schema.ts';

/** Anything that can run a transaction: the Database (platform work) or a SchemaDb (tenant work). */
export interface TransactionOwner {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

// Schema-qualified, so the dedupe row lands in the platform schema whatever the search path.
const INBOX_TABLE = `${quoteIdent(PLATFORM_SCHEMA)}.inbox`;

/**
 * Handles `event` at most once per `consumer` (delivery is at-least-once). The dedupe row
 * and the handler's writes commit in ONE transaction of `owner`: pass
 * `db.forSchema(tenantSchema(x))` to have `tx` in the tenant's schema, or `db` for platform
 * work. A duplicate is skipped (resolves false). A handler that throws rolls everything
 * back, the dedupe row included, so the redelivery retries it. A concurrent duplicate
 * waits on the first one's row and is skipped once that commits.
 */
export async function consumeOnce(
  owner: TransactionOwner,
  consumer: string,
  event: EventEnvelope,
  handler: (tx: Queryable) => Promise<void>,
): Promise<boolean> {
  return owner.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO ${INBOX_TABLE} (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [consumer, event.id],
    );
    if (claimed.rowCount === 0) return false;
    await handler(tx);
    return true;
  });
}
