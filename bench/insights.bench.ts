// `npm run bench:insights`: the analysis at volume, on the service's own code and tables
// (no HTTP: the run is what costs). PostgreSQL when POSTGRES_URL is set (a scratch database,
// dropped afterwards), else the embedded default. Seeds the insights read models directly,
// as the compliance and files events would leave them, with facts read by the real rules
// from generated report texts, then measures:
//   - one client with BENCH_FILES files (default 1,000) and BENCH_ITEMS tracker items
//     (default 500): the first analysis (which creates the insights) and a re-run (which
//     changes nothing) — target < 3 s;
//   - the nightly job over a firm of BENCH_CLIENTS clients (default 500), each with
//     BENCH_CLIENT_ITEMS items (default 36: three years of a monthly return) and
//     BENCH_CLIENT_FILES files (default 30) — target < 2 min.
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { createDatabase } from '@ledgerline/kit/db/create-database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { outboxMigrations } from '@ledgerline/kit/outbox/outbox.migrations.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { AnalysisService } from '@ledgerline/insights-service/analysis/analysis.service.ts';
import { NIGHTLY_JOB, nightlyAnalysisJob } from '@ledgerline/insights-service/analysis/nightly-analysis.job.ts';
import { insightsTenantMigrations } from '@ledgerline/insights-service/insights.migrations.ts';
import { InsightStore } from '@ledgerline/insights-service/insights/insight.store.ts';
import { RuleSettingsStore } from '@ledgerline/insights-service/insights/rule-settings.store.ts';
import { FileFactsStore } from '@ledgerline/insights-service/read-models/file-facts.store.ts';
import { TrackerStore } from '@ledgerline/insights-service/read-models/tracker.store.ts';
import { documentFacts } from '@ledgerline/insights-service/rules/document-facts.ts';

const FILES = Number(process.env.BENCH_FILES ?? 1000);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const CLIENT_ITEMS = Number(process.env.BENCH_CLIENT_ITEMS ?? 36);
const CLIENT_FILES = Number(process.env.BENCH_CLIENT_FILES ?? 30);
const REPORT_TYPES = 10;
const BIG_CLIENT = 1;

const scratch = process.env.POSTGRES_URL ? await createScratchDatabase(process.env.POSTGRES_URL) : null;
const db = await createDatabase(scratch ? { postgresUrl: scratch.url } : {});
const schemaName = `bench_${randomBytes(3).toString('hex')}`;
const directory = createDirectoryReadModel('insights');
const jobs = createJobQueue('insights');
const logger = createLogger('bench-insights', 'warn');

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const today = new Date();
/** Month i before the current one, as the tracker's period and the texts name it. */
const monthBack = (i: number) => {
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - i, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const due = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 20));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10), due: due.toISOString().slice(0, 10), name: `${MONTHS[first.getUTCMonth()]} ${first.getUTCFullYear()}` };
};
/** A report's text: a page of figures, its period, and (every third one) the words of a filing. */
const reportText = (n: number, period: string) => [
  `GSTR-3B return for ${period}`, n % 3 === 0 ? `Acknowledgement. ARN AA${n}. Filed.` : 'Working paper, not filed.',
  ...Array.from({ length: 40 }, (_, l) => `Line ${l}: taxable value ${(n * 37 + l * 1013) % 900_000}.00, tax ${(n + l) % 9000}.00`),
  `Aggregate turnover ${(n % 7) * 900_000}`, `Total ${(n % 11) * 120_000}`,
].join('\n');

