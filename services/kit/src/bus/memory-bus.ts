import { DEFAULT_RETRY_DELAY_MS, redeliveryDelayMs, type Bus, type EventEnvelope, type EventHandler, type Subscription } from './bus.ts';

const DELIVERY_LIMIT = 5;

interface Consumer {
  types: ReadonlySet<string>;
  handler: EventHandler;
  inFlight: Set<Promise<void>>;
  /** Redeliveries waiting for their delay: each ends its wait without delivering. */
  waiting: Set<() => void>;
  closed: boolean;
}

/**
 * In-process bus for the embedded default: the same at-least-once contract as RabbitMQ.
 * Each queue gets its own copy of every matching event; a failing handler is retried
 * up to the delivery limit, then the event goes to the dead letters (kept for inspection).
 */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  readonly deadLetters: { queue: string; event: EventEnvelope; error: string }[] = [];
  #queues = new Map<string, Consumer[]>();
  #closed = false;
  readonly #retryDelayMs: number;

  constructor(options: { retryDelayMs?: number } = {}) {
    this.#retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
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
    const consumer: Consumer = { types: new Set(types), handler, inFlight: new Set(), waiting: new Set(), closed: false };
    const list = this.#queues.get(queue) ?? [];
    list.push(consumer);
    this.#queues.set(queue, list);
    return {
      close: async () => {
        consumer.closed = true;
        for (const stop of consumer.waiting) stop();
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
    }
    await Promise.allSettled(all.flatMap((c) => [...c.inFlight]));
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
      .then((deliver) => (deliver && !consumer.closed ? consumer.handler(event) : undefined))
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
