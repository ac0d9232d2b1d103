import { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '../src/bus/bus.ts';
import { newEvent } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory-bus.ts';
import type { Database, Queryable } from '../src/db/database.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { migratePlatform, migrateTenant, type ServiceMigrations } from '../src/db/migrations.ts';
import { enqueueEvents } from '../src/outbox/outbox.ts';
import { outboxMigrations } from '../src/outbox/outbox.migrations.ts';
import { startOutboxRelay, type OutboxRelay } from '../src/outbox/outbox-relay.ts';
import { consumeOnce } from '../src/outbox/inbox.ts';
import { eventually } from '../src/testing/eventually.ts';

/** A MemoryBus whose next `failures` publishes are refused, as a broker without confirms would. */
class FlakyBus extends MemoryBus {
  failures = 0;
  /** Refuses every publish while set (an outage of unknown length). */
  down = false;
  override async publish(events: readonly EventEnvelope[]): Promise<void> {
    if (this.down) throw new Error('broker did not confirm');
    if (this.failures > 0) {
      this.failures--;
      throw new Error('broker did not confirm');
    }
    return super.publish(events);
  }
}

const ledgerMigrations: ServiceMigrations = {
  service: 'ledger',
  scope: 'tenant',
  migrations: [{ id: '001_create_entries', sql: 'CREATE TABLE entries (id text PRIMARY KEY, note text NOT NULL)' }],
};

/** Lets deliveries already scheduled by the bus run, so "nothing more arrived" is meaningful. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(databaseTargets())('Outbox and inbox contract ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let bus: FlakyBus;
  let relay: OutboxRelay;
  let received: EventEnvelope[];
  const tenant = `t_outbox_${randomBytes(4).toString('hex')}`;
  const otherTenant = `t_other_${randomBytes(4).toString('hex')}`;

  const pending = async () => (await db.query<{ c: number }>('SELECT count(*) AS c FROM portal.outbox')).rows[0]?.c;
  const receivedIds = () => received.map((e) => e.id);

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [outboxMigrations]);
    await migrateTenant(db, tenant, [ledgerMigrations]);
    await migrateTenant(db, otherTenant, [ledgerMigrations]);
  });

  afterAll(async () => {
    await scratch.drop();
  });

  beforeEach(async () => {
    bus = new FlakyBus();
    received = [];
    await bus.subscribe('test-queue', ['entry.added', 'entry.noted'], async (event) => {
      received.push(event);
    });
    // A long poll interval: these tests drive publication with flush()/notify().
    relay = startOutboxRelay({ db, bus, pollIntervalMs: 60_000 });
  });

  afterEach(async () => {
    await relay.stop();
    await bus.close();
    await db.query('DELETE FROM portal.outbox');
  });

  describe('relay', () => {
    it('publishes an event enqueued in a committed transaction exactly once and removes the row', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'e1' });
      await db.forSchema(tenant).transaction(async (tx) => {
        await tx.query("INSERT INTO entries (id, note) VALUES ('e1', 'first')");
        await enqueueEvents(tx, [event]);
      });
      // This flush, or the one the in-process enqueue signal started, publishes it; a second finds nothing.
      await relay.flush();
      expect(await relay.flush()).toBe(0);
      await eventually(() => expect(receivedIds()).toEqual([event.id]));
      await settle();
      expect(received).toEqual([event]);
      expect(await pending()).toBe(0);
    });

    it('never publishes an event enqueued in a rolled-back transaction', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'e2' });
      await expect(
        db.forSchema(tenant).transaction(async (tx) => {
          await enqueueEvents(tx, [event]);
          throw new Error('business rule failed');
        }),
      ).rejects.toThrow('business rule failed');
      expect(await relay.flush()).toBe(0);
      await settle();
      expect(received).toEqual([]);
      expect(await pending()).toBe(0);
    });

    it('publishes pending events in enqueue order across transactions', async () => {
      const first = [1, 2, 3].map((n) => newEvent('entry.added', 'acme', { n }));
      const second = [4, 5].map((n) => newEvent('entry.noted', null, { n }));
      await db.transaction((tx) => enqueueEvents(tx, first));
      await db.forSchema(tenant).transaction((tx) => enqueueEvents(tx, second));
      // The enqueue signal may start a pass between the two commits: passes follow one
      // another, and each publishes in enqueue order.
      await relay.flush();
      expect(await pending()).toBe(0);
      await eventually(() => expect(received).toHaveLength(5));
      expect(received.map((e) => (e.payload as { n: number }).n)).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps the rows when publishing fails and publishes them on a later flush', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'e3' });
      // Down for every attempt, including the flush the in-process enqueue signal starts.
      bus.down = true;
      await db.transaction((tx) => enqueueEvents(tx, [event]));
      await expect(relay.flush()).rejects.toThrow('broker did not confirm');
      await settle();
      expect(await pending()).toBe(1);
      expect(received).toEqual([]);
      bus.down = false;

      expect(await relay.flush()).toBe(1);
      await eventually(() => expect(receivedIds()).toEqual([event.id]));
      expect(await pending()).toBe(0);
    });

    it('publishes an event enqueued in this process by itself, without notify() or a poll', async () => {
      const event = newEvent('entry.added', tenant, { id: 'signalled' });
      await db.transaction((tx) => enqueueEvents(tx, [event]));
      await eventually(() => expect(receivedIds()).toContain(event.id), 2000);
    });

    it('publishes after notify() without waiting for the poll', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'e4' });
      await db.transaction((tx) => enqueueEvents(tx, [event]));
      relay.notify();
      await eventually(() => expect(receivedIds()).toEqual([event.id]));
    });

    it('publishes on its own when polling, retrying after a failed publish', async () => {
      const polling = startOutboxRelay({ db, bus, pollIntervalMs: 20 });
      try {
        const event = newEvent('entry.added', 'acme', { id: 'e5' });
        bus.failures = 2;
        await db.transaction((tx) => enqueueEvents(tx, [event]));
        await eventually(() => expect(receivedIds()).toEqual([event.id]));
        expect(bus.failures).toBe(0);
      } finally {
        await polling.stop();
      }
    });

    it('publishes each event once when several relays flush at the same time', async () => {
      const events = Array.from({ length: 60 }, (_, n) => newEvent('entry.added', 'acme', { n }));
      for (let i = 0; i < events.length; i += 10) {
        await db.transaction((tx) => enqueueEvents(tx, events.slice(i, i + 10)));
      }
      const others = [startOutboxRelay({ db, bus, pollIntervalMs: 60_000, batchSize: 7 }), startOutboxRelay({ db, bus, pollIntervalMs: 60_000, batchSize: 5 })];
      try {
        const counts = await Promise.all([relay.flush(), ...others.map((r) => r.flush())]);
        // The in-process enqueue signal may have published some already; never more than 60 in all.
        expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60);
        expect(await pending()).toBe(0);
        await eventually(() => expect(received).toHaveLength(60));
        await settle();
        expect(new Set(receivedIds()).size).toBe(60);
        expect(received).toHaveLength(60);
      } finally {
        await Promise.all(others.map((r) => r.stop()));
      }
    });
  });

  describe('consumeOnce', () => {
    const entries = async (schema: string) =>
      (await db.forSchema(schema).query<{ id: string }>('SELECT id FROM entries ORDER BY id')).rows.map((r) => r.id);

    it('runs the handler once per consumer and skips duplicate deliveries', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'c1' });
      const owner = db.forSchema(tenant);
      const calls: string[] = [];
      const handler = (consumer: string) => async (tx: Queryable) => {
        calls.push(consumer);
        await tx.query('INSERT INTO entries (id, note) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET note = entries.note || $2', ['c1', consumer]);
      };
      expect(await consumeOnce(owner, 'ledger', event, handler('ledger'))).toBe(true);
      expect(await consumeOnce(owner, 'ledger', event, handler('ledger'))).toBe(false);
      // Another consumer of the same event has its own dedupe record.
      expect(await consumeOnce(owner, 'audit', event, handler('audit'))).toBe(true);
      expect(calls).toEqual(['ledger', 'audit']);
      const note = await owner.query("SELECT note FROM entries WHERE id = 'c1'");
      expect(note.rows).toEqual([{ note: 'ledgeraudit' }]);
    });

    it('records nothing when the handler throws, so a redelivery retries it', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'c2' });
      const owner = db.forSchema(tenant);
      await expect(
        consumeOnce(owner, 'ledger', event, async (tx) => {
          await tx.query("INSERT INTO entries (id, note) VALUES ('c2', 'half')");
          throw new Error('downstream unavailable');
        }),
      ).rejects.toThrow('downstream unavailable');
      expect(await entries(tenant)).not.toContain('c2');
      const inbox = await db.query('SELECT 1 FROM portal.inbox WHERE consumer = $1 AND event_id = $2', ['ledger', event.id]);
      expect(inbox.rowCount).toBe(0);

      expect(await consumeOnce(owner, 'ledger', event, async (tx) => {
        await tx.query("INSERT INTO entries (id, note) VALUES ('c2', 'done')");
      })).toBe(true);
      expect(await entries(tenant)).toContain('c2');
    });

    it('handles concurrent duplicate deliveries exactly once', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'c3' });
      let calls = 0;
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          consumeOnce(db.forSchema(tenant), 'ledger', event, async (tx) => {
            calls++;
            await tx.query("INSERT INTO entries (id, note) VALUES ('c3', 'once')");
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(calls).toBe(1);
    });

    it('writes only into the owner’s schema (other tenant cannot see it)', async () => {
      const event = newEvent('entry.added', 'acme', { id: 'c4' });
      await consumeOnce(db.forSchema(tenant), 'ledger', event, async (tx) => {
        await tx.query("INSERT INTO entries (id, note) VALUES ('c4', 'mine')");
      });
      expect(await entries(tenant)).toContain('c4');
      expect(await entries(otherTenant)).not.toContain('c4');
    });

    it('works with the Database as owner for platform work, and end to end from the relay', async () => {
      const event = newEvent('entry.noted', null, { id: 'c5' });
      const handled: string[] = [];
      await bus.subscribe('platform-queue', ['entry.noted'], (e) =>
        consumeOnce(db, 'platform', e, async (tx) => {
          await tx.query('SELECT 1 FROM portal.inbox');
          handled.push(e.id);
        }).then(() => undefined),
      );
      await db.transaction((tx) => enqueueEvents(tx, [event]));
      await relay.flush();
      // A redelivery of the same event (at-least-once) is skipped by the inbox.
      await bus.publish([event]);
      await eventually(() => expect(handled).toEqual([event.id]));
      await settle();
      expect(handled).toEqual([event.id]);
      const inbox = await db.query('SELECT 1 FROM portal.inbox WHERE consumer = $1 AND event_id = $2', ['platform', event.id]);
      expect(inbox.rowCount).toBe(1);
    });
  });
});
