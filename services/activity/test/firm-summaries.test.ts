import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { PLATFORM_SCHEMA, tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { activityPlatformMigrations, activityTenantMigrations } from '../src/activity.migrations.ts';
import { FirmSummaries, type SummarisedFirm } from '../src/admin/firm-summaries.ts';
import { DashboardStore } from '../src/dashboard/dashboard.store.ts';
import { ActivityFileStore } from '../src/files/activity-file.store.ts';
import { ActivityLogStore, type NewActivity } from '../src/logs/activity-log.store.ts';

const logger = createLogger('summaries-test', 'silent');
const view = (clientName: string, userName: string): NewActivity => ({
  action: 'view', fileId: null, fileName: null, userId: 7, userName, clientId: 3, clientName, details: null,
});

/** `db`, counting the statements (and schema views and transactions) asked of it. */
function countingStatements(db: Database): { db: Database; statements: number } {
  const counter = { db, statements: 0 };
  counter.db = new Proxy(db, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (prop !== 'query' && prop !== 'forSchema' && prop !== 'transaction') return value;
      return (...args: unknown[]) => { counter.statements++; return (value as (...a: unknown[]) => unknown).apply(t, args); };
    },
  });
  return counter;
}

/*
 * Issue 45: the platform's analytics read one stored summary per firm, made again only for
 * the firms whose rollups changed since (a trigger marks them); nothing changed, a read is
 * two statements whatever the number of firms.
 */
describe.each(databaseTargets())('Firm summaries for the platform analytics ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  const logs = new ActivityLogStore();
  const firms: SummarisedFirm[] = ['north', 'south'].map((label) => ({ schema: tenantSchema(`t_${label}_${randomBytes(3).toString('hex')}`), name: label }));

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [activityPlatformMigrations]);
    for (const f of firms) await migrateTenant(db, f.schema, [activityTenantMigrations]);
  });

  afterAll(async () => { await scratch.drop(); });

  it('summarises changed firms only, and a change made while a summary is made keeps the firm marked', async () => {
    const [north, south] = firms as [SummarisedFirm, SummarisedFirm];
    const summaries = new FirmSummaries(db, new DashboardStore(new ActivityFileStore(), logs), logger);
    await db.forSchema(north.schema).transaction((tx) => logs.record(tx, view('Acme Ltd', 'Dana')));
    const first = await summaries.analytics(firms);
    expect(first.topClients).toEqual([{ clientName: 'Acme Ltd', tenantName: 'north', documents: 0, activities: 1 }]);
    expect(first.topUsers.map((u) => [u.userName, u.tenantName, u.actions])).toEqual([['Dana', 'north', 1]]);

    // Nothing changed: two statements (the marks, the summaries), no firm visited.
    const counted = countingStatements(db);
    expect(await new FirmSummaries(counted.db, new DashboardStore(new ActivityFileStore(), logs), logger).analytics(firms)).toEqual(first);
    expect(counted.statements).toBe(2);

    // A firm renamed shows its new name at once; a change in the other firm is summarised on the next read.
    await db.forSchema(south.schema).transaction((tx) => logs.record(tx, view('Birch plc', 'Eli')));
    const renamed = await summaries.analytics([{ ...north, name: 'North & Co' }, south]);
    expect(renamed.topClients.map((c) => [c.clientName, c.tenantName]).sort()).toEqual([['Acme Ltd', 'North & Co'], ['Birch plc', 'south']]);

    // A change committed between reading a firm's mark and clearing it keeps the mark.
    await db.forSchema(north.schema).transaction((tx) => logs.record(tx, view('Acme Ltd', 'Dana')));
    const racing = new DashboardStore(new ActivityFileStore(), logs);
    const documentsByType = racing.documentsByType.bind(racing);
    let raced = false;
    racing.documentsByType = async (q, v) => {
      if (!raced) { raced = true; await db.forSchema(north.schema).transaction((tx) => logs.record(tx, view('Acme Ltd', 'Dana'))); }
      return documentsByType(q, v);
    };
    await new FirmSummaries(db, racing, logger).analytics(firms);
    const marks = await db.query<{ schema_name: string }>(`SELECT schema_name FROM ${PLATFORM_SCHEMA}.activity_firm_changes`);
    expect(marks.rows.map((r) => r.schema_name)).toEqual([north.schema]);
    const settled = await summaries.analytics(firms);
    expect(settled.topClients.find((c) => c.clientName === 'Acme Ltd')?.activities).toBe(3);
  });

  it('the background pass summarises every changed firm, so the next read visits none; with nothing changed the pass is one statement', async () => {
    const [north, south] = firms as [SummarisedFirm, SummarisedFirm];
    await db.forSchema(north.schema).transaction((tx) => logs.record(tx, view('Cedar LLP', 'Fay')));
    await db.forSchema(south.schema).transaction((tx) => logs.record(tx, view('Dune Inc', 'Gus')));
    const summaries = new FirmSummaries(db, new DashboardStore(new ActivityFileStore(), logs), logger);
    await summaries.refreshChanged();
    expect((await db.query(`SELECT 1 FROM ${PLATFORM_SCHEMA}.activity_firm_changes`)).rowCount).toBe(0);
    const counted = countingStatements(db);
    const reader = new FirmSummaries(counted.db, new DashboardStore(new ActivityFileStore(), logs), logger);
    const read = await reader.analytics(firms);
    expect(counted.statements).toBe(2);
    expect(read.topClients.map((c) => c.clientName)).toEqual(expect.arrayContaining(['Cedar LLP', 'Dune Inc']));
    counted.statements = 0;
    await reader.refreshChanged();
    expect(counted.statements).toBe(1);
  });
});
