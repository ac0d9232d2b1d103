import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { complianceJobs as jobs } from '../src/compliance-jobs.ts';
import { complianceTenantMigrations, REPUBLISH_ITEMS_JOB } from '../src/compliance.migrations.ts';

/*
 * Issue 39 for what was made before it: every item keeps its day as the statutory due date;
 * schedules applied from a calendar are linked to their entry, and their items not yet filed move
 * to the next business day where the calendar has the rule (and are announced again); schedules
 * made by hand and filed items keep their day.
 */

const userAccess = createUserAccessReadModel('compliance');
const directory = createDirectoryReadModel('compliance');
const upTo = (id: string) => ({ ...complianceTenantMigrations, migrations: complianceTenantMigrations.migrations.slice(0, complianceTenantMigrations.migrations.findIndex((m) => m.id === id)) });

describe.each(databaseTargets())('the statutory due dates migration ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firm: SchemaDb;
  const tenant = { shortName: `sdd${randomBytes(3).toString('hex')}`, schema: '' };

  beforeAll(async () => {
    ({ scratch, db, firmDb: firm } = await openFirmSchema(target, tenant, [jobs.migrations, upTo('004_statutory_due_dates'), userAccess.migrations, directory.migrations]));
    // Form 941 as the US calendar made it, and a person's own schedule due the 31st of January.
    await firm.query(`INSERT INTO compliance_schedules (id, client_id, report_type_id, frequency, due_day_of_month, due_months, notes, period_lag_months, jurisdiction) VALUES
      (1, 1, 1, 'quarterly', 31, '{1,4,7,10}', 'United States — federal returns: Due the last day of the month after the quarter.', 1, 'US'),
      (2, 1, 2, 'yearly', 31, '{1}', 'our own annual return', 1, 'US')`);
    await firm.query(`INSERT INTO compliance_items (schedule_id, client_id, report_type_id, period_key, period, period_start, period_end, due_date, status) VALUES
      (1, 1, 1, '2027-01', 'Q4 2026', '2026-10-01', '2026-12-31', '2027-01-31', 'pending'),
      (1, 1, 1, '2026-10', 'Q3 2026', '2026-07-01', '2026-09-30', '2026-10-31', 'filed'),
      (1, 1, 1, '2026-07', 'Q2 2026', '2026-04-01', '2026-06-30', '2026-07-31', 'pending'),
      (2, 1, 2, '2027-01', '2026', '2026-01-01', '2026-12-31', '2027-01-31', 'pending')`);
  });
  afterAll(async () => { await scratch.drop(); });

  it('keeps every day as the statutory one, links the calendar\'s schedule and moves its open items', async () => {
    expect(await migrateTenant(db, tenant.schema, [jobs.migrations, complianceTenantMigrations, userAccess.migrations, directory.migrations]))
      .toEqual(expect.arrayContaining(['compliance: 004_statutory_due_dates', 'compliance: 005_link_calendar_entries']));
    const { rows: schedules } = await firm.query('SELECT id, preset_id, entry_id FROM compliance_schedules ORDER BY id');
    expect(schedules).toEqual([{ id: 1, preset_id: 'us', entry_id: 'form-941' }, { id: 2, preset_id: null, entry_id: null }]);
    const { rows: items } = await firm.query<Record<string, string | null>>(
      'SELECT period, statutory_due_date::text AS statutory, due_date::text AS due, due_date_reason AS reason, status FROM compliance_items ORDER BY id',
    );
    expect(items).toEqual([
      { period: 'Q4 2026', statutory: '2027-01-31', due: '2027-02-01', reason: '31 Jan 2027 is a Sunday', status: 'pending' },
      { period: 'Q3 2026', statutory: '2026-10-31', due: '2026-10-31', reason: null, status: 'filed' },
      { period: 'Q2 2026', statutory: '2026-07-31', due: '2026-07-31', reason: null, status: 'pending' },
      { period: '2026', statutory: '2027-01-31', due: '2027-01-31', reason: null, status: 'pending' },
    ]);
    const { rows: jobsLeft } = await firm.query<{ payload: { itemIds: number[] } }>(`SELECT payload FROM ${jobs.table} WHERE kind = $1`, [REPUBLISH_ITEMS_JOB]);
    expect(jobsLeft.flatMap((j) => j.payload.itemIds)).toHaveLength(2);
  });
});
