import { coveredPeriod, periodLagFor } from '@ledgerline/kit/calendar/covered-period.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import type { ComplianceFrequency } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { nextBusinessDay } from './calendar/business-days.ts';
import { complianceJobs } from './compliance-jobs.ts';
import { PRESETS } from './presets/preset.catalog.ts';

/** The job that announces items a migration relabelled (compliance-events.ts), so read models follow. */
export const REPUBLISH_ITEMS_JOB = 'compliance-republish-items';
const REPUBLISH_BATCH = 1000;

/**
 * The statutory calendars as they were before schedules knew their period lag (notes began with
 * the calendar's name): frozen here, as this migration must recognise what was applied then.
 * [notes prefix, country, frequency, due day, due months, period lag].
 */
const APPLIED_BEFORE_LAGS: readonly [string, ClientJurisdiction, ComplianceFrequency, number, string, number][] = [
  ['India — GST, TDS and income tax', 'IN', 'monthly', 11, '', 1],
  ['India — GST, TDS and income tax', 'IN', 'monthly', 20, '', 1],
  ['India — GST, TDS and income tax', 'IN', 'monthly', 7, '', 1],
  ['India — GST, TDS and income tax', 'IN', 'quarterly', 31, '1,5,7,10', 1],
  ['India — GST, TDS and income tax', 'IN', 'quarterly', 15, '3,6,9,12', 0],
  ['India — GST, TDS and income tax', 'IN', 'yearly', 31, '7', 4],
  ['United States — federal returns', 'US', 'yearly', 15, '4', 4],
  ['United States — federal returns', 'US', 'quarterly', 31, '1,4,7,10', 1],
  ['United States — federal returns', 'US', 'yearly', 15, '3', 3],
  ['United States — federal returns', 'US', 'quarterly', 15, '1,4,6,9', 0],
  ['United States — federal returns', 'US', 'yearly', 31, '1', 1],
  ['United Kingdom — HMRC', 'UK', 'quarterly', 7, '2,5,8,11', 2],
  ['United Kingdom — HMRC', 'UK', 'yearly', 31, '1', 10],
  ['United Kingdom — HMRC', 'UK', 'quarterly', 31, '1,7', 0],
  ['United Kingdom — HMRC', 'UK', 'monthly', 22, '', 1],
  ['United Kingdom — HMRC', 'UK', 'yearly', 31, '12', 12],
  ['Australia — ATO', 'AU', 'quarterly', 28, '2,4,7,10', 1],
  ['Australia — ATO', 'AU', 'yearly', 31, '10', 4],
  ['Australia — ATO', 'AU', 'yearly', 28, '2', 8],
  ['Australia — ATO', 'AU', 'quarterly', 28, '1,4,7,10', 1],
];

/**
 * Items were labelled by the month they fell due; now by the period they cover. Schedules applied
 * from a calendar get that entry's lag and country; those made by hand cover the period of their
 * due date (as their labels said: its month, calendar quarter or year). Every item is relabelled
 * from its schedule, and those that changed are announced again (a job, run with the firm's name
 * by the scheduler).
 */
