import { describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo } from 'node:net';
import { createBus } from '@ledgerline/kit/bus/create-bus.ts';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';

const logger = createLogger('create-bus');

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
