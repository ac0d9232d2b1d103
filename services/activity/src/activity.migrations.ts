import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';

/**
 * The tables a firm's summary for the platform's analytics is made of (DashboardStore's
 * rankings), and the daily rollup: every transaction that writes a rollup takes its firm's
 * change mark first (a BEFORE trigger), so two of them never lock the mark and a rollup row
 * in opposite orders (a deadlock, when the mark was taken after the statement).
 */
const FIRM_SUMMARY_SOURCES = ['activity_counts', 'activity_document_counts', 'activity_file_counts', 'activity_files', 'activity_days'] as const;

/**
 * Activity's tables in every tenant schema. A firm may hold 100k files and millions of
 * log rows, so the dashboards never count log rows: every log insert also bumps small
 * rollup tables (per client × user × action, per file, per day, per client × document kind) in
 * the same transaction, and the top lists, totals and the whole firm's chart read those.
 * Only the lists and a narrower scope's chart read the log itself, through its indexes (a
 * LIMIT, or a time range per client or user).
 * Rollup keys use 0 for "no client" / "no report type" (key columns cannot be null).
 */
export const activityTenantMigrations: ServiceMigrations = {
  service: 'activity',
  scope: 'tenant',
  migrations: [
    {
      id: '001_activity',
      sql: `CREATE TABLE activity_logs (
        id bigserial PRIMARY KEY,
        action text NOT NULL CHECK (action IN ('upload', 'download', 'view', 'chat', 'delete', 'update')),
        file_id integer,
        file_name text,
        user_id integer NOT NULL,
        user_name text NOT NULL,
        client_id integer,
        client_name text,
        details text,
        "timestamp" timestamptz NOT NULL DEFAULT now()
      );
      -- Newest first overall (lists, the 30-day range), by client, by user and by file.
      CREATE INDEX activity_logs_newest ON activity_logs ("timestamp" DESC, id DESC);
      CREATE INDEX activity_logs_by_client ON activity_logs (client_id, "timestamp" DESC, id DESC);
      CREATE INDEX activity_logs_by_user ON activity_logs (user_id, "timestamp" DESC, id DESC);
      CREATE INDEX activity_logs_by_file ON activity_logs (file_id, "timestamp" DESC, id DESC);

      -- The files service's files as its events announced them (DESIGN §2: no service reads
      -- another's tables). A deletion keeps the row, marked, so a late upload event cannot
      -- bring the file back.
      CREATE TABLE activity_files (
        id integer PRIMARY KEY,
        name text NOT NULL,
        size bigint NOT NULL,
        client_id integer,
        client_name text,
        file_type text NOT NULL,
        report_type_id integer,
        uploaded_by_id integer NOT NULL,
        uploader_name text NOT NULL,
        uploaded_at timestamptz NOT NULL,
        deleted_at timestamptz
      );
      CREATE INDEX activity_files_recent ON activity_files (uploaded_at DESC, id DESC) WHERE deleted_at IS NULL;
      CREATE INDEX activity_files_by_client ON activity_files (client_id, uploaded_at DESC, id DESC) WHERE deleted_at IS NULL;

      CREATE TABLE activity_counts (
        client_id integer NOT NULL,
        user_id integer NOT NULL,
        action text NOT NULL,
        count bigint NOT NULL,
        last_at timestamptz NOT NULL,
        PRIMARY KEY (client_id, user_id, action)
      );
      CREATE INDEX activity_counts_by_user ON activity_counts (user_id);

      CREATE TABLE activity_file_counts (
        file_id integer PRIMARY KEY,
        views bigint NOT NULL DEFAULT 0,
        downloads bigint NOT NULL DEFAULT 0,
        chats bigint NOT NULL DEFAULT 0,
        total bigint GENERATED ALWAYS AS (views + downloads + chats) STORED
      );
      CREATE INDEX activity_file_counts_top ON activity_file_counts (total DESC, file_id);

      -- Entries per UTC day: the whole firm's 30-day chart is 30 rows, not a month of entries.
      CREATE TABLE activity_days (
        day date PRIMARY KEY,
        count bigint NOT NULL
      );

      -- Live (not deleted) documents per client and kind; the key holds everything the
      -- access rules filter documents by.
      CREATE TABLE activity_document_counts (
        client_id integer NOT NULL,
        file_type text NOT NULL,
        report_type_id integer NOT NULL,
        documents bigint NOT NULL,
        PRIMARY KEY (client_id, file_type, report_type_id)
      )`,
    },
    {
      id: '002_activity_origin',
      // A document-request link upload has no signed-in user: the entry keeps where it came from.
      sql: `ALTER TABLE activity_logs ADD COLUMN address text;
      ALTER TABLE activity_logs ADD COLUMN user_agent text`,
    },
    {
      id: '003_activity_report_type',
      // The report type an entry is about (a report's, a document request item's): CPA and custom
      // roles see only the entries of their report types (docs/api/authorization.md). Entries
      // written before it have none and stay visible by client, as they were.
      sql: `ALTER TABLE activity_logs ADD COLUMN report_type_id integer`,
    },
    {
      id: '004_activity_staff_only',
      // Entries the client's own users do not read (issue 42: a return's moves name the firm's
      // stages, some hidden from clients). They are log entries only, not in the rollups.
      sql: `ALTER TABLE activity_logs ADD COLUMN staff_only boolean NOT NULL DEFAULT false`,
    },
    {
      id: '005_firm_summary_changes',
      // The platform's analytics read one summary per firm (admin/firm-summaries.ts): every
      // statement that changes what it is made of marks the firm changed, and the firm starts
      // marked so its first summary is made.
      sql: `${FIRM_SUMMARY_SOURCES.map((table) => `CREATE TRIGGER ${table}_firm_changed BEFORE INSERT OR UPDATE OR DELETE ON ${table}
              FOR EACH STATEMENT EXECUTE FUNCTION ${PLATFORM_SCHEMA}.activity_firm_changed()`).join(';\n')};
            INSERT INTO ${PLATFORM_SCHEMA}.activity_firm_changes (schema_name) VALUES (current_schema()) ON CONFLICT DO NOTHING`,
    },
  ],
};

/**
 * Platform-wide (schema \`portal\`): each firm's summary for the platform administrator's
 * analytics, and which firms changed since theirs was made (issue 45: the screen read every
 * firm's rollups on each request, 3.7 s at 1,000 firms). A change bumps the firm's version,
 * so a summary made while a change was being committed is made again (FirmSummaries).
 */
export const activityPlatformMigrations: ServiceMigrations = {
  service: 'activity',
  scope: 'platform',
  migrations: [
    {
      id: '001_firm_summaries',
      sql: `CREATE TABLE activity_firm_summaries (
              schema_name text PRIMARY KEY,
              summary jsonb NOT NULL,
              made_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE activity_firm_changes (
              schema_name text PRIMARY KEY,
              version bigint NOT NULL DEFAULT 1
            );
            CREATE FUNCTION activity_firm_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            BEGIN
              INSERT INTO activity_firm_changes (schema_name) VALUES (TG_TABLE_SCHEMA)
                ON CONFLICT (schema_name) DO UPDATE SET version = activity_firm_changes.version + 1;
              RETURN NULL;
            END $$`,
    },
  ],
};