async function relabelCoveredPeriods(tx: Queryable): Promise<void> {
  const { rows: schedules } = await tx.query<{ id: number; frequency: ComplianceFrequency; due_months: string[] }>('SELECT id, frequency, due_months FROM compliance_schedules');
  for (const s of schedules) {
    await tx.query('UPDATE compliance_schedules SET period_lag_months = $2 WHERE id = $1', [s.id, periodLagFor('due', s.frequency, s.due_months, 'US')]);
  }
  for (const [prefix, country, frequency, dueDay, months, lag] of APPLIED_BEFORE_LAGS) {
    await tx.query(
      `UPDATE compliance_schedules SET period_lag_months = $1, jurisdiction = $2
       WHERE notes LIKE $3 || '%' AND frequency = $4 AND due_day_of_month = $5 AND array_to_string(due_months, ',') = $6`,
      [lag, country, prefix, frequency, dueDay, months],
    );
  }
  const { rows } = await tx.query<{
    id: number; due_date: string; period: string; period_start: string; period_end: string;
    frequency: ComplianceFrequency; due_months: string[]; period_lag_months: number; jurisdiction: ClientJurisdiction;
  }>(
    `SELECT i.id, i.due_date::text, i.period, i.period_start::text, i.period_end::text, s.frequency, s.due_months, s.period_lag_months, s.jurisdiction
     FROM compliance_items i JOIN compliance_schedules s ON s.id = i.schedule_id`,
  );
  const changed: { id: number; label: string; start: string; end: string }[] = [];
  for (const r of rows) {
    const c = coveredPeriod({ dueDate: r.due_date, frequency: r.frequency, periodLagMonths: r.period_lag_months, jurisdiction: r.jurisdiction, dueMonths: r.due_months });
    if (c.label !== r.period || c.start !== r.period_start || c.end !== r.period_end) changed.push({ id: r.id, ...c });
  }
  if (!changed.length) return;
  await tx.query(
    `UPDATE compliance_items i SET period = c.label, period_start = c.start::date, period_end = c.end_day::date, updated_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS c(id int, label text, start text, end_day text) WHERE i.id = c.id`,
    [JSON.stringify(changed.map((c) => ({ id: c.id, label: c.label, start: c.start, end_day: c.end })))],
  );
  const batches = Array.from({ length: Math.ceil(changed.length / REPUBLISH_BATCH) }, (_, b) => changed.slice(b * REPUBLISH_BATCH, (b + 1) * REPUBLISH_BATCH));
  await complianceJobs.scheduleMany(tx, batches.map((batch) => ({ kind: REPUBLISH_ITEMS_JOB, runAt: new Date(), payload: { itemIds: batch.map((c) => c.id) } })));
}

/**
 * Issue 39 for what was made before it: schedules applied from a calendar (notes begin with its
 * name, the rule is an entry's, and the report type's name tells apart entries with the same
 * rule) are linked to their entry; their items not yet filed are moved to the next business day
 * where the calendar has the rule (statutory_due_date keeps the day they had), and announced again.
 */
async function linkEntriesAndMoveDueDates(tx: Queryable): Promise<void> {
  const hasNames = (await tx.query<{ ok: boolean }>(`SELECT to_regclass('compliance_report_types') IS NOT NULL AS ok`)).rows[0]!.ok;
  const { rows: schedules } = await tx.query<{
    id: number; notes: string | null; frequency: string; due_day_of_month: number; due_months: string[]; period_lag_months: number; report_type_name: string | null;
  }>(
    `SELECT s.id, s.notes, s.frequency, s.due_day_of_month, s.due_months, s.period_lag_months,
       ${hasNames ? '(SELECT rt.name FROM compliance_report_types rt WHERE rt.id = s.report_type_id)' : 'NULL::text'} AS report_type_name
     FROM compliance_schedules s WHERE s.preset_id IS NULL`,
  );
  const changed: number[] = [];
  for (const s of schedules) {
    const preset = PRESETS.find((p) => s.notes?.startsWith(p.name));
    if (!preset) continue;
    const fits = preset.entries.filter((e) => e.frequency === s.frequency && e.dueDayOfMonth === s.due_day_of_month
      && e.dueMonths.join(',') === s.due_months.join(',') && e.periodLagMonths === s.period_lag_months);
    const entry = fits.length === 1 ? fits[0] : fits.find((e) => e.reportTypeName === s.report_type_name);
    if (!entry) continue;
    await tx.query('UPDATE compliance_schedules SET preset_id = $2, entry_id = $3 WHERE id = $1', [s.id, preset.id, entry.id]);
    if (!preset.businessDays) continue;
    const { rows: items } = await tx.query<{ id: number; statutory: string }>(
      `SELECT id, statutory_due_date::text AS statutory FROM compliance_items WHERE schedule_id = $1 AND status <> 'filed'`, [s.id],
    );
    for (const item of items) {
      const moved = nextBusinessDay(preset.businessDays, item.statutory);
      if (moved.dueDate === item.statutory && !moved.holidayCalendar) continue;
      await tx.query('UPDATE compliance_items SET due_date = $2, due_date_reason = $3, holiday_calendar = $4, updated_at = now() WHERE id = $1',
        [item.id, moved.dueDate, moved.dueDateReason, moved.holidayCalendar]);
      changed.push(item.id);
    }
  }
  const batches = Array.from({ length: Math.ceil(changed.length / REPUBLISH_BATCH) }, (_, b) => changed.slice(b * REPUBLISH_BATCH, (b + 1) * REPUBLISH_BATCH));
  await complianceJobs.scheduleMany(tx, batches.map((batch) => ({ kind: REPUBLISH_ITEMS_JOB, runAt: new Date(), payload: { itemIds: batch } })));
}

