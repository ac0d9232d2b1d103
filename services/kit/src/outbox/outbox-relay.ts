import type { Bus, EventEnvelope } from '../bus/bus.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { OUTBOX_TABLE, onEventsEnqueued } from './outbox.ts';

export interface OutboxRelayOptions {
  db: Database;
  bus: Bus;
  logger?: Logger;
  /** How often pending rows are looked for when nobody calls `notify()`. */
  pollIntervalMs: number;
  /** Rows published per bus call (and per transaction). */
  batchSize?: number;
}

export interface OutboxRelay {
  /** Publishes everything pending now; resolves with how many events it published. */
  flush(): Promise<number>;
  /** Asks for a flush soon, without waiting: call it after committing enqueued events. */
  notify(): void;
  /** Stops polling and waits for a running flush. */
  stop(): Promise<void>;
}

/**
 * Moves committed outbox rows to the bus. Each batch is claimed with `FOR UPDATE SKIP
 * LOCKED` in one transaction, published (the bus resolves on publisher confirms) and then
 * deleted, so the table holds only what is still pending. If publishing fails the
 * transaction rolls back and the rows stay for the next poll; if the process dies after
 * the broker confirmed but before the delete commits, the batch is published again —
 * delivery is at-least-once and consumers dedupe on the event id (see inbox.ts).
 * Several relays (replicas, or services sharing the platform schema) can run at once:
 * each skips the rows another has claimed.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, bus, logger, pollIntervalMs } = options;
  const batchSize = options.batchSize ?? 100;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Passes run one after another. A flush asked for while a pass runs gets the next pass
  // (rows committed after the running pass's SELECT are not left for the next poll), and
  // every flush asked for before that next pass starts shares it, so a burst of
  // notify() calls costs one pass, not one each.
  let chain: Promise<unknown> = Promise.resolve();
  let queued: Promise<number> | undefined;

  const publishBatch = (): Promise<number> =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number; event: EventEnvelope }>(
        `SELECT id, event FROM ${OUTBOX_TABLE} ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      await bus.publish(rows.map((r) => r.event));
      await tx.query(`DELETE FROM ${OUTBOX_TABLE} WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });

  const flush = (): Promise<number> => {
    if (queued) return queued;
    const pass = chain.then(async () => {
      queued = undefined;
      let total = 0;
      for (;;) {
        const published = await publishBatch();
        total += published;
        if (published < batchSize) return total;
      }
    });
    queued = pass;
    chain = pass.catch(() => undefined);
    return pass;
  };

  const flushLogged = (): Promise<void> =>
    flush().then(
      () => undefined,
      (err: unknown) => logger?.warn({ err }, 'outbox relay: publish failed, rows stay pending for the next poll'),
    );

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void flushLogged().finally(schedule), pollIntervalMs);
    // Polling alone must not keep a process alive that has nothing else to do.
    timer.unref();
  };
  schedule();
  const notify = (): void => {
    if (!stopped) void flushLogged();
  };
  const unsubscribe = onEventsEnqueued(notify);

  return {
    flush,
    notify,
    stop: async () => {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await chain;
    },
  };
}
