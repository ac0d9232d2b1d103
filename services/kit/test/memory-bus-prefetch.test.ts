import { describe, expect, it } from '@jest/globals';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { MEMORY_BUS_PREFETCH, MemoryBus } from '@ledgerline/kit/bus/memory-bus.ts';
import { eventually } from '../src/testing/eventually.ts';

/*
 * The embedded bus runs at most `prefetch` handlers of a subscription at once, as a RabbitMQ
 * subscription's prefetch does: a burst of events waits its turn instead of starting a
 * handler each (which queued every request behind them on the embedded database).
 */
describe('the memory bus\'s prefetch', () => {
  it('runs at most prefetch handlers of a queue at once, and every event in the end, each once', async () => {
    const bus = new MemoryBus({ prefetch: 3 });
    let running = 0;
    let most = 0;
    const handled: string[] = [];
    const releases: (() => void)[] = [];
    await bus.subscribe('slow', ['thing.done'], async (event) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
      handled.push(event.id);
    });
    // Another queue is not held up by this one's slots.
    const other: string[] = [];
    await bus.subscribe('other', ['thing.done'], async (event) => { other.push(event.id); });
    const events = Array.from({ length: 10 }, (_, i) => newEvent('thing.done', 'acme', { i }));
    await bus.publish(events);
    await eventually(async () => expect(other).toHaveLength(10));
    await eventually(async () => expect(releases).toHaveLength(3));
    expect(running).toBe(3);
    // Each handler that ends lets the next event in.
    for (let released = 0; released < 10; released += 1) {
      await eventually(async () => expect(releases.length).toBeGreaterThan(released));
      releases[released]!();
    }
    await eventually(async () => expect(handled).toHaveLength(10));
    expect(most).toBe(3);
    expect(new Set(handled)).toEqual(new Set(events.map((e) => e.id)));
    await bus.close();
  });

  it('closing a subscription drops the deliveries still waiting for a slot', async () => {
    const bus = new MemoryBus({ prefetch: 1 });
    const started: number[] = [];
    let release!: () => void;
    const sub = await bus.subscribe('one', ['thing.done'], async (event) => {
      started.push((event.payload as { i: number }).i);
      await new Promise<void>((resolve) => { release = resolve; });
    });
    await bus.publish([0, 1, 2].map((i) => newEvent('thing.done', 'acme', { i })));
    await eventually(async () => expect(started).toEqual([0]));
    const closed = sub.close();
    release();
    await closed;
    expect(started).toEqual([0]);
    await bus.close();
  });

  it('defaults to RabbitMqBus\'s prefetch', () => {
    expect(MEMORY_BUS_PREFETCH).toBe(16);
  });
});
