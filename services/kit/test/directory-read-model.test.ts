import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent, type EventEnvelope, type Subscription } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory-bus.ts';
import type { Database } from '../src/db/database.ts';
import { migratePlatform, migrateTenant } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import {
  CLIENT_DELETED, CLIENT_UPSERTED, CLIENTS_UPSERTED, REPORT_TYPE_DELETED, REPORT_TYPE_UPSERTED, createDirectoryReadModel,
} from '../src/directory/directory-read-model.ts';
import { createLogger } from '../src/logger.ts';
import { outboxMigrations } from '../src/outbox/outbox.migrations.ts';
import { TenantRegistry } from '../src/tenancy/tenant-registry.ts';
import type { TenantEventPayload } from '../src/tenancy/tenant-events.ts';
import { eventually } from '../src/testing/eventually.ts';

const firm = (shortName: string, schemaName: string): TenantEventPayload =>
  ({ id: 1, name: shortName, shortName, schemaName, isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(databaseTargets())('directory read model ($name)', (target) => {
  const model = createDirectoryReadModel('testsvc');
  const hex = randomBytes(4).toString('hex');
  const acme = firm(`acme${hex}`, `dr_acme_${hex}`);
  const beta = firm(`beta${hex}`, `dr_beta_${hex}`);
  let scratch: TestDatabase;
  let db: Database;
  let bus: MemoryBus;
  let subscription: Subscription;
  const at = <E extends EventEnvelope>(event: E, occurredAt: string): E => ({ ...event, occurredAt });
  const client = (tenant: string, id: number, name: string, extra: Record<string, unknown> = {}) =>
    newEvent(CLIENT_UPSERTED, tenant, { id, name, uploadDestination: 'server', googleDriveConfigured: false, ...extra });
  const publish = (...events: EventEnvelope[]) => bus.publish(events);

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [outboxMigrations]);
    for (const f of [acme, beta]) await migrateTenant(db, f.schemaName, [model.migrations]);
    bus = new MemoryBus();
    subscription = await model.follow({ db, bus, logger: createLogger('test', 'silent'), tenants: new TenantRegistry({ source: async () => [acme, beta] }) });
  });
  afterAll(async () => {
    await subscription?.close();
    await scratch?.drop();
  });

  it('keeps each firm\'s clients and report types from the directory\'s events', async () => {
    await publish(client(acme.shortName, 1, 'Aurora Traders', { uploadDestination: 'google_drive', googleDriveConfigured: true }), newEvent(REPORT_TYPE_UPSERTED, acme.shortName, { id: 7, name: 'Audit' }));
    await eventually(async () => {
      expect(await model.client(db.forSchema(acme.schemaName), 1)).toEqual({ id: 1, name: 'Aurora Traders', uploadDestination: 'google_drive', googleDriveConfigured: true, jurisdiction: null, entityType: null, fiscalYearEnd: null, state: null, registrations: null });
      expect(await model.reportType(db.forSchema(acme.schemaName), 7)).toEqual({ id: 7, name: 'Audit' });
    });
    expect(await model.client(db.forSchema(beta.schemaName), 1)).toBeNull();
  });

  it('applies each event once and only when newer, and a deletion stays deleted', async () => {
    const renamed = at(client(acme.shortName, 2, 'Birch Co'), '2030-01-02T00:00:00.000Z');
    await publish(renamed, renamed);
    await eventually(async () => expect((await model.client(db.forSchema(acme.schemaName), 2))?.name).toBe('Birch Co'));
    await publish(at(client(acme.shortName, 2, 'Birch (older)'), '2030-01-01T00:00:00.000Z'));
    await settle();
    expect((await model.client(db.forSchema(acme.schemaName), 2))?.name).toBe('Birch Co');
    await publish(at(newEvent(CLIENT_DELETED, acme.shortName, { id: 2, name: 'Birch Co' }), '2030-01-03T00:00:00.000Z'),
      at(newEvent(REPORT_TYPE_DELETED, acme.shortName, { id: 7, name: 'Audit' }), '2030-01-03T00:00:00.000Z'));
    await eventually(async () => expect(await model.client(db.forSchema(acme.schemaName), 2)).toBeNull());
    expect(await model.reportType(db.forSchema(acme.schemaName), 7)).toBeNull();
    // A late upsert cannot bring it back; the tombstone keeps the last name for old records.
    await publish(at(client(acme.shortName, 2, 'Birch Co'), '2030-01-02T12:00:00.000Z'));
    await settle();
    expect(await model.client(db.forSchema(acme.schemaName), 2)).toBeNull();
    const { rows } = await db.forSchema(acme.schemaName).query<{ name: string; deleted: boolean }>(`SELECT name, deleted FROM ${model.tables.clients} WHERE id = 2`);
    expect(rows).toEqual([{ name: 'Birch Co', deleted: true }]);
  });

  it('takes in a batch of clients (clients.upserted) by the same rules as one event per client', async () => {
    const schema = db.forSchema(acme.schemaName);
    const name = async (id: number) => (await model.client(schema, id))?.name;
    // Before the batch: one client changed after it, one deleted after it, one changed before it.
    await publish(at(client(acme.shortName, 10, 'Elm'), '2030-03-02T00:00:00.000Z'), at(client(acme.shortName, 11, 'Fig'), '2030-02-01T00:00:00.000Z'),
      at(client(acme.shortName, 12, 'Fir'), '2030-02-28T00:00:00.000Z'));
    await eventually(async () => expect(await name(12)).toBe('Fir'));
    await publish(at(newEvent(CLIENT_DELETED, acme.shortName, { id: 11, name: 'Fig' }), '2030-03-02T00:00:00.000Z'));
    await eventually(async () => expect(await model.client(schema, 11)).toBeNull());
    const entry = (id: number, n: string, extra: Record<string, unknown> = {}) => ({ id, name: n, uploadDestination: 'server', googleDriveConfigured: false, ...extra });
    const batch = at(newEvent(CLIENTS_UPSERTED, acme.shortName, { clients: [
      entry(10, 'Elm (older)'), entry(11, 'Fig (back?)'), entry(12, 'Fir Ltd'),
      // The same client twice in one batch: the last stands, as if applied in turn.
      entry(13, 'Gum'), entry(13, 'Gum Holdings', { jurisdiction: 'IN', entityType: 'company', fiscalYearEnd: '03-31', state: 'KA', registrations: ['gst', 'tds'] }),
    ] }), '2030-03-01T00:00:00.000Z');
    await publish(batch, batch);
    await eventually(async () => expect(await name(13)).toBe('Gum Holdings'));
    expect(await model.client(schema, 13)).toEqual({
      id: 13, name: 'Gum Holdings', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'IN', entityType: 'company',
      fiscalYearEnd: '03-31', state: 'KA', registrations: ['gst', 'tds'],
    });
    expect(await name(12)).toBe('Fir Ltd');
    expect(await name(10)).toBe('Elm'); // the newer single event still holds
    expect(await model.client(schema, 11)).toBeNull(); // a deletion stays deleted
    const inbox = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM portal.inbox WHERE consumer = $1 AND event_id = $2', ['testsvc.directory', batch.id]);
    expect(inbox.rows[0]?.n).toBe(1);
    // A deletion after the batch wins, and the batch delivered late cannot bring the client back.
    await publish(at(newEvent(CLIENT_DELETED, acme.shortName, { id: 13, name: 'Gum Holdings' }), '2030-03-03T00:00:00.000Z'));
    await eventually(async () => expect(await model.client(schema, 13)).toBeNull());
    await publish(at(newEvent(CLIENTS_UPSERTED, acme.shortName, { clients: [entry(13, 'Gum (late)')] }), '2030-03-02T00:00:00.000Z'));
    await settle();
    expect(await model.client(schema, 13)).toBeNull();
    // Other firm: none of it.
    for (const id of [10, 12, 13]) expect(await model.client(db.forSchema(beta.schemaName), id)).toBeNull();
  });

  it('remembers what the directory answered directly, unless an event already said something newer', async () => {
    const schema = db.forSchema(beta.schemaName);
    await model.rememberClient(schema, { id: 5, name: 'Cedar', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: null }, '2030-02-01T00:00:00.000Z');
    expect((await model.client(schema, 5))?.name).toBe('Cedar');
    await publish(at(client(beta.shortName, 5, 'Cedar Holdings'), '2030-02-02T00:00:00.000Z'));
    await eventually(async () => expect((await model.client(schema, 5))?.name).toBe('Cedar Holdings'));
    await model.rememberClient(schema, { id: 5, name: 'Cedar (stale answer)', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: null }, '2030-02-01T12:00:00.000Z');
    expect((await model.client(schema, 5))?.name).toBe('Cedar Holdings');
    await model.rememberReportType(schema, { id: 9, name: 'Payroll' }, '2030-02-01T00:00:00.000Z');
    expect(await model.reportType(schema, 9)).toEqual({ id: 9, name: 'Payroll' });
  });

  it('ignores events of a firm it does not know', async () => {
    await publish(client('nosuchfirm', 3, 'Ghost'));
    await settle();
    for (const f of [acme, beta]) expect(await model.client(db.forSchema(f.schemaName), 3)).toBeNull();
  });
});
