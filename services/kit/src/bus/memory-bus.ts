import { DEFAULT_RETRY_DELAY_MS, redeliveryDelayMs, type Bus, type EventEnvelope, type EventHandler, type Subscription } from './bus.ts';

const DELIVERY_LIMIT = 5;
/** Handlers a subscription runs at once, as RabbitMqBus's default prefetch (16) allows there. */
export const MEMORY_BUS_PREFETCH = 16;

interface Consumer {
  types: ReadonlySet<string>;
  handler: EventHandler;
  inFlight: Set<Promise<void>>;
  /** Redeliveries waiting for their delay: each ends its wait without delivering. */
  waiting: Set<() => void>;
  /** Handlers running now, and deliveries waiting for one of them to end (first come, first run). */
  running: number;
  backlog: (() => void)[];
  closed: boolean;
}

/**
 * In-process bus for the embedded default: the same at-least-once contract as RabbitMQ.
 * Each queue gets its own copy of every matching event; a failing handler is retried
 * up to the delivery limit, then the event goes to the dead letters (kept for inspection).
 * Like a RabbitMQ subscription's prefetch, each runs at most `prefetch` handlers at once:
 * without that limit, a burst of events (a 5,000-row client import announces 15,000) starts
 * one handler per event and queue at once, and the embedded database, which runs one
 * transaction at a time, serves every request behind all of them.
 */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  readonly deadLetters: { queue: string; event: EventEnvelope; error: string }[] = [];
  #queues = new Map<string, Consumer[]>();
  #closed = false;
  readonly #retryDelayMs: number;
  readonly #prefetch: number;

  constructor(options: { retryDelayMs?: number; prefetch?: number } = {}) {
    this.#retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.#prefetch = options.prefetch ?? MEMORY_BUS_PREFETCH;
  }

  async publish(events: readonly EventEnvelope[]): Promise<void> {
    if (this.#closed) throw new Error('bus is closed');
    for (const event of events) {
      for (const [queue, consumers] of this.#queues) {
        const live = consumers.filter((c) => !c.closed && c.types.has(event.type));
        // Competing consumers on one queue: one of them gets the event, as with a broker.
        const consumer = live[Math.floor(Math.random() * live.length)];
        if (consumer) this.#deliver(queue, consumer, structuredClone(event), 1);
      }
    }
  }

  async subscribe(queue: string, types: readonly string[], handler: EventHandler): Promise<Subscription> {
    const consumer: Consumer = { types: new Set(types), handler, inFlight: new Set(), waiting: new Set(), running: 0, backlog: [], closed: false };
    const list = this.#queues.get(queue) ?? [];
    list.push(consumer);
    this.#queues.set(queue, list);
    return {
      close: async () => {
        consumer.closed = true;
        for (const stop of consumer.waiting) stop();
        for (const next of consumer.backlog.splice(0)) next();
        await Promise.allSettled([...consumer.inFlight]);
      },
    };
  }

  async ping(): Promise<void> {
    if (this.#closed) throw new Error('bus is closed');
  }

  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#queues.values()].flat();
    for (const c of all) {
      c.closed = true;
      for (const stop of c.waiting) stop();
      for (const next of c.backlog.splice(0)) next();
    }
    await Promise.allSettled(all.flatMap((c) => [...c.inFlight]));
  }

  /**
   * Runs `handler` in one of the consumer's `prefetch` slots, waiting for one to free up; a
   * slot freed while deliveries wait passes straight to the first of them. A consumer closed
   * meanwhile runs nothing more (its count no longer matters).
   */
  async #run(consumer: Consumer, handler: () => Promise<void>): Promise<void> {
    if (consumer.running < this.#prefetch) consumer.running += 1;
    else await new Promise<void>((resolve) => consumer.backlog.push(resolve));
    if (consumer.closed) return;
    try {
      await handler();
    } finally {
      const next = consumer.backlog.shift();
      if (next) next();
      else consumer.running -= 1;
    }
  }

  #deliver(queue: string, consumer: Consumer, event: EventEnvelope, attempt: number): void {
    // Deliver asynchronously, like a broker: publish never runs handlers inline. A
    // redelivery waits the same growing delays as on RabbitMQ; closing ends the wait
    // without running the handler (a broker would keep the event for the next consumer).
    const run: Promise<void> = new Promise<boolean>((resolve) => {
      if (attempt === 1) return setImmediate(() => resolve(true));
      const timer = setTimeout(() => { consumer.waiting.delete(stop); resolve(true); }, redeliveryDelayMs(attempt - 1, this.#retryDelayMs));
      const stop = () => { clearTimeout(timer); resolve(false); };
      consumer.waiting.add(stop);
    })
      .then((deliver) => (deliver && !consumer.closed ? this.#run(consumer, () => consumer.handler(event)) : undefined))
      .catch((err: unknown) => {
        // As a quorum queue's x-delivery-limit: the limit counts redeliveries after the first delivery.
        if (attempt > DELIVERY_LIMIT) {
          this.deadLetters.push({ queue, event, error: String(err) });
        } else if (!consumer.closed) {
          this.#deliver(queue, consumer, event, attempt + 1);
        }
      })
      .finally(() => consumer.inFlight.delete(run));
    consumer.inFlight.add(run);
  }
}
