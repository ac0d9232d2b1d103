import { connect, type ChannelModel, type ConfirmChannel, type RecoveringChannelModel } from 'amqplib';
import { DEFAULT_RETRY_DELAY_MS, type Bus, type EventEnvelope, type EventHandler, type Subscription } from './bus.ts';
import type { Logger } from '../logger.ts';
import { Unavailable } from '../errors.ts';
import { RabbitMqConsumer } from './rabbitmq-consumer.ts';
import { assertEventsExchange } from './rabbitmq-topology.ts';

export interface RabbitMqBusOptions {
  url: string;
  logger: Logger;
  /** Topic exchange every event is published to, routing key = event type. */
  exchange?: string;
  /** Unacknowledged deliveries a subscription holds at once. */
  prefetch?: number;
  /** Redeliveries after the first delivery before a failing event is dead-lettered (`x-delivery-limit`). */
  deliveryLimit?: number;
  /** Queues unused this long are deleted by the broker (`x-expires`; test portals only). */
  queueExpiresMs?: number;
  /** Delay before a failed event's first redelivery, doubled per failure up to ten seconds. */
  retryDelayMs?: number;
  /** How long publish and subscribe wait through a broker outage before throwing `Unavailable`. */
  outageTimeoutMs?: number;
  /** Reconnect backoff: the first delay, doubled per attempt (with jitter) up to the maximum. */
  reconnectInitialDelayMs?: number;
  reconnectMaxDelayMs?: number;
  /** Failed connection attempts tolerated at start, so a wrong URL fails the boot instead of hanging it. */
  startupRetries?: number;
}

interface Live {
  model: ChannelModel;
  publisher: ConfirmChannel;
}

interface LiveWaiter {
  resolve: (live: Live) => void;
  reject: (err: Error) => void;
}

/** Pause before re-sending events the broker refused (nack) on a connection that is still up. */
const REPUBLISH_PAUSE_MS = 100;

/**
 * The bus on RabbitMQ. amqplib's recovering connection reconnects with exponential backoff
 * and calls `#setup` on every new connection, which opens the confirm channel and restarts
 * every subscription, so topology and consumers come back after a broker restart. While the
 * broker is away, publish waits for it (bounded by `outageTimeoutMs`) and re-sends whatever
 * was not confirmed: an event counts as published only once the broker confirmed it.
 */
export class RabbitMqBus implements Bus {
  readonly kind = 'rabbitmq' as const;
  readonly #logger: Logger;
  readonly #exchange: string;
  readonly #prefetch: number;
  readonly #deliveryLimit: number;
  readonly #queueExpiresMs: number | undefined;
  readonly #retryDelayMs: number;
  readonly #outageTimeoutMs: number;
  readonly #consumers = new Set<RabbitMqConsumer>();
  readonly #waiters = new Set<LiveWaiter>();
  #connection: RecoveringChannelModel | null = null;
  #live: Live | null = null;
  #closing = false;

  private constructor(options: RabbitMqBusOptions) {
    this.#logger = options.logger;
    this.#exchange = options.exchange ?? 'portal.events';
    this.#prefetch = options.prefetch ?? 16;
    this.#deliveryLimit = options.deliveryLimit ?? 5;
    this.#queueExpiresMs = options.queueExpiresMs;
    this.#retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.#outageTimeoutMs = options.outageTimeoutMs ?? 30_000;
  }

  /** Resolves once connected with the exchange declared; rejects with `Unavailable` after `startupRetries`. */
  static async connect(options: RabbitMqBusOptions): Promise<RabbitMqBus> {
    const bus = new RabbitMqBus(options);
    const connection = await connect(options.url, {
      recovery: {
        initialDelay: options.reconnectInitialDelayMs ?? 100,
        maxDelay: options.reconnectMaxDelayMs ?? 10_000,
        initialMaxRetries: options.startupRetries ?? 5,
        maxRetries: Infinity,
        setup: (model: ChannelModel) => bus.#setup(model),
        // Hand back the connection at once, so the listeners are in place before the first attempt.
        waitForConnect: false,
      },
    });
    bus.#connection = connection;
    bus.#watch(connection);
    try {
      await connection.waitForConnect();
    } catch (err) {
      throw new Unavailable(`Cannot connect to the message broker: ${(err as Error).message}`);
    }
    return bus;
  }

