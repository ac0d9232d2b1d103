import type { EventEnvelope } from '../bus/bus.ts';
import type { Queryable } from '../db/database.ts';
import { PLATFORM_SCHEMA, quoteIdent } from '../db/tenant-schema.ts';

/** Schema-qualified, so enqueueing works inside a tenant transaction whatever its search path. */
export const OUTBOX_TABLE = `${quoteIdent(PLATFORM_SCHEMA)}.outbox`;

/**
 * Records events for publication inside the caller's transaction: the relay sees them
 * only once that transaction commits, and a rollback discards them with the state change
 * they describe. Call the relay's `notify()` after the commit to publish without waiting
 * for the next poll.
 */
export async function enqueueEvents(tx: Queryable, events: readonly EventEnvelope[]): Promise<void> {
  if (events.length === 0) return;
  // One statement for the batch; the array order becomes the id order the relay publishes in.
  await tx.query(
    `INSERT INTO ${OUTBOX_TABLE} (event_id, event)
     SELECT e->>'id', e FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n) ORDER BY n`,
    [JSON.stringify(events)],
  );
}
