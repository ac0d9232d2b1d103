import { afterEach, describe, expect, it } from '@jest/globals';
import { exec } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { newEvent, type EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { lockBroker } from '@ledgerline/kit/bus/rabbitmq-broker-lock.ts';
import { RabbitMqBus, type RabbitMqBusOptions } from '@ledgerline/kit/bus/rabbitmq-bus.ts';
import { rabbitMqSandbox, type RabbitMqSandbox } from '@ledgerline/kit/bus/rabbitmq-sandbox.ts';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { brokerProxy } from '@ledgerline/kit/testing/broker-proxy.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { eventually } from '../src/testing/eventually.ts';

/**
 * Outages of the RabbitMQ bus. Connection loss is simulated with a TCP proxy (runs wherever
 * AMQP_URL is set); the broker restart runs the shell command in AMQP_RESTART_COMMAND, which
 * CI must provide, like the URL itself.
 */
const amqpUrl = realServerUrl('AMQP_URL');
const restartCommand = process.env.AMQP_RESTART_COMMAND;
if (amqpUrl && !restartCommand && process.env.CI === 'true') {
  throw new Error('AMQP_RESTART_COMMAND must be set in CI: the broker restart test has to run');
}

const logger = createLogger('bus-restart');
const RESTART_TIMEOUT_MS = 60_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connectBus(options: RabbitMqBusOptions): Promise<RabbitMqBus> {
  const bus = await RabbitMqBus.connect(options);
  cleanups.push(() => bus.close());
  return bus;
}

function sandbox(url: string): RabbitMqSandbox {
  const box = rabbitMqSandbox(url);
  cleanups.push(() => box.dispose());
  return box;
}

const events = (count: number): EventEnvelope[] =>
  Array.from({ length: count }, (_, n) => newEvent('document.indexed', 'acme', { n }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const disconnected = (bus: RabbitMqBus) => () => bus.ping().then(() => false, (err: unknown) => err instanceof Unavailable);

async function proxied(target: string) {
  const proxy = await brokerProxy(target);
  cleanups.push(() => proxy.close());
  return proxy;
}

describe('RabbitMQ bus outages', () => {
  it('fails fast with Unavailable when no broker answers at start', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const connecting = RabbitMqBus.connect({ url: `amqp://guest:guest@127.0.0.1:${closedPort}`, logger, startupRetries: 1, reconnectInitialDelayMs: 10 });
    await expect(connecting).rejects.toBeInstanceOf(Unavailable);
  });

  if (!amqpUrl) return;

  it('rides out a lost connection: ping fails, publish waits for the broker, the subscription resumes', async () => {
    const box = sandbox(amqpUrl);
    const proxy = await proxied(amqpUrl);
    const bus = await connectBus({ url: proxy.url, exchange: box.exchange, logger, reconnectInitialDelayMs: 50, reconnectMaxDelayMs: 200 });
    const consumed = new Set<string>();
    await bus.subscribe(box.queue('resume'), ['document.indexed'], async (event) => {
      consumed.add(event.id);
    });
    const before = events(5);
    await bus.publish(before);
    await eventually(() => before.every((e) => consumed.has(e.id)));

    proxy.cut();
    await eventually(disconnected(bus));
    const during = events(5);
    let confirmed = false;
    const publishing = bus.publish(during).then(() => (confirmed = true));
    await sleep(300);
    expect(confirmed).toBe(false);

    proxy.restore();
    await publishing;
    await eventually(() => during.every((e) => consumed.has(e.id)));
    await expect(bus.ping()).resolves.toBeUndefined();
  });

  it('gives up on publish with Unavailable when the outage outlasts the timeout, and recovers after', async () => {
    const box = sandbox(amqpUrl);
    const proxy = await proxied(amqpUrl);
    const bus = await connectBus({ url: proxy.url, exchange: box.exchange, logger, outageTimeoutMs: 300, reconnectInitialDelayMs: 50, reconnectMaxDelayMs: 200 });
    proxy.cut();
    await eventually(disconnected(bus));
    await expect(bus.publish(events(1))).rejects.toBeInstanceOf(Unavailable);

    proxy.restore();
    const consumed: string[] = [];
    await eventually(async () => !(await disconnected(bus)()));
    await bus.subscribe(box.queue('after-timeout'), ['document.indexed'], async (event) => {
      consumed.push(event.id);
    });
    const [event] = events(1);
    await bus.publish([event!]);
    await eventually(() => consumed.includes(event!.id));
  });

  if (!restartCommand) return;

  it('loses no confirmed event when the broker restarts mid-flight', async () => {
    // Suites asserting on the broker at the same time would see the restart's redeliveries.
    cleanups.push(await lockBroker(amqpUrl));
    const box = sandbox(amqpUrl);
    // A restart on a busy CI machine (every suite's quorum queues recovering) has taken over the
    // default 30 s; publish must wait through the whole restart, which exec bounds at a minute.
    const bus = await connectBus({
      url: amqpUrl,
      exchange: box.exchange,
      logger,
      outageTimeoutMs: RESTART_TIMEOUT_MS + 30_000,
      reconnectInitialDelayMs: 100,
      reconnectMaxDelayMs: 1_000,
    });
    const consumed = new Set<string>();
    await bus.subscribe(box.queue('restart'), ['document.indexed'], async (event) => {
      await sleep(2); // keeps handlers in flight when the broker goes away
      consumed.add(event.id);
    });

    type Phase = 'before' | 'during' | 'after';
    const now: { phase: Phase } = { phase: 'before' };
    const confirmedIn: Record<Phase, string[]> = { before: [], during: [], after: [] };
    const failures: unknown[] = [];
    let pingFailedDuringRestart = false;
    const publishing = (async () => {
      while (now.phase !== 'after' || confirmedIn.after.length < 50) {
        const startedIn = now.phase;
        const batch = events(20);
        try {
          await bus.publish(batch);
          confirmedIn[startedIn].push(...batch.map((e) => e.id));
        } catch (err) {
          failures.push(err);
        }
        await sleep(5);
      }
    })();

    await eventually(() => confirmedIn.before.length >= 50);
    now.phase = 'during';
    const sampling = (async () => {
      while (now.phase === 'during') {
        await bus.ping().catch(() => (pingFailedDuringRestart = true));
        await sleep(25);
      }
    })();
    await promisify(exec)(restartCommand, { timeout: RESTART_TIMEOUT_MS });
    now.phase = 'after';
    await Promise.all([publishing, sampling]);

    const confirmed = [...confirmedIn.before, ...confirmedIn.during, ...confirmedIn.after];
    await eventually(() => confirmed.every((id) => consumed.has(id)), 20_000);
    expect(failures).toEqual([]);
    expect(pingFailedDuringRestart).toBe(true);
    expect(confirmedIn.during.length).toBeGreaterThan(0);
    await expect(bus.ping()).resolves.toBeUndefined();
  }, RESTART_TIMEOUT_MS * 3);
});
