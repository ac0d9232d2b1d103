import type { EventEnvelope } from '../bus/bus.ts';
import type { Queryable } from '../db/database.ts';
import { PLATFORM_SCHEMA, quoteIdent } from '../db/tenant-schema.ts';

/** Schema-qualified, so enqueueing works inside a tenant transaction whatever its search path. */
export const OUTBOX_TABLE = `${quoteIdent(PLATFORM_SCHEMA)}.outbox`;

type EnqueueListener = () => void;
const listeners = new Set<EnqueueListener>();
/** Most transactions commit within this long after their last statement. */
const AFTER_COMMIT_DELAY_MS = 15;

/**
 * Relays in this process hear about enqueued events, so publication does not wait for
 * the next poll; the poll stays as the safety net (rows enqueued by other processes,
 * or a transaction that commits after the signal).
 */
export function onEventsEnqueued(listener: EnqueueListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Records events for publication inside the caller's transaction: the relay sees them
 * only once that transaction commits, and a rollback discards them with the state change
 * they describe.
 */
export async function enqueueEvents(tx: Queryable, events: readonly EventEnvelope[]): Promise<void> {
  if (events.length === 0) return;
  // One statement for the batch; the array order becomes the id order the relay publishes in.
  await tx.query(
    `INSERT INTO ${OUTBOX_TABLE} (event_id, event)
     SELECT e->>'id', e FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n) ORDER BY n`,
    [JSON.stringify(events)],
  );
  if (listeners.size) setTimeout(() => { for (const l of listeners) l(); }, AFTER_COMMIT_DELAY_MS).unref();
}
