import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { connect } from 'amqplib';
import { newEvent, type Bus, type EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { MemoryBus } from '@ledgerline/kit/bus/memory-bus.ts';
import { lockBroker } from '@ledgerline/kit/bus/rabbitmq-broker-lock.ts';
import { RabbitMqBus } from '@ledgerline/kit/bus/rabbitmq-bus.ts';
import { rabbitMqSandbox } from '@ledgerline/kit/bus/rabbitmq-sandbox.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { eventually } from '../src/testing/eventually.ts';

/** Both buses' default: redeliveries after the first delivery before an event is dead-lettered. */
const DELIVERY_LIMIT = 5;
/** Short redelivery delays, so a poison event is dead-lettered within a second (20 + 40 + 80 + 160 + 320 ms). */
const RETRY_DELAY_MS = 20;

interface BusUnderTest {
  bus: Bus;
  queue(label: string): string;
  deadLetters(queue: string): Promise<EventEnvelope[]>;
  /** Broker only: messages still waiting in the queue (an unacked delivery returns there on close). */
  readyCount?: (queue: string) => Promise<number>;
  dispose(): Promise<void>;
}

function memoryBus(): Promise<BusUnderTest> {
  const bus = new MemoryBus({ retryDelayMs: RETRY_DELAY_MS });
  return Promise.resolve({
    bus,
    queue: (label) => `${label}.${crypto.randomUUID()}`,
    deadLetters: async (queue) => bus.deadLetters.filter((d) => d.queue === queue).map((d) => d.event),
    dispose: () => bus.close(),
  });
}

async function rabbitMqBus(url: string): Promise<BusUnderTest> {
  // Never beside the restart suite: a broker restart redelivers, which breaks "handled once" here.
  const unlock = await lockBroker(url);
  const sandbox = rabbitMqSandbox(url);
  const bus = await RabbitMqBus.connect({ url, exchange: sandbox.exchange, logger: createLogger('bus-contract'), retryDelayMs: RETRY_DELAY_MS }).catch(async (err: unknown) => {
    await unlock();
    throw err;
  });
  const deadLetters = new Map<string, EventEnvelope[]>();
  return {
    bus,
    queue: (label) => sandbox.queue(label),
    // The DLQ is consumed destructively, so keep what was read for later polls.
    deadLetters: async (queue) => {
      const seen = [...(deadLetters.get(queue) ?? []), ...(await sandbox.takeDeadLetters(queue))];
      deadLetters.set(queue, seen);
      return seen;
    },
    readyCount: (queue) => sandbox.readyCount(queue),
    dispose: async () => {
      try {
        await bus.close();
        await sandbox.dispose();
      } finally {
        await unlock();
      }
    },
  };
}

const implementations: [string, () => Promise<BusUnderTest>][] = [['memory', memoryBus]];
const amqpUrl = realServerUrl('AMQP_URL');
if (amqpUrl) implementations.push(['rabbitmq', () => rabbitMqBus(amqpUrl)]);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Long enough for a wrongly routed or repeated delivery to show up after the expected ones. */
const QUIET_MS = 200;

describe.each(implementations)('%s bus contract', (_name, open) => {
  let t: BusUnderTest;
  beforeEach(async () => {
    t = await open();
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('delivers a copy of an event to every queue subscribed to its type', async () => {
    const [files, activity] = [t.queue('files'), t.queue('activity')];
    const received: Record<string, string[]> = { [files]: [], [activity]: [] };
    for (const queue of [files, activity]) {
      await t.bus.subscribe(queue, ['client.created'], async (event) => {
        received[queue]!.push(event.id);
      });
    }
    const event = newEvent('client.created', 'acme', { clientId: 'c1' });
    await t.bus.publish([event]);

    await eventually(() => received[files]!.length > 0 && received[activity]!.length > 0);
    await sleep(QUIET_MS);
    expect(received).toEqual({ [files]: [event.id], [activity]: [event.id] });
  });

  it('does not deliver types the queue did not subscribe to, and keeps the envelope intact', async () => {
    const queue = t.queue('tasks');
    const received: EventEnvelope[] = [];
    await t.bus.subscribe(queue, ['task.created'], async (event) => {
      received.push(event);
    });
    const unwanted = newEvent('file.uploaded', 'acme', { fileId: 'f1' });
    const wanted = newEvent('task.created', null, { taskId: 't1', tags: ['a', 'b'] });
    await t.bus.publish([unwanted, wanted]);

    await eventually(() => received.length > 0);
    await sleep(QUIET_MS);
    expect(received).toEqual([wanted]);
  });

  it('redelivers an event whose handler failed, until it succeeds (at-least-once)', async () => {
    const queue = t.queue('retry');
    let attempts = 0;
    const handled: string[] = [];
    await t.bus.subscribe(queue, ['user.created'], async (event) => {
      attempts += 1;
      if (attempts === 1) throw new Error('database briefly unavailable');
      handled.push(event.id);
    });
    const event = newEvent('user.created', 'acme', { userId: 'u1' });
    await t.bus.publish([event]);

    await eventually(() => handled.length > 0);
    await sleep(QUIET_MS);
    expect(handled).toEqual([event.id]);
    expect(attempts).toBe(2);
    expect(await t.deadLetters(queue)).toEqual([]);
  });

  it('waits longer before each redelivery, so a handler failing through a brief outage succeeds instead of being dead-lettered', async () => {
    const queue = t.queue('outage');
    // Far longer than immediate retries would last, well within the delays (the fifth redelivery comes after 620 ms).
    const outageEndsAt = Date.now() + 200;
    const attemptsAt: number[] = [];
    const handled: string[] = [];
    await t.bus.subscribe(queue, ['report.generated'], async (event) => {
      attemptsAt.push(Date.now());
      if (Date.now() < outageEndsAt) throw new Error('database restarting');
      handled.push(event.id);
    });
    const event = newEvent('report.generated', 'acme', { n: 1 });
    await t.bus.publish([event]);
    await eventually(() => handled.length === 1, 10_000);
    expect(handled).toEqual([event.id]);
    expect(await t.deadLetters(queue)).toEqual([]);
    // Each wait at least doubles: 1, 2, 4, 8… times RETRY_DELAY_MS.
    const waits = attemptsAt.slice(1).map((at, i) => at - attemptsAt[i]!);
    waits.forEach((wait, i) => expect(wait).toBeGreaterThanOrEqual(RETRY_DELAY_MS * 2 ** i - 1));
  });

  it('dead-letters a poison event after the delivery limit without blocking the others', async () => {
    const queue = t.queue('poison');
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    await t.bus.subscribe(queue, ['report.generated'], async (event) => {
      attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
      if ((event.payload as { poison: boolean }).poison) throw new Error('cannot ever handle this');
      handled.push(event.id);
    });
    const poison = newEvent('report.generated', 'acme', { poison: true });
    const healthy = newEvent('report.generated', 'acme', { poison: false });
    await t.bus.publish([poison, healthy]);

    let deadLetters: EventEnvelope[] = [];
    await eventually(async () => (deadLetters = await t.deadLetters(queue)).length > 0);
    await sleep(QUIET_MS);
    expect(deadLetters).toEqual([poison]);
    expect(attempts.get(poison.id)).toBe(1 + DELIVERY_LIMIT);
    expect(handled).toEqual([healthy.id]);
  });

  it('shares a queue between competing consumers, each event handled once', async () => {
    const queue = t.queue('workers');
    const byConsumer: [string[], string[]] = [[], []];
    for (const handled of byConsumer) {
      await t.bus.subscribe(queue, ['file.uploaded'], async (event) => {
        handled.push(event.id);
        await sleep(5);
      });
    }
    const events = Array.from({ length: 20 }, (_, i) => newEvent('file.uploaded', 'acme', { n: i }));
    await t.bus.publish(events);

    const all = () => [...byConsumer[0], ...byConsumer[1]];
    await eventually(() => new Set(all()).size === events.length);
    await sleep(QUIET_MS);
    expect(all().sort()).toEqual(events.map((e) => e.id).sort());
    expect(byConsumer[0].length).toBeGreaterThan(0);
    expect(byConsumer[1].length).toBeGreaterThan(0);
  });

  it('close() waits for an in-flight handler to finish before it resolves', async () => {
    const queue = t.queue('shutdown');
    const steps: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await t.bus.subscribe(queue, ['tenant.created'], async () => {
      steps.push('handler started');
      await released;
      steps.push('handler finished');
    });
    await t.bus.publish([newEvent('tenant.created', null, { shortName: 'acme' })]);
    await eventually(() => steps.length > 0);

    const closed = t.bus.close().then(() => steps.push('bus closed'));
    await sleep(QUIET_MS);
    expect(steps).toEqual(['handler started']);
    release();
    await closed;
    expect(steps).toEqual(['handler started', 'handler finished', 'bus closed']);
    // The ack went out before the connection closed: nothing was returned to the queue.
    if (t.readyCount) expect(await t.readyCount(queue)).toBe(0);
    await expect(t.bus.ping()).rejects.toThrow('bus is closed');
  });
});

if (amqpUrl) {
  describe('rabbitmq queues of a test portal', () => {
    it('are deleted by the broker, with their dead-letter queue, once unused for the expiry the bus was given', async () => {
      const sandbox = rabbitMqSandbox(amqpUrl);
      const bus = await RabbitMqBus.connect({ url: amqpUrl, exchange: sandbox.exchange, logger: createLogger('bus-expiry', 'silent'), queueExpiresMs: 1_000 });
      const queue = sandbox.queue('expiring');
      try {
        const subscription = await bus.subscribe(queue, ['tenant.created'], async () => {});
        // While consumed it stays, however long.
        await sleep(1_500);
        expect(await sandbox.readyCount(queue)).toBe(0);
        await subscription.close();
        // checkQueue on a missing queue closes its channel with an error event: listened to here.
        const exists = async (name: string) => {
          const connection = await connect(amqpUrl);
          try {
            const channel = await connection.createChannel();
            channel.on('error', () => {});
            return await channel.checkQueue(name).then(() => true, () => false);
          } finally {
            await connection.close();
          }
        };
        await eventually(async () => expect([await exists(queue), await exists(`${queue}.dlq`)]).toEqual([false, false]), 30_000, 250);
      } finally {
        await bus.close();
        await sandbox.dispose().catch(() => {});
      }
    });
  });
}
