import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { accessScope, canReadClient, canReadReportType } from '../src/access/access-scope.ts';
import { createUserAccessReadModel, DELETED_USER, ROLE_UPSERTED, USER_DELETED, USER_UPSERTED, USERS_UPSERTED, type UserAccess } from '../src/access/user-access-read-model.ts';
import type { PortalClaims } from '../src/auth/claims.ts';
import { newEvent, type EventEnvelope, type Subscription } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory-bus.ts';
import type { Database } from '../src/db/database.ts';
import { migratePlatform, migrateTenant } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { createLogger } from '../src/logger.ts';
import { outboxMigrations } from '../src/outbox/outbox.migrations.ts';
import { TenantRegistry } from '../src/tenancy/tenant-registry.ts';
import type { TenantEventPayload } from '../src/tenancy/tenant-events.ts';
import { eventually } from '../src/testing/eventually.ts';

const firm = (shortName: string, schemaName: string): TenantEventPayload =>
  ({ id: 1, name: shortName, shortName, schemaName, isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null });

/** Lets deliveries already scheduled by the bus run, so "nothing changed" is meaningful. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(databaseTargets())('user access read model ($name)', (target) => {
  const model = createUserAccessReadModel('testsvc');
  const hex = randomBytes(4).toString('hex');
  const acme = firm(`acme${hex}`, `ua_acme_${hex}`);
  const beta = firm(`beta${hex}`, `ua_beta_${hex}`);
  let scratch: TestDatabase;
  let db: Database;
  let bus: MemoryBus;
  let subscription: Subscription;
  let sourceCalls = 0;
  const at = (iso: string) => ({ occurredAt: iso });
  const upsert = (tenant: string, id: number, role: string, clientIds: number[] | null, reportTypeIds: number[] | null, roleId = 3) =>
    newEvent(USER_UPSERTED, tenant, { id, username: `u${id}`, fullName: `U ${id}`, roleId, role, clientIds, reportTypeIds });
  const publish = (...events: EventEnvelope[]) => bus.publish(events);
  const lookup = (f: TenantEventPayload, id: number) => model.lookup(db.forSchema(f.schemaName), id);
  /** The live access, for the fields' sake (a tombstone or nothing fails the test). */
  const live = async (f: TenantEventPayload, id: number): Promise<UserAccess> => {
    const known = await lookup(f, id);
    if (!known || known === DELETED_USER) throw new Error(`user ${id} is not live: ${String(known)}`);
    return known;
  };

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [outboxMigrations]);
    for (const f of [acme, beta]) await migrateTenant(db, f.schemaName, [model.migrations]);
    bus = new MemoryBus();
    const tenants = new TenantRegistry({ source: async () => { sourceCalls++; return [acme, beta]; }, minRefreshMs: 0 });
    subscription = await model.follow({ db, bus, logger: createLogger('test', 'silent'), tenants });
  });

  afterAll(async () => {
    await subscription.close();
    await bus.close();
    await scratch.drop();
  });

  it('keeps role and ordered access lists per user, in the firm the event names', async () => {
    await publish(upsert(acme.shortName, 7, 'CPA', [9, 4, 12], [3]));
    await eventually(async () => expect(await lookup(acme, 7)).toEqual({ role: 'CPA', clientIds: [9, 4, 12], reportTypeIds: [3] }));
    expect(await lookup(beta, 7)).toBeNull();
    expect(await lookup(acme, 8)).toBeNull();
  });

  it('keeps each user\'s username and full name for the screens that show them; deleted users have none', async () => {
    await publish(upsert(acme.shortName, 31, 'CPA', [], []), upsert(acme.shortName, 32, 'DTA', [], []));
    await eventually(async () => expect((await model.names(db.forSchema(acme.schemaName), [31, 32, 33])).size).toBe(2));
    const names = await model.names(db.forSchema(acme.schemaName), [31, 32, 33]);
    expect(Object.fromEntries(names)).toEqual({ 31: { username: 'u31', fullName: 'U 31' }, 32: { username: 'u32', fullName: 'U 32' } });
    expect((await model.names(db.forSchema(beta.schemaName), [31])).size).toBe(0);
    await publish(newEvent(USER_DELETED, acme.shortName, { id: 32 }));
    await eventually(async () => expect([...(await model.names(db.forSchema(acme.schemaName), [31, 32])).keys()]).toEqual([31]));
  });

  it('knows where a user\'s e-mail goes: their address, else a username that is one; and the kinds they turned off', async () => {
    const schema = db.forSchema(acme.schemaName);
    const person = (id: number, extra: Record<string, unknown>, iso: string) => ({
      ...newEvent(USER_UPSERTED, acme.shortName, { id, username: `user${id}`, fullName: `U ${id}`, roleId: 4, role: 'Client', clientIds: [1], reportTypeIds: null, ...extra }), ...at(iso),
    });
    await publish(person(41, { email: 'own@example.test' }, '2031-01-01T00:00:00Z'), person(42, { username: 'name@example.test' }, '2031-01-01T00:00:00Z'), person(43, {}, '2031-01-01T00:00:00Z'));
    await eventually(async () => expect(await model.mailbox(schema, 43)).not.toBeNull());
    expect(await model.mailbox(schema, 41)).toEqual({ to: 'own@example.test', optedOut: [] });
    expect(await model.mailbox(schema, 42)).toEqual({ to: 'name@example.test', optedOut: [] });
    expect(await model.mailbox(schema, 43)).toEqual({ to: null, optedOut: [] });
    expect(await model.mailbox(db.forSchema(beta.schemaName), 41)).toBeNull();
    // Turned off; a later event without the fields (an older publisher) keeps both.
    await publish(person(41, { email: 'own@example.test', emailOptOuts: ['tasks'] }, '2031-01-02T00:00:00Z'));
    await eventually(async () => expect((await model.mailbox(schema, 41))?.optedOut).toEqual(['tasks']));
    await publish(person(41, {}, '2031-01-03T00:00:00Z'));
    await eventually(async () => expect((await model.names(schema, [41])).get(41)?.username).toBe('user41'));
    await settle();
    expect(await model.mailbox(schema, 41)).toEqual({ to: 'own@example.test', optedOut: ['tasks'] });
    // An address removed falls back to the username (not an address here: nowhere).
    await publish(person(41, { email: null }, '2031-01-04T00:00:00Z'));
    await eventually(async () => expect(await model.mailbox(schema, 41)).toEqual({ to: null, optedOut: ['tasks'] }));
    await publish({ ...newEvent(USER_DELETED, acme.shortName, { id: 42 }), ...at('2031-01-05T00:00:00Z') });
    await eventually(async () => expect(await model.mailbox(schema, 42)).toBeNull());
  });

  it('isolates firms: the same user id in another firm is another user', async () => {
    await publish(upsert(beta.shortName, 7, 'Client', [1], null));
    await eventually(async () => expect(await lookup(beta, 7)).toEqual({ role: 'Client', clientIds: [1], reportTypeIds: [] }));
    expect(await lookup(acme, 7)).toEqual({ role: 'CPA', clientIds: [9, 4, 12], reportTypeIds: [3] });
  });

  it('applies a duplicate delivery once and ignores an older event arriving late', async () => {
    const first = { ...upsert(acme.shortName, 20, 'CPA', [1], [1]), ...at('2030-01-01T00:00:00.000Z') };
    const second = { ...upsert(acme.shortName, 20, 'CPA', [2], [2]), ...at('2030-01-01T00:00:01.000Z') };
    await publish(first);
    await eventually(async () => expect((await live(acme, 20)).clientIds).toEqual([1]));
    await publish(second, first, second);
    await eventually(async () => expect((await live(acme, 20)).clientIds).toEqual([2]), 800);
    await settle();
    expect(await lookup(acme, 20)).toEqual({ role: 'CPA', clientIds: [2], reportTypeIds: [2] });
    const inbox = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM portal.inbox WHERE consumer = $1 AND event_id = ANY($2)', ['testsvc.user-access', [first.id, second.id]]);
    expect(inbox.rows[0]?.n).toBe(2);
  });

  it('keeps a deleted user as a tombstone, and a late upsert does not bring them back', async () => {
    const created = { ...upsert(acme.shortName, 30, 'DTA', null, null), ...at('2030-02-01T00:00:00.000Z') };
    const deleted = { ...newEvent(USER_DELETED, acme.shortName, { id: 30, username: 'u30' }), ...at('2030-02-01T00:00:02.000Z') };
    const stale = { ...upsert(acme.shortName, 30, 'DTA', [5], null), ...at('2030-02-01T00:00:01.000Z') };
    await publish(created);
    await eventually(async () => expect(await lookup(acme, 30)).not.toBeNull());
    await publish(deleted);
    await eventually(async () => expect(await lookup(acme, 30)).toBe(DELETED_USER));
    await publish(stale);
    await settle();
    expect(await lookup(acme, 30)).toBe(DELETED_USER);
  });

  it('takes in a batch of users (users.upserted) by the same rules as one event per user', async () => {
    const schema = db.forSchema(acme.schemaName);
    // Before the batch: one user changed after it, one deleted after it, one known from before it.
    await publish({ ...upsert(acme.shortName, 80, 'CPA', [1], []), ...at('2030-05-02T00:00:00.000Z') },
      { ...upsert(acme.shortName, 81, 'Client', [2], []), ...at('2030-04-01T00:00:00.000Z') },
      { ...upsert(acme.shortName, 82, 'Client', [3], []), ...at('2030-04-01T00:00:00.000Z') });
    await eventually(async () => expect(await lookup(acme, 82)).not.toBeNull());
    await publish({ ...newEvent(USER_DELETED, acme.shortName, { id: 81 }), ...at('2030-05-02T00:00:00.000Z') });
    await eventually(async () => expect(await lookup(acme, 81)).toBe(DELETED_USER));
    // Read once before the batch: what the batch writes must not wait behind the lookup cache.
    expect(await lookup(acme, 84)).toBeNull();
    const person = (id: number, clientIds: number[], email: string | null) =>
      ({ id, username: `c${id}@example.test`, fullName: `C ${id}`, roleId: 4, role: 'Client', clientIds, reportTypeIds: null, email });
    const batch = { ...newEvent(USERS_UPSERTED, acme.shortName, { users: [
      person(80, [9], null), person(81, [9], null),
      // The same user twice in one batch: the last stands, as if applied in turn.
      person(82, [8], 'first@example.test'), person(82, [5, 3, 9], 'c82@example.test'),
      person(84, [6], null),
    ] }), ...at('2030-05-01T00:00:00.000Z') };
    await publish(batch, batch);
    await eventually(async () => expect(await lookup(acme, 84)).toEqual({ role: 'Client', clientIds: [6], reportTypeIds: [] }));
    expect(await lookup(acme, 82)).toEqual({ role: 'Client', clientIds: [5, 3, 9], reportTypeIds: [] }); // in identity's order
    expect(await model.mailbox(schema, 82)).toEqual({ to: 'c82@example.test', optedOut: [] });
    expect(await model.mailbox(schema, 84)).toEqual({ to: 'c84@example.test', optedOut: [] }); // no address: the username
    expect(await lookup(acme, 80)).toEqual({ role: 'CPA', clientIds: [1], reportTypeIds: [] }); // the newer single event still holds
    expect(await lookup(acme, 81)).toBe(DELETED_USER); // a deletion stays deleted
    const inbox = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM portal.inbox WHERE consumer = $1 AND event_id = $2', ['testsvc.user-access', batch.id]);
    expect(inbox.rows[0]?.n).toBe(1);
    // A deletion after the batch wins, and the batch delivered late cannot bring the user back.
    await publish({ ...newEvent(USER_DELETED, acme.shortName, { id: 84 }), ...at('2030-05-03T00:00:00.000Z') });
    await eventually(async () => expect(await lookup(acme, 84)).toBe(DELETED_USER));
    await publish({ ...newEvent(USERS_UPSERTED, acme.shortName, { users: [person(84, [7], null)] }), ...at('2030-05-02T00:00:00.000Z') });
    await settle();
    expect(await lookup(acme, 84)).toBe(DELETED_USER);
    // Other firm: none of it.
    for (const id of [82, 84]) expect(await lookup(beta, id)).toBeNull();
  });

  it('remembers what identity answered for a user it did not know, and a later event still wins', async () => {
    const schema = db.forSchema(acme.schemaName);
    expect(await lookup(acme, 60)).toBeNull();
    await model.remember(schema, 60, { roleId: 3, role: 'CPA', clientIds: [7], reportTypeIds: [] }, '2030-03-01T00:00:00.000Z');
    expect(await lookup(acme, 60)).toEqual({ role: 'CPA', clientIds: [7], reportTypeIds: [] });
    await publish({ ...upsert(acme.shortName, 60, 'Client', [8], null), ...at('2030-03-01T00:00:05.000Z') });
    await eventually(async () => expect(await lookup(acme, 60)).toEqual({ role: 'Client', clientIds: [8], reportTypeIds: [] }), 800);
    // An older answer does not undo the newer event, nor does it revive a deleted user.
    await model.remember(schema, 60, { roleId: 1, role: 'Admin', clientIds: [], reportTypeIds: [] }, '2030-03-01T00:00:01.000Z');
    expect(await live(acme, 60)).toMatchObject({ role: 'Client' });
    await publish({ ...newEvent(USER_DELETED, acme.shortName, { id: 60, username: 'u60' }), ...at('2030-03-01T00:00:09.000Z') });
    await eventually(async () => expect(await lookup(acme, 60)).toBe(DELETED_USER), 800);
    await model.remember(schema, 60, { roleId: 1, role: 'Admin', clientIds: [], reportTypeIds: [] }, '2030-03-01T00:00:08.000Z');
    expect(await lookup(acme, 60)).toBe(DELETED_USER);
  });

  it('renames the role of every user holding a renamed role', async () => {
    await publish(upsert(acme.shortName, 40, 'Senior', [1], null, 77));
    await eventually(async () => expect((await live(acme, 40)).role).toBe('Senior'));
    await publish(newEvent(ROLE_UPSERTED, acme.shortName, { id: 77, name: 'Partner' }));
    // Sooner than the lookup cache's second: applying an event drops what was cached.
    await eventually(async () => expect((await live(acme, 40)).role).toBe('Partner'), 800);
  });

  it('ignores events of a firm identity does not know, after one refresh', async () => {
    const before = sourceCalls;
    await publish(upsert('nosuchfirm', 50, 'CPA', [1], null));
    await settle();
    expect(sourceCalls).toBeGreaterThan(before);
    for (const f of [acme, beta]) expect(await lookup(f, 50)).toBeNull();
    expect(bus.deadLetters).toEqual([]);
  });
});

