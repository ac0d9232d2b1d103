import type { Bus } from './bus.ts';
import type { Logger } from '../logger.ts';
import { MemoryBus } from './memory-bus.ts';
import { RabbitMqBus } from './rabbitmq-bus.ts';

export interface BusConfig {
  /** RabbitMQ URL; when absent the in-process bus of the embedded default is used. */
  amqpUrl?: string;
  logger: Logger;
}

/** Picks the adapter from config: RabbitMQ (connected) when a URL is given, the in-process bus otherwise. */
export async function createBus(config: BusConfig): Promise<Bus> {
  if (!config.amqpUrl) return new MemoryBus();
  return RabbitMqBus.connect({ url: config.amqpUrl, logger: config.logger.child({ component: 'bus' }) });
}
