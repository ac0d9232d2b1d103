import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { installShippedTemplates } from './organizers/organizer.store.ts';
import { SHIPPED_ORGANIZER_TEMPLATES } from './organizers/shipped/index.ts';

/**
 * The requests service's tables in every firm's schema. Files stay the files service's:
 * an item keeps only the id and name of each file uploaded for it. A link keeps only the
 * hash of its token (kit/crypto/hashed-token.ts).
 */
export const requestsTenantMigrations: ServiceMigrations = {
  service: 'requests',
  scope: 'tenant',
  migrations: [{
    id: '001_document_requests',
    sql: `CREATE TABLE request_templates (
      id serial PRIMARY KEY,
      name text NOT NULL,
      report_type_id integer,
      items jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE document_requests (
      id serial PRIMARY KEY,
      client_id integer NOT NULL,
      client_name text NOT NULL,
      title text NOT NULL,
      message text,
      due_date date NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'cancelled')),
      reminder_every_days integer NOT NULL CHECK (reminder_every_days BETWEEN 1 AND 30),
      report_type_id integer,
      tracker_item_id integer,
      assigned_to_id integer NOT NULL,
      assigned_to_name text NOT NULL,
      created_by_id integer NOT NULL,
      required_count integer NOT NULL DEFAULT 0,
      done_count integer NOT NULL DEFAULT 0,
      -- The due date the reviewer was told is overdue: one notice per due date, however often the request is re-armed.
      overdue_notice_for date,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      last_activity_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX document_requests_by_due ON document_requests (due_date, id);
    CREATE INDEX document_requests_by_client ON document_requests (client_id, due_date, id);
    CREATE INDEX document_requests_by_status ON document_requests (status, due_date, id);

    CREATE TABLE document_request_items (
      id serial PRIMARY KEY,
      request_id integer NOT NULL REFERENCES document_requests (id) ON DELETE CASCADE,
      position integer NOT NULL,
      title text NOT NULL,
      description text,
      required boolean NOT NULL DEFAULT true,
      report_type_id integer,
      status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'uploaded', 'accepted', 'rejected', 'not_applicable')),
      client_comment text,
      staff_comment text,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX document_request_items_by_request ON document_request_items (request_id, position);

    CREATE TABLE document_request_files (
      id serial PRIMARY KEY,
      item_id integer NOT NULL REFERENCES document_request_items (id) ON DELETE CASCADE,
      file_id integer NOT NULL,
      file_name text NOT NULL,
      uploaded_at timestamptz NOT NULL DEFAULT now(),
      uploaded_by_name text NOT NULL,
      via_link boolean NOT NULL DEFAULT false
    );
    CREATE INDEX document_request_files_by_item ON document_request_files (item_id, uploaded_at);

    CREATE TABLE document_request_links (
      id serial PRIMARY KEY,
      request_id integer NOT NULL REFERENCES document_requests (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      email text,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_by_id integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX document_request_links_by_request ON document_request_links (request_id, id)`,
  }, {
    id: '002_request_revision',
    // Every event of a request carries the next revision, so the read models fed by them
    // (compliance's tracker) keep the newest state whatever order deliveries come in.
    sql: 'ALTER TABLE document_requests ADD COLUMN revision integer NOT NULL DEFAULT 0',
  }, {
    id: '003_request_uploaded_count',
    // The list says how many items wait for review without reading the items (recount keeps it).
    sql: `ALTER TABLE document_requests ADD COLUMN uploaded_count integer NOT NULL DEFAULT 0;
    UPDATE document_requests r SET uploaded_count = c.uploaded
      FROM (SELECT request_id, count(*)::int AS uploaded FROM document_request_items WHERE status = 'uploaded' GROUP BY request_id) c
      WHERE c.request_id = r.id`,
  }, {
    id: '004_link_renewed_at',
    // When a new link was last e-mailed in place of this expired one: at most one an hour per link, on every replica.
    sql: 'ALTER TABLE document_request_links ADD COLUMN renewed_at timestamptz',
    }, {
    id: '005_organizers',
    // Organizers (issue 42). A template's `built_in` names the shipped template a firm's copy
    // came from (seeded per firm on first use; read-only). An organizer keeps a snapshot of
    // its template's sections (later template edits do not change a sent questionnaire); its
    // sensitive answers (SSNs, bank numbers) live sealed in `sensitive_answers`, never in `answers`.
    sql: `CREATE TABLE organizer_templates (
      id serial PRIMARY KEY,
      name text NOT NULL,
      report_type_id integer,
      jurisdiction text,
      description text,
      sections jsonb NOT NULL,
      built_in text UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE organizers (
      id serial PRIMARY KEY,
      client_id integer NOT NULL,
      client_name text NOT NULL,
      template_id integer NOT NULL REFERENCES organizer_templates (id),
      template_name text NOT NULL,
      built_in text,
      year integer NOT NULL,
      title text NOT NULL,
      message text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'in_progress', 'submitted', 'reviewed')),
      due_date date NOT NULL,
      reminder_every_days integer NOT NULL CHECK (reminder_every_days BETWEEN 1 AND 30),
      report_type_id integer,
      tracker_item_id integer,
      request_id integer,
      report_file_id integer,
      sections jsonb NOT NULL,
      answers jsonb NOT NULL DEFAULT '{}',
      sensitive_answers text,
      prefilled_from_id integer,
      -- Progress as the list shows it, counted when answers are saved (SurveyJS decides what shows).
      answered_count integer NOT NULL DEFAULT 0,
      question_count integer NOT NULL DEFAULT 0,
      sent_at timestamptz,
      submitted_at timestamptz,
      reviewed_at timestamptz,
      created_by_id integer NOT NULL,
      created_by_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (client_id, template_id, year)
    );
    CREATE INDEX organizers_by_client ON organizers (client_id, year, id);
    CREATE INDEX organizers_by_tracker_item ON organizers (tracker_item_id) WHERE tracker_item_id IS NOT NULL`,
  }, {
    id: '006_organizer_links',
    // Links to answer an organizer without an account: only the token's hash is kept, as for request links.
    sql: `CREATE TABLE organizer_links (
      id serial PRIMARY KEY,
      organizer_id integer NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      email text,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_by_id integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX organizer_links_by_organizer ON organizer_links (organizer_id, id)`,
  }, {
    id: '007_organizer_files',
    // The files uploaded for an organizer's file questions (filed by the files service as
    // reports of the client): a file answer may name only these, so an answer cannot claim
    // a file of anyone else's.
    sql: `CREATE TABLE organizer_files (
      organizer_id integer NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
      question_id text NOT NULL,
      file_id integer NOT NULL,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organizer_id, file_id)
    )`,
  }, {
    id: '008_shipped_organizer_templates',
    // The shipped templates are installed with the firm's schema instead of on each read. One
    // fits a report type by name (resolved as it is read); its stored report_type_id is cleared.
    sql: 'ALTER TABLE organizer_templates ADD COLUMN fits_report_type text',
    run: (tx) => installShippedTemplates(tx, SHIPPED_ORGANIZER_TEMPLATES),
  }],
};