async function seedClient(tx: Queryable, clientId: number, items: number, files: number, firstItemId: number, firstFileId: number): Promise<void> {
  const itemRows = Array.from({ length: items }, (_, i) => {
    const m = monthBack(i % 48);
    return {
      id: firstItemId + i, schedule_id: clientId, client_id: clientId, report_type_id: 1 + (i % REPORT_TYPES), period: m.name, period_start: m.start,
      period_end: m.end, due_date: m.due, status: i % 5 === 0 ? 'filed' : i % 7 === 0 ? 'delayed' : 'pending', version: new Date().toISOString(),
    };
  });
  await tx.query(
    `INSERT INTO insight_tracker_items (id, schedule_id, client_id, report_type_id, period, period_start, period_end, due_date, status, version)
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, schedule_id int, client_id int, report_type_id int, period text, period_start date, period_end date, due_date date, status text, version timestamptz)`,
    [JSON.stringify(itemRows)],
  );
  const fileRows = Array.from({ length: files }, (_, i) => {
    const m = monthBack(i % 48);
    const name = `GSTR-3B ${i % 2 ? m.name : 'statement'} ${i}.pdf`;
    const facts = documentFacts(name, reportText(firstFileId + i, m.name));
    return {
      id: firstFileId + i, client_id: clientId, report_type_id: 1 + (i % REPORT_TYPES), file_type: 'report', original_name: name,
      name_periods: facts.namePeriods, name_filing: facts.nameFiling, facts,
    };
  });
  await tx.query(
    `INSERT INTO insight_files (id, client_id, report_type_id, file_type, original_name, name_periods, name_filing, facts)
     SELECT r.id, r.client_id, r.report_type_id, r.file_type, r.original_name, ARRAY(SELECT jsonb_array_elements_text(r.name_periods)), r.name_filing, r.facts
     FROM jsonb_to_recordset($1::jsonb) AS r(id int, client_id int, report_type_id int, file_type text, original_name text, name_periods jsonb, name_filing boolean, facts jsonb)`,
    [JSON.stringify(fileRows)],
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
try {
  await migratePlatform(db, [outboxMigrations]);
  await migrateTenant(db, schemaName, [createUserAccessReadModel('insights').migrations, directory.migrations, jobs.migrations, insightsTenantMigrations]);
  const firm = db.forSchema(tenantSchema(schemaName));
  const insights = new InsightStore(directory.tables.clients);
  const analysis = new AnalysisService({
    files: new FileFactsStore(), tracker: new TrackerStore(directory.tables.reportTypes), insights, settings: new RuleSettingsStore(), tables: directory.tables, timeZoneOf: async () => 'UTC',
  });
  await firm.query(`INSERT INTO ${directory.tables.reportTypes} (id, name, deleted, version) SELECT g, 'Report type ' || g, false, now() FROM generate_series(1, ${REPORT_TYPES}) g`);

  console.log(`Seeding one client with ${ITEMS} tracker items and ${FILES} files on ${scratch ? 'PostgreSQL' : 'PGlite'} ...`);
  await firm.transaction((tx) => seedClient(tx, BIG_CLIENT, ITEMS, FILES, 1, 1));
  let t = performance.now();
  const first = await firm.transaction((tx) => analysis.analyzeClient(tx, 'bench', BIG_CLIENT));
  const firstMs = performance.now() - t;
  t = performance.now();
  const again = await firm.transaction((tx) => analysis.analyzeClient(tx, 'bench', BIG_CLIENT));
  const againMs = performance.now() - t;
  console.log(`one client, first analysis: ${seconds(firstMs)} (${first.created} insights created) — target < 3 s`);
  console.log(`one client, re-run:         ${seconds(againMs)} (${again.created} created, ${again.retired} retired) — target < 3 s`);

  console.log(`Seeding a firm of ${CLIENTS} clients × ${CLIENT_ITEMS} items and ${CLIENT_FILES} files ...`);
  for (let c = 0; c < CLIENTS - 1; c++) {
    const clientId = BIG_CLIENT + 1 + c;
    await firm.transaction((tx) => seedClient(tx, clientId, CLIENT_ITEMS, CLIENT_FILES, 100_000 + c * CLIENT_ITEMS, 100_000 + c * CLIENT_FILES));
  }
  const job = nightlyAnalysisJob({ analysis, jobs, hourUtc: 2, logger });
  t = performance.now();
  await firm.transaction((tx) => job(tx, { id: 0, kind: NIGHTLY_JOB, key: NIGHTLY_JOB, runAt: new Date(), payload: {}, attempts: 0 }, { shortName: 'bench', schema: firm.schema }));
  const nightlyMs = performance.now() - t;
  const { rows } = await firm.query<{ n: number }>('SELECT count(*)::int AS n FROM compliance_insights');
  console.log(`nightly, ${CLIENTS} clients:        ${seconds(nightlyMs)} (${rows[0]!.n} insights in the firm) — target < 2 min`);
} finally {
  await db.close();
  await scratch?.drop();
}
