import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { outboxMigrations } from '@ledgerline/kit/outbox/outbox.migrations.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { NIGHTLY_JOB } from '../src/analysis/nightly-analysis.job.ts';
import { insightsTenantMigrations } from '../src/insights.migrations.ts';
import { InsightStore } from '../src/insights/insight.store.ts';

/*
 * Missing periods were one card per tracker item (and a pattern card per run of them). The
 * migration retires the open ones and books an analysis of the firm at once, which groups them
 * into one card per client and report type; what a person closed stays closed for its periods.
 */

const directory = createDirectoryReadModel('insights');
const jobs = createJobQueue('insights');
const before = { ...insightsTenantMigrations, migrations: insightsTenantMigrations.migrations.slice(0, 2) };

describe.each(databaseTargets())('the grouped missing-periods migration ($name)', (target) => {
  let test: TestDatabase;
  let firm: SchemaDb;

  beforeAll(async () => {
    test = await target.open();
    await migratePlatform(test.db, [outboxMigrations, jobs.dueIndexMigrations]);
    const models = [createUserAccessReadModel('insights').migrations, directory.migrations, jobs.migrations];
    await migrateTenant(test.db, 'regroup', [...models, before]);
    firm = test.db.forSchema(tenantSchema('regroup'));
    const card = (subject: string, type: string, status: string, metadata: object, reviewer: number | null = null) =>
      firm.query(`INSERT INTO compliance_insights (client_id, subject, insight_type, status, title, description, recommended_action, metadata, reviewed_by_id)
        VALUES (1, $1, $2, $3, 't', 'd', 'r', $4, $5)`, [subject, type, status, JSON.stringify(metadata), reviewer]);
    await card('missing_document:item:11', 'missing_document', 'pending', { trackerItemId: 11, reportTypeId: 3, period: 'Aug 2026' });
    await card('missing_document:item:12', 'missing_document', 'reviewed', { trackerItemId: 12, reportTypeId: 3, period: 'Sep 2026' }, 7);
    await card('missing_document:item:13', 'missing_document', 'dismissed', { trackerItemId: 13, reportTypeId: 3, period: 'Oct 2026' }, 7);
    await card('pattern_detected:missing:1:3', 'pattern_detected', 'pending', { reportTypeId: 3, trackerItemIds: [11, 12] });
    await card('compliance_match:item:14', 'compliance_match', 'pending', { trackerItemId: 14, reportTypeId: 3, period: 'Jul 2026' });
    await migrateTenant(test.db, 'regroup', [...models, insightsTenantMigrations]);
  });
  afterAll(async () => { await test?.drop(); });

  it('retires the open per-month and consecutive-missing cards, keeps the rest, and books an analysis now', async () => {
    const { rows } = await firm.query<{ subject: string; status: string; retired: boolean }>(
      'SELECT subject, status, retired_at IS NOT NULL AS retired FROM compliance_insights ORDER BY id');
    expect(rows.map((r) => [r.subject, r.status, r.retired])).toEqual([
      ['missing_document:item:11', 'dismissed', true],
      ['missing_document:item:12', 'dismissed', true],
      ['missing_document:item:13', 'dismissed', false],
      ['pattern_detected:missing:1:3', 'dismissed', true],
      ['compliance_match:item:14', 'pending', false],
    ]);
    const booked = await firm.query<{ key: string; run_at: Date }>(`SELECT key, run_at FROM ${jobs.table} WHERE key = $1`, [`${NIGHTLY_JOB}:regroup`]);
    expect(booked.rows).toHaveLength(1);
    expect(booked.rows[0]!.run_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('the period a person dismissed before stays settled; the retired ones are raised again in the group', async () => {
    expect([...await new InsightStore(directory.tables.clients).settledItems(firm, 1)]).toEqual([13]);
  });
});
