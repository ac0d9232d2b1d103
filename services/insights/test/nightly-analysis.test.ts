import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { outboxMigrations } from '@ledgerline/kit/outbox/outbox.migrations.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { AnalysisService } from '../src/analysis/analysis.service.ts';
import { NIGHTLY_JOB, nextNightly, nightlyAnalysisJob } from '../src/analysis/nightly-analysis.job.ts';
import { insightsTenantMigrations } from '../src/insights.migrations.ts';
import { InsightStore } from '../src/insights/insight.store.ts';
import { RuleSettingsStore } from '../src/insights/rule-settings.store.ts';
import { FileFactsStore } from '../src/read-models/file-facts.store.ts';
import { TrackerStore } from '../src/read-models/tracker.store.ts';

describe('nextNightly', () => {
  it('is the next time the clock reads the hour (UTC), never now', () => {
    expect(nextNightly(new Date('2027-03-01T01:30:00Z'), 2).toISOString()).toBe('2027-03-01T02:00:00.000Z');
    expect(nextNightly(new Date('2027-03-01T02:00:00Z'), 2).toISOString()).toBe('2027-03-02T02:00:00.000Z');
    expect(nextNightly(new Date('2027-12-31T23:00:00Z'), 2).toISOString()).toBe('2028-01-01T02:00:00.000Z');
  });
});

describe.each(databaseTargets())('the nightly run through the durable scheduler ($name)', (target) => {
  let test: TestDatabase;
  let firm: SchemaDb;
  const directory = createDirectoryReadModel('insights');
  const jobs = createJobQueue('insights');

  beforeAll(async () => {
    test = await target.open();
    await migratePlatform(test.db, [outboxMigrations, jobs.dueIndexMigrations]);
    await migrateTenant(test.db, 'nightly', [createUserAccessReadModel('insights').migrations, directory.migrations, jobs.migrations, insightsTenantMigrations]);
    firm = test.db.forSchema(tenantSchema('nightly'));
  });
  afterAll(async () => { await test?.drop(); });

  it('the migration books the first run for the coming 02:00 UTC; when due it analyses every client, then books the next night', async () => {
    const first = await firm.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table}`);
    expect(first.rows.map((r) => r.run_at)).toEqual([nextNightly(new Date(), 2)]);
    // The night arrives.
    await makeJobsDue(firm, jobs);
    await firm.query(`INSERT INTO ${directory.tables.reportTypes} (id, name, deleted, version) VALUES (3, 'GSTR-3B', false, now())`);
    await firm.query(
      `INSERT INTO insight_tracker_items (id, schedule_id, client_id, report_type_id, period, period_start, period_end, due_date, status, version)
       VALUES (11, 1, 5, 3, 'Jan 2026', '2026-01-01', '2026-01-31', '2026-02-20', 'pending', now())`,
    );
    const analysis = new AnalysisService({
      files: new FileFactsStore(), tracker: new TrackerStore(directory.tables.reportTypes), insights: new InsightStore(directory.tables.clients),
      settings: new RuleSettingsStore(), tables: directory.tables, timeZoneOf: async () => 'UTC',
    });
    const logger = createLogger('nightly-test', 'silent');
    const scheduler = startScheduler({
      db: test.db, queue: jobs, logger, pollMs: 60_000, tenants: async () => [{ shortName: 'nightly', schema: firm.schema }],
      handlers: { [NIGHTLY_JOB]: nightlyAnalysisJob({ analysis, jobs, hourUtc: 2, logger }) },
    }, false);
    expect(await scheduler.tick()).toBe(1);
    const { rows } = await firm.query<{ subject: string; priority: string }>('SELECT subject, priority FROM compliance_insights');
    expect(rows).toEqual([{ subject: 'missing_document:client:5:type:3', priority: 'high' }]);
    const next = await firm.query<{ key: string; run_at: Date }>(`SELECT key, run_at FROM ${jobs.table}`);
    expect(next.rows).toHaveLength(1);
    expect(next.rows[0]!.run_at.getTime()).toBeGreaterThan(Date.now());
    expect(next.rows[0]!.run_at.getUTCHours()).toBe(2);
    // Nothing else is due tonight; the next tick runs nothing and duplicates nothing.
    expect(await scheduler.tick()).toBe(0);
    await scheduler.stop();
  });
});
