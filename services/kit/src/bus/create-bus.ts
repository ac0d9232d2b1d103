import type { Bus, EventHandler, Subscription } from './bus.ts';
import type { Logger } from '../logger.ts';
import { MemoryBus } from './memory-bus.ts';
import { RabbitMqBus } from './rabbitmq-bus.ts';

export interface BusConfig {
  /** RabbitMQ URL; when absent the in-process bus of the embedded default is used. */
  amqpUrl?: string;
  /**
   * Prefix of the exchange and every queue on the broker, so several portals (test
   * portals, or installations sharing one broker) never consume each other's events.
   */
  namespace?: string;
  /** Seconds after which the broker deletes an unused queue (0 or absent: never; test portals set it). */
  queueExpiresSeconds?: number;
  logger: Logger;
}

/** Picks the adapter from config: RabbitMQ (connected) when a URL is given, the in-process bus otherwise. */
export async function createBus(config: BusConfig): Promise<Bus> {
  if (!config.amqpUrl) return new MemoryBus();
  const prefix = config.namespace ? `${config.namespace}.` : '';
  const bus = await RabbitMqBus.connect({
    url: config.amqpUrl,
    exchange: `${prefix}portal.events`,
    ...(config.queueExpiresSeconds ? { queueExpiresMs: config.queueExpiresSeconds * 1000 } : {}),
    logger: config.logger.child({ component: 'bus' }),
  });
  return prefix ? new NamespacedBus(bus, prefix) : bus;
}

/** The broker bus with its queue names prefixed; everything else passes through. */
class NamespacedBus implements Bus {
  readonly #inner: Bus;
  readonly #prefix: string;
  readonly kind: Bus['kind'];

  constructor(inner: Bus, prefix: string) {
    this.#inner = inner;
    this.#prefix = prefix;
    this.kind = inner.kind;
  }

  publish: Bus['publish'] = (events) => this.#inner.publish(events);
  subscribe = (queue: string, types: readonly string[], handler: EventHandler): Promise<Subscription> =>
    this.#inner.subscribe(`${this.#prefix}${queue}`, types, handler);
  ping: Bus['ping'] = () => this.#inner.ping();
  close: Bus['close'] = () => this.#inner.close();
}