/**
 * The compliance service's tables in every firm's schema. A tracker item is unique per
 * schedule and due month (`period_key`, 'YYYY-MM'; `period`, `period_start`, `period_end` are the period it covers): generating a year again,
 * or twice at the same moment on two replicas, inserts each item once (ON CONFLICT DO NOTHING).
 * Client and report-type ids refer to the directory's records (known here through its events),
 * so they carry no foreign keys; a client's removal deletes its rows (client-deleted.consumer.ts).
 */
export const complianceTenantMigrations: ServiceMigrations = {
  service: 'compliance',
  scope: 'tenant',
  migrations: [{
    id: '001_compliance',
    sql: `CREATE TABLE compliance_schedules (
      id serial PRIMARY KEY,
      client_id integer NOT NULL,
      report_type_id integer NOT NULL,
      frequency text NOT NULL CHECK (frequency IN ('monthly', 'quarterly', 'yearly')),
      due_day_of_month integer NOT NULL DEFAULT 15 CHECK (due_day_of_month BETWEEN 1 AND 31),
      due_months text[] NOT NULL DEFAULT '{}',
      is_active boolean NOT NULL DEFAULT true,
      reminder_days integer NOT NULL DEFAULT 7 CHECK (reminder_days BETWEEN 1 AND 90),
      notes text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX compliance_schedules_by_client ON compliance_schedules (client_id, id);

    CREATE TABLE compliance_items (
      id serial PRIMARY KEY,
      schedule_id integer NOT NULL REFERENCES compliance_schedules (id) ON DELETE CASCADE,
      client_id integer NOT NULL,
      report_type_id integer NOT NULL,
      period_key text NOT NULL,
      period text NOT NULL,
      period_start date NOT NULL,
      period_end date NOT NULL,
      due_date date NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'filed', 'delayed', 'extended')),
      filed_date timestamptz,
      extension_date date,
      remarks text,
      assigned_to_id integer,
      ai_confidence numeric(3, 2) NOT NULL DEFAULT 0.00 CHECK (ai_confidence BETWEEN 0 AND 1),
      auto_detected boolean NOT NULL DEFAULT false,
      source_file_id integer,
      -- Set when the reminder and the overdue notice went out: each is said once.
      reminded_at timestamptz,
      overdue_notified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (schedule_id, period_key)
    );
    CREATE INDEX compliance_items_by_due ON compliance_items (due_date, id);
    CREATE INDEX compliance_items_by_client ON compliance_items (client_id, due_date, id);
    CREATE INDEX compliance_items_pending_by_due ON compliance_items (due_date, id) WHERE status = 'pending';`,
  }, {
    id: '002_covered_periods',
    // Runs after the jobs table's own migration (compliance.module.ts lists that set first).
    sql: `ALTER TABLE compliance_schedules ADD COLUMN period_lag_months integer NOT NULL DEFAULT 0 CHECK (period_lag_months BETWEEN -12 AND 24);
    ALTER TABLE compliance_schedules ADD COLUMN jurisdiction text NOT NULL DEFAULT 'US' CHECK (jurisdiction IN ('US', 'CA', 'IN', 'UK', 'AU'));
    -- A deleted schedule's row stays while the items it made are kept in the tracker.
    ALTER TABLE compliance_schedules ADD COLUMN deleted_at timestamptz`,
    run: relabelCoveredPeriods,
  }, {
    id: '003_tracker_document_requests',
    // The requests service's document requests made for tracker items, as its events tell
    // them (DESIGN §2: a read model, never its tables); each row keeps the newest revision.
    sql: `CREATE TABLE compliance_document_requests (
      request_id integer PRIMARY KEY,
      tracker_item_id integer NOT NULL,
      status text NOT NULL,
      required integer NOT NULL,
      done integer NOT NULL,
      revision integer NOT NULL
    );
    CREATE INDEX compliance_document_requests_by_item ON compliance_document_requests (tracker_item_id, request_id DESC) WHERE status <> 'cancelled'`,
  }, {
    id: '004_statutory_due_dates',
    // Issue 39: an item keeps the statute's day beside the day it is due after the
    // next-business-day rule (old rows: the same day, until 005 recomputes those a rule moves),
    // and why they differ; a schedule made from a calendar names its entry, whose rules
    // (versions, fiscal years, extensions) generation follows.
    sql: `ALTER TABLE compliance_items ADD COLUMN statutory_due_date date;
    UPDATE compliance_items SET statutory_due_date = due_date;
    ALTER TABLE compliance_items ALTER COLUMN statutory_due_date SET NOT NULL;
    ALTER TABLE compliance_items ADD COLUMN due_date_reason text;
    ALTER TABLE compliance_items ADD COLUMN holiday_calendar text;
    ALTER TABLE compliance_schedules ADD COLUMN preset_id text;
    ALTER TABLE compliance_schedules ADD COLUMN entry_id text;
    ALTER TABLE compliance_schedules DROP CONSTRAINT IF EXISTS compliance_schedules_jurisdiction_check;
    CREATE INDEX compliance_items_by_effective_due ON compliance_items ((CASE WHEN status = 'extended' AND extension_date IS NOT NULL THEN extension_date ELSE due_date END), id)`,
  }, {
    id: '005_link_calendar_entries',
    sql: 'SELECT 1',
    run: linkEntriesAndMoveDueDates,
  }, {
    id: '006_stages',
    // Issue 42: each report type's pipeline the firm saved (none: the default, stages.contracts.ts),
    // and the stage (a stage id of that pipeline) each item stands on.
    sql: `CREATE TABLE compliance_pipelines (
      report_type_id integer PRIMARY KEY,
      stages jsonb NOT NULL,
      automations jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE compliance_items ADD COLUMN stage text NOT NULL DEFAULT 'not-started';
    CREATE INDEX compliance_items_by_stage ON compliance_items (report_type_id, stage)`,
  }, {
    id: '007_tracker_organizers',
    // Issue 42: organizers sent for tracker items, as the requests service's events tell them:
    // an organizer still being answered keeps its item waiting on the client. occurred_at keeps
    // the newest state whatever order the events arrive in.
    sql: `CREATE TABLE compliance_organizers (
      organizer_id integer PRIMARY KEY,
      tracker_item_id integer NOT NULL,
      status text NOT NULL,
      occurred_at timestamptz NOT NULL
    );
    CREATE INDEX compliance_organizers_by_item ON compliance_organizers (tracker_item_id)`,
  }, {
    id: '008_signed_documents',
    // Issue 41: the signed documents of signature requests linked to items, as the signatures
    // service's events told compliance (a request's sealed PDF filed as a report of the client).
    sql: `CREATE TABLE compliance_signed_documents (
      request_id integer PRIMARY KEY,
      tracker_item_id integer NOT NULL,
      file_id integer NOT NULL,
      signed_at timestamptz NOT NULL,
      title text NOT NULL
    );
    CREATE INDEX compliance_signed_documents_by_item ON compliance_signed_documents (tracker_item_id, signed_at DESC)`,
  }],
};
