import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { OUTBOX_TABLE } from '@ledgerline/kit/outbox/outbox.ts';
import { startScheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { COMPLIANCE_ITEM_UPSERTED, type ComplianceItemEvent } from '@ledgerline/contracts/compliance.contracts.ts';
import { complianceJobs as jobs } from '../src/compliance-jobs.ts';
import { complianceTenantMigrations, REPUBLISH_ITEMS_JOB } from '../src/compliance.migrations.ts';
import { republishItems } from '../src/tracker/compliance-events.ts';
import { TrackerStore } from '../src/tracker/tracker.store.ts';

/*
 * Items made before schedules knew their period lag were labelled by their due month. The
 * migration gives calendar-made schedules their entry's lag and country, relabels every item by
 * the period it covers, and leaves a job that tells the insights read model again.
 */

const userAccess = createUserAccessReadModel('compliance');
const directory = createDirectoryReadModel('compliance');
const before = { ...complianceTenantMigrations, migrations: complianceTenantMigrations.migrations.slice(0, 1) };

describe.each(databaseTargets())('the covered-periods migration ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firm: SchemaDb;
  const tenant = { shortName: `cpm${randomBytes(3).toString('hex')}`, schema: '' };

  beforeAll(async () => {
    ({ scratch, db, firmDb: firm } = await openFirmSchema(target, tenant, [jobs.migrations, before, userAccess.migrations, directory.migrations]));
    // As the India calendar and a person made them before: GSTR-3B (monthly, the 20th) and a yearly return due in May.
    await firm.query(`INSERT INTO compliance_schedules (id, client_id, report_type_id, frequency, due_day_of_month, due_months, notes) VALUES
      (1, 1, 1, 'monthly', 20, '{}', 'India — GST, TDS and income tax: Due on the 20th of the month after the tax period (monthly filers).'),
      (2, 1, 2, 'yearly', 15, '{5}', 'our own annual return')`);
    await firm.query(`INSERT INTO compliance_items (schedule_id, client_id, report_type_id, period_key, period, period_start, period_end, due_date, status) VALUES
      (1, 1, 1, '2026-10', 'Oct 2026', '2026-10-01', '2026-10-31', '2026-10-20', 'filed'),
      (1, 1, 1, '2026-11', 'Nov 2026', '2026-11-01', '2026-11-30', '2026-11-20', 'pending'),
      (2, 1, 2, '2026-05', 'FY 2026', '2026-01-01', '2026-12-31', '2026-05-15', 'pending')`);
  });
  afterAll(async () => { await scratch.drop(); });

  it('relabels the items by the period they cover and announces the changed ones once', async () => {
    expect(await migrateTenant(db, tenant.schema, [jobs.migrations, complianceTenantMigrations, userAccess.migrations, directory.migrations])).toEqual(expect.arrayContaining(['compliance: 002_covered_periods']));
    const { rows: schedules } = await firm.query('SELECT id, period_lag_months, jurisdiction FROM compliance_schedules ORDER BY id');
    expect(schedules).toEqual([{ id: 1, period_lag_months: 1, jurisdiction: 'IN' }, { id: 2, period_lag_months: -7, jurisdiction: 'US' }]);
    const { rows: items } = await firm.query<{ id: number; period: string; period_start: string; period_end: string; due_date: string }>(
      'SELECT id, period, period_start::text, period_end::text, due_date::text FROM compliance_items ORDER BY id',
    );
    expect(items.map((i) => [i.due_date, i.period, i.period_start, i.period_end])).toEqual([
      ['2026-10-20', 'Sep 2026', '2026-09-01', '2026-09-30'],
      ['2026-11-20', 'Oct 2026', '2026-10-01', '2026-10-31'],
      ['2026-05-15', '2026', '2026-01-01', '2026-12-31'],
    ]);

    const scheduler = startScheduler({
      db, queue: jobs, handlers: { [REPUBLISH_ITEMS_JOB]: republishItems(new TrackerStore(userAccess, directory)) },
      logger: createLogger('covered-periods-migration-test', 'silent'), pollMs: 60_000, tenants: async () => [tenant],
    }, false);
    expect(await scheduler.tick()).toBe(1);
    await scheduler.stop();
    const { rows } = await db.query<{ event: { tenant: string; payload: ComplianceItemEvent } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND event->>'tenant' = $2 ORDER BY id`, [COMPLIANCE_ITEM_UPSERTED, tenant.shortName],
    );
    // The yearly item's label changed but not its span; all three were told.
    const told = rows.map((r) => [r.event.payload.id, r.event.payload.period, r.event.payload.periodStart]).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(told).toEqual(items.map((i) => [i.id, i.period, i.period_start]));
  });
});