  async publish(events: readonly EventEnvelope[]): Promise<void> {
    if (this.#closing) throw new Error('bus is closed');
    const deadline = Date.now() + this.#outageTimeoutMs;
    let pending = events;
    while (pending.length > 0) {
      const live = await this.#waitForLive(deadline);
      const results = await beforeDeadline(
        Promise.allSettled(pending.map((event) => publishConfirmed(live.publisher, this.#exchange, event))),
        deadline,
        `The message broker did not confirm ${pending.length} event(s) in time`,
      );
      // Unconfirmed events may or may not have arrived; sending them again is safe since consumers dedupe by id.
      pending = pending.filter((_, i) => results[i]?.status === 'rejected');
      if (pending.length === 0) return;
      if (this.#closing) throw new Error('bus is closed');
      this.#logger.warn({ unconfirmed: pending.length }, 'broker did not confirm events, publishing them again');
      if (this.#live === live) await sleep(REPUBLISH_PAUSE_MS);
    }
  }

  async subscribe(queue: string, types: readonly string[], handler: EventHandler): Promise<Subscription> {
    if (this.#closing) throw new Error('bus is closed');
    const consumer = new RabbitMqConsumer({
      exchange: this.#exchange,
      queue,
      types,
      handler,
      prefetch: this.#prefetch,
      deliveryLimit: this.#deliveryLimit,
      ...(this.#queueExpiresMs ? { expiresMs: this.#queueExpiresMs } : {}),
      retryDelayMs: this.#retryDelayMs,
      logger: this.#logger,
      onLost: (model) => this.#recycle(model),
    });
    const live = await this.#waitForLive(Date.now() + this.#outageTimeoutMs);
    // From here on every reconnect restarts it with the others; a failed first start leaves nothing behind.
    this.#consumers.add(consumer);
    try {
      await consumer.start(live.model);
    } catch (err) {
      this.#consumers.delete(consumer);
      await consumer.close();
      throw err;
    }
    return {
      close: async () => {
        this.#consumers.delete(consumer);
        await consumer.close();
      },
    };
  }

  async ping(): Promise<void> {
    if (this.#closing) throw new Error('bus is closed');
    if (!this.#live) throw new Unavailable('The message broker is not connected');
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const consumers = [...this.#consumers];
    this.#consumers.clear();
    await Promise.all(consumers.map((consumer) => consumer.close()));
    for (const waiter of this.#waiters) waiter.reject(new Error('bus is closed'));
    this.#waiters.clear();
    this.#live = null;
    await this.#connection?.close();
  }

  /** Runs on every (re)connection before it counts as live; a throw makes amqplib retry later. */
  async #setup(model: ChannelModel): Promise<void> {
    // The recovering wrapper logs the disconnect; this listener keeps an error during setup from crashing the process.
    model.on('error', () => {});
    model.on('close', () => {
      if (this.#live?.model === model) this.#live = null;
    });
    const publisher = await model.createConfirmChannel();
    publisher.on('error', (err: Error) => this.#logger.warn({ err }, 'publish channel error'));
    publisher.on('close', () => this.#recycle(model));
    await assertEventsExchange(publisher, this.#exchange);
    await Promise.all([...this.#consumers].map((consumer) => consumer.start(model)));
    const live = { model, publisher };
    this.#live = live;
    for (const waiter of this.#waiters) waiter.resolve(live);
    this.#waiters.clear();
  }

  /**
   * A channel died while its connection lives on (a channel error, a cancelled consumer).
   * Closing the connection hands recovery to one place: reconnect, re-declare, restart all.
   */
  #recycle(model: ChannelModel): void {
    if (this.#closing) return;
    if (this.#live?.model === model) this.#live = null;
    model.close().catch(() => {});
  }

  #watch(connection: RecoveringChannelModel): void {
    const logger = this.#logger;
    connection.on('error', (err: Error) => logger.debug({ err }, 'broker connection error'));
    connection.on('disconnect', (err: Error) => logger.warn({ err }, 'lost the message broker, reconnecting'));
    connection.on('connect-failed', (err: Error) => logger.warn({ err }, 'reconnecting to the message broker failed'));
    connection.on('connect', () => logger.info('connected to the message broker'));
  }

  #waitForLive(deadline: number): Promise<Live> {
    if (this.#live) return Promise.resolve(this.#live);
    if (this.#closing) return Promise.reject(new Error('bus is closed'));
    let waiter: LiveWaiter | undefined;
    const reconnected = new Promise<Live>((resolve, reject) => {
      waiter = { resolve, reject };
      this.#waiters.add(waiter);
    });
    return beforeDeadline(reconnected, deadline, 'The message broker is unavailable').finally(() => {
      if (waiter) this.#waiters.delete(waiter);
    });
  }
}

function publishConfirmed(channel: ConfirmChannel, exchange: string, event: EventEnvelope): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const body = Buffer.from(JSON.stringify(event));
    const properties = { persistent: true, messageId: event.id, type: event.type, contentType: 'application/json' };
    // Throws synchronously when the channel is already closed; the caller retries on the next one.
    channel.publish(exchange, event.type, body, properties, (err: unknown) => (err ? reject(err) : resolve()));
  });
}

/** Rejects with `Unavailable` when `deadline` passes first; the timer never outlives the race. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Unavailable(message)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
