import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { createBus } from '@ledgerline/kit/bus/create-bus.ts';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';

const logger = createLogger('create-bus', 'silent');

describe('createBus', () => {
  it('is the in-process bus when no broker URL is configured', async () => {
    const bus = await createBus({ logger });
    expect(bus.kind).toBe('memory');
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
  });

  it('connects to RabbitMQ when a URL is configured, failing the boot with Unavailable when nothing answers', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await expect(createBus({ amqpUrl: `amqp://guest:guest@127.0.0.1:${closedPort}`, logger })).rejects.toBeInstanceOf(Unavailable);
  });
});

describe('createBus namespaces', () => {
  const realUrl = realServerUrl('AMQP_URL');
  const brokers: [string, string | undefined][] = [['in-process', undefined], ...(realUrl ? [['rabbitmq', realUrl] as [string, string]] : [])];

  it.each(brokers)('keeps one namespace\'s events away from a same-named queue of another (%s)', async (_kind, amqpUrl) => {
    const ns = randomBytes(4).toString('hex');
    const mine = await createBus({ amqpUrl, namespace: `t-${ns}`, logger });
    const other = await createBus({ amqpUrl, namespace: `t-${ns}-other`, logger });
    try {
      const got: string[] = [];
      const stolen: string[] = [];
      await mine.subscribe('svc.queue', ['ns.ping'], async (e) => { got.push(e.id); });
      await other.subscribe('svc.queue', ['ns.ping'], async (e) => { stolen.push(e.id); });
      const event = newEvent('ns.ping', null, {});
      await mine.publish([event]);
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      expect(got).toEqual([event.id]);
      expect(stolen).toEqual([]);
    } finally {
      await mine.close();
      await other.close();
    }
  });
});
