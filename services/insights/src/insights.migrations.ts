import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { NIGHTLY_JOB } from './analysis/nightly-analysis.job.ts';

const TYPES = `('missing_document', 'compliance_match', 'threshold_alert', 'pattern_detected')`;

/**
 * The insights service's tables in every firm's schema: the insights themselves and the
 * read models of what other services own (tracker items and schedules from compliance,
 * files and their facts from files), fed by events only (DESIGN §2). Runs after the job
 * table's migrations (insights.module.ts lists them first): the first nightly run is booked here.
 */
export const insightsTenantMigrations: ServiceMigrations = {
  service: 'insights',
  scope: 'tenant',
  migrations: [{
    id: '001_insights',
    sql: `CREATE TABLE compliance_insights (
      id serial PRIMARY KEY,
      client_id integer NOT NULL,
      file_id integer,
      file_name text,
      insight_type text NOT NULL CHECK (insight_type IN ${TYPES}),
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('high', 'medium', 'low')),
      title text NOT NULL,
      description text NOT NULL,
      recommended_action text NOT NULL,
      confidence numeric(3, 2) NOT NULL DEFAULT 0.00 CHECK (confidence BETWEEN 0 AND 1),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'reviewed', 'acted_upon', 'dismissed')),
      metadata jsonb NOT NULL DEFAULT '{}',
      -- What the insight is about (rules/find-insights.ts): one open insight per subject.
      subject text NOT NULL,
      -- Set when a run found the subject resolved and closed the insight (no person did).
      retired_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      reviewed_at timestamptz,
      reviewed_by_id integer,
      reviewed_by_name text
    );
    CREATE UNIQUE INDEX compliance_insights_open_subject ON compliance_insights (subject) WHERE status IN ('pending', 'reviewed');
    CREATE INDEX compliance_insights_by_client ON compliance_insights (client_id, created_at DESC, id DESC);
    CREATE INDEX compliance_insights_by_subject ON compliance_insights (subject);

    -- Tracker items and schedules as the compliance service publishes them.
    CREATE TABLE insight_tracker_items (
      id integer PRIMARY KEY,
      schedule_id integer NOT NULL,
      client_id integer NOT NULL,
      report_type_id integer NOT NULL,
      period text NOT NULL,
      period_start date NOT NULL,
      period_end date NOT NULL,
      due_date date NOT NULL,
      status text NOT NULL,
      filed_date timestamptz,
      extension_date date,
      ai_confidence numeric(3, 2) NOT NULL DEFAULT 0,
      source_file_id integer,
      version timestamptz NOT NULL
    );
    CREATE INDEX insight_tracker_items_by_client ON insight_tracker_items (client_id, report_type_id, due_date);
    CREATE TABLE insight_schedules (
      id integer PRIMARY KEY,
      client_id integer NOT NULL,
      reminder_days integer NOT NULL,
      version timestamptz NOT NULL
    );

    -- Files and the facts the rules read from their names and extracted text.
    CREATE TABLE insight_files (
      id integer PRIMARY KEY,
      client_id integer,
      report_type_id integer,
      file_type text,
      original_name text,
      name_periods text[] NOT NULL DEFAULT '{}',
      name_filing boolean NOT NULL DEFAULT false,
      -- rules/document-facts.ts DocumentFacts of the text; null until extracted.
      facts jsonb,
      -- A language model's validated classification; null without one (or a bad answer).
      model jsonb,
      deleted boolean NOT NULL DEFAULT false,
      uploaded_at timestamptz,
      extracted_at timestamptz
    );
    CREATE INDEX insight_files_by_client ON insight_files (client_id) WHERE NOT deleted;

    -- The firm's threshold_alert settings (one row; defaults in contracts until someone saves).
    CREATE TABLE insight_rule_settings (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by_id integer
    );

    -- The first run waits for the coming 02:00 UTC (the default hour; each run then books the
    -- configured one): a firm created by day, or every firm at once on an upgrade, is not
    -- analysed in the middle of its working day.
    INSERT INTO insights_jobs (kind, key, run_at, payload) VALUES ('${NIGHTLY_JOB}', '${NIGHTLY_JOB}:first',
      (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '2 hours'
        + CASE WHEN now() AT TIME ZONE 'UTC' < date_trunc('day', now() AT TIME ZONE 'UTC') + interval '2 hours' THEN interval '0' ELSE interval '1 day' END) AT TIME ZONE 'UTC',
      '{}')`,
  }, {
    id: '002_thresholds_by_jurisdiction',
    // Issue 23: a threshold belongs to a jurisdiction and is in its currency. Saved settings had
    // one firm-wide amount (India's GST registration by default) and per-report-type amounts:
    // they become India's rules, in rupees; clients naming no jurisdiction still count as India's.
    sql: `UPDATE insight_rule_settings SET settings = jsonb_build_object(
        'keywords', settings->'keywords',
        'defaultJurisdiction', 'IN',
        'thresholds', jsonb_build_array(jsonb_build_object(
            'jurisdiction', 'IN', 'currency', 'INR', 'threshold', settings->'defaultThreshold', 'reportTypeId', NULL,
            'obligation', 'GST registration (₹20 lakh aggregate turnover; ₹40 lakh for suppliers of goods only, ₹10 lakh in special category States)',
            'source', 'CGST Act 2017, s. 22(1); Notification 10/2019-Central Tax (₹40 lakh for goods)'))
          || COALESCE((SELECT jsonb_agg(jsonb_build_object(
              'jurisdiction', 'IN', 'currency', 'INR', 'threshold', t->'threshold', 'reportTypeId', t->'reportTypeId',
              'obligation', 'GST registration', 'source', NULL))
            FROM jsonb_array_elements(settings->'thresholds') t), '[]'::jsonb))
      WHERE settings ? 'defaultThreshold'`,
  }, {
    id: '003_grouped_missing_periods',
    // Issue 23: missing periods become one card per client and report type (its periods listed),
    // and a dismissal can be undone by its dismisser for a while (undo: what it replaced). The
    // per-month cards and the consecutive-missing pattern cards still open are retired and, where
    // there were any, an analysis of the firm is booked at once (a nightly run's key of its own) to group them.
    sql: `ALTER TABLE compliance_insights ADD COLUMN undo jsonb;
    UPDATE compliance_insights SET status = 'dismissed', retired_at = now(), updated_at = now(),
        metadata = metadata || jsonb_build_object('retiredAt', now(), 'regrouped', true)
      WHERE status IN ('pending', 'reviewed') AND (subject LIKE 'missing_document:item:%' OR subject LIKE 'pattern_detected:missing:%');
    INSERT INTO insights_jobs (kind, key, run_at, payload)
      SELECT '${NIGHTLY_JOB}', '${NIGHTLY_JOB}:regroup', now(), '{}' WHERE EXISTS (SELECT 1 FROM compliance_insights WHERE metadata ? 'regrouped')
      ON CONFLICT (key) DO NOTHING`,
  }],
};