describe('access scope', () => {
  const claims = (role: string, platformAdmin = false): PortalClaims => ({ sub: '5', username: 'u', fullName: 'U', role, tenant: platformAdmin ? null : 'acme', platformAdmin });
  const lists = (role: string) => ({ role, clientIds: [4, 2], reportTypeIds: [8] });

  it('gives Admin and platform administrators everything, with administration', () => {
    for (const scope of [accessScope(claims('Admin'), lists('Admin')), accessScope(claims('anything', true), null)]) {
      expect(scope).toMatchObject({ isAdmin: true, isClient: false, clients: 'all', reportTypes: 'all' });
    }
  });

  it('gives DTA every client and report type to read, without administration', () => {
    expect(accessScope(claims('DTA'), lists('DTA'))).toMatchObject({ isAdmin: false, clients: 'all', reportTypes: 'all' });
  });

  it('limits CPA and custom roles to their lists', () => {
    for (const role of ['CPA', 'Bookkeeper']) {
      const scope = accessScope(claims(role), lists(role));
      expect(scope).toMatchObject({ isAdmin: false, isClient: false, clients: [4, 2], reportTypes: [8] });
      expect(canReadClient(scope, 2)).toBe(true);
      expect(canReadClient(scope, 3)).toBe(false);
      expect(canReadReportType(scope, 8)).toBe(true);
      expect(canReadReportType(scope, 9)).toBe(false);
    }
    expect(accessScope(claims('CPA'), { role: 'CPA', clientIds: [], reportTypeIds: [] })).toMatchObject({ clients: [], reportTypes: [] });
  });

  it('limits a Client user to the first client of their list', () => {
    const scope = accessScope(claims('Client'), lists('Client'));
    expect(scope).toMatchObject({ isClient: true, isAdmin: false, clients: [4] });
    expect(canReadClient(scope, 2)).toBe(false);
    expect(accessScope(claims('Client'), { role: 'Client', clientIds: [], reportTypeIds: [] }).clients).toEqual([]);
  });

  it('applies the role identity announced last over the token\'s (a demotion applies at once)', () => {
    expect(accessScope(claims('Admin'), lists('CPA'))).toMatchObject({ isAdmin: false, clients: [4, 2] });
  });

  it('refuses a firm user with no stored record whatever the token\'s role (401)', () => {
    for (const role of ['Admin', 'DTA', 'CPA', 'Client']) {
      expect(() => accessScope(claims(role), null)).toThrow(expect.objectContaining({ kind: 'unauthenticated' }));
    }
  });
});
