import { connect, type Channel } from 'amqplib';
import type { EventEnvelope } from './bus.ts';
import { deadLetterExchangeName, deadLetterQueueName } from './rabbitmq-topology.ts';

/**
 * Throwaway topology for suites that run against a real broker (test support lives in
 * kit's src, like testing/real-servers.ts, so every package's suites can use it): random
 * names so parallel runs never collide, and `dispose` deletes everything it named.
 */
export interface RabbitMqSandbox {
  readonly exchange: string;
  /** A fresh queue name; `dispose` deletes it and its DLQ. */
  queue(label: string): string;
  /** Takes the events dead-lettered from `queue` out of its DLQ. */
  takeDeadLetters(queue: string): Promise<EventEnvelope[]>;
  /** Messages ready in `queue`, i.e. published or returned but not held by a consumer. */
  readyCount(queue: string): Promise<number>;
  dispose(): Promise<void>;
}

export function rabbitMqSandbox(url: string): RabbitMqSandbox {
  const id = crypto.randomUUID().slice(0, 8);
  const exchange = `test.${id}.events`;
  const queues: string[] = [];

  // A connection per operation: the suites restart the broker, a long-lived one would be stale.
  async function withChannel<T>(fn: (channel: Channel) => Promise<T>): Promise<T> {
    const connection = await connect(url);
    try {
      return await fn(await connection.createChannel());
    } finally {
      await connection.close();
    }
  }

  return {
    exchange,
    queue(label) {
      const name = `test.${id}.${label}`;
      queues.push(name);
      return name;
    },
    takeDeadLetters: (queue) =>
      withChannel(async (channel) => {
        const events: EventEnvelope[] = [];
        for (let msg = await channel.get(deadLetterQueueName(queue), { noAck: true }); msg; msg = await channel.get(deadLetterQueueName(queue), { noAck: true })) {
          events.push(JSON.parse(msg.content.toString('utf8')) as EventEnvelope);
        }
        return events;
      }),
    readyCount: (queue) => withChannel(async (channel) => (await channel.checkQueue(queue)).messageCount),
    dispose: () =>
      withChannel(async (channel) => {
        for (const queue of queues) {
          await channel.deleteQueue(queue);
          await channel.deleteQueue(deadLetterQueueName(queue));
        }
        await channel.deleteExchange(exchange);
        await channel.deleteExchange(deadLetterExchangeName(exchange));
      }),
  };
}
