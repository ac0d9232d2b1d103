import type { Channel } from 'amqplib';

/**
 * Where events live on the broker. One durable topic exchange carries every event with
 * its type as routing key; each subscribing service owns a durable quorum queue bound to
 * the types it consumes. Quorum queues count redeliveries, so a message that keeps
 * failing is dead-lettered (through `<exchange>.dlx`) into `<queue>.dlq` after the
 * delivery limit instead of looping forever.
 */
export const deadLetterExchangeName = (exchange: string): string => `${exchange}.dlx`;
export const deadLetterQueueName = (queue: string): string => `${queue}.dlq`;

export async function assertEventsExchange(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

export interface SubscriptionTopology {
  exchange: string;
  queue: string;
  types: readonly string[];
  /** Redeliveries a message gets after its first delivery before it is dead-lettered. */
  deliveryLimit: number;
  /**
   * When set, the broker deletes the queue and its DLQ once nobody has used them this long
   * (`x-expires`): a test portal's queues go soon after it stops, instead of piling up as
   * thousands of quorum queues on the run's broker. Installations leave it unset.
   */
  expiresMs?: number;
}

export async function assertSubscriptionQueue(channel: Channel, topology: SubscriptionTopology): Promise<void> {
  const { exchange, queue, types, deliveryLimit, expiresMs } = topology;
  const expiry = expiresMs ? { 'x-expires': expiresMs } : {};
  const dlx = deadLetterExchangeName(exchange);
  const dlq = deadLetterQueueName(queue);
  await assertEventsExchange(channel, exchange);
  await channel.assertExchange(dlx, 'direct', { durable: true });
  // Quorum too, so dead letters survive the loss of a node like the events they came from.
  await channel.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum', ...expiry } });
  await channel.bindQueue(dlq, dlx, queue);
  await channel.assertQueue(queue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': deliveryLimit,
      'x-dead-letter-exchange': dlx,
      // Route by queue name: two queues may consume the same type, each has its own DLQ.
      'x-dead-letter-routing-key': queue,
      ...expiry,
    },
  });
  for (const type of types) await channel.bindQueue(queue, exchange, type);
}
