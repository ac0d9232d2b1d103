import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { redeliveryDelayMs, type EventEnvelope, type EventHandler } from './bus.ts';
import type { Logger } from '../logger.ts';
import { assertSubscriptionQueue, type SubscriptionTopology } from './rabbitmq-topology.ts';

export interface RabbitMqConsumerOptions extends SubscriptionTopology {
  handler: EventHandler;
  prefetch: number;
  /** Delay before a failed event's first redelivery, doubled per failure (`redeliveryDelayMs`). */
  retryDelayMs: number;
  logger: Logger;
  /** Called when this consumer's channel or consumption ends while the connection stays up. */
  onLost: (model: ChannelModel) => void;
}

/**
 * One subscription's consumer. It outlives connections: the bus calls `start` on every
 * new connection, while handlers that were running on a lost channel finish on their own
 * (their ack is impossible, so the broker redelivers — at-least-once, consumers dedupe).
 */
export class RabbitMqConsumer {
  readonly #options: RabbitMqConsumerOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #channel: Channel | null = null;
  #consumerTag: string | null = null;
  #closed = false;
  /** Failed events waiting for their redelivery delay: each ends its wait at once. */
  readonly #waiting = new Set<() => void>();

  constructor(options: RabbitMqConsumerOptions) {
    this.#options = options;
  }

  async start(model: ChannelModel): Promise<void> {
    if (this.#closed) return;
    const { queue, prefetch, logger, onLost } = this.#options;
    const channel = await model.createChannel();
    channel.on('error', (err: Error) => logger.warn({ err, queue }, 'consumer channel error'));
    channel.on('close', () => {
      if (this.#channel === channel && !this.#closed) onLost(model);
    });
    try {
      await channel.prefetch(prefetch);
      await assertSubscriptionQueue(channel, this.#options);
      const { consumerTag } = await channel.consume(queue, (msg) => this.#receive(model, channel, msg));
      this.#channel = channel;
      this.#consumerTag = consumerTag;
    } catch (err) {
      await channel.close().catch(() => {});
      throw err;
    }
    // close() ran while this start was under way and could not see the new channel.
    if (this.#closed) await channel.close().catch(() => {});
  }

  /** Stops new deliveries, waits for running handlers (their acks still go out), then closes. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#waiting) stop();
    const channel = this.#channel;
    if (channel && this.#consumerTag) {
      // cancel-ok comes after every delivery already sent, so once it resolves #inFlight is complete.
      await channel.cancel(this.#consumerTag).catch(() => {});
    }
    await Promise.allSettled([...this.#inFlight]);
    await channel?.close().catch(() => {});
  }

  #receive(model: ChannelModel, channel: Channel, msg: ConsumeMessage | null): void {
    // null: the broker cancelled the consumer (queue deleted, leader lost); a reconnect re-declares it.
    if (msg === null) {
      if (!this.#closed) this.#options.onLost(model);
      return;
    }
    let event: EventEnvelope;
    try {
      event = JSON.parse(msg.content.toString('utf8')) as EventEnvelope;
    } catch (err) {
      // Unparseable bodies never succeed: straight to the dead letters, no retries.
      this.#options.logger.error({ err, queue: this.#options.queue, messageId: msg.properties.messageId }, 'event is not JSON, dead-lettering it');
      settle(() => channel.nack(msg, false, false));
      return;
    }
    const run = this.#handle(channel, msg, event).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #handle(channel: Channel, msg: ConsumeMessage, event: EventEnvelope): Promise<void> {
    const { handler, logger, queue } = this.#options;
    try {
      await handler(event);
    } catch (err) {
      const redeliveries = Number(msg.properties.headers?.['x-delivery-count'] ?? 0);
      const delayMs = redeliveryDelayMs(redeliveries + 1, this.#options.retryDelayMs);
      logger.warn({ err, queue, eventId: event.id, type: event.type, redeliveries, delayMs }, 'event handler failed, requeueing after a delay');
      // Held unacknowledged meanwhile, so the broker gives this consumer nothing more in its place.
      await new Promise<void>((resolve) => {
        const stop = () => { clearTimeout(timer); this.#waiting.delete(stop); resolve(); };
        const timer = setTimeout(stop, delayMs);
        this.#waiting.add(stop);
      });
      settle(() => channel.nack(msg, false, true));
      return;
    }
    settle(() => channel.ack(msg));
  }
}

/** Acks on a channel that has closed throw; the broker has already requeued those messages. */
function settle(send: () => void): void {
  try {
    send();
  } catch {
    // nothing to do: the message comes again on the next channel
  }
}
