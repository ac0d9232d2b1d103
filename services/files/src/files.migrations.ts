import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/** The files service's tables in every tenant schema (spec 001 §3 "File", "File content cache"). */
export const filesTenantMigrations: ServiceMigrations = {
  service: 'files',
  scope: 'tenant',
  migrations: [
    {
      id: '001_files',
      sql: `CREATE TABLE files (
        id serial PRIMARY KEY,
        original_name text NOT NULL,
        filename text NOT NULL,
        mime_type text NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        client_id integer,
        file_type text NOT NULL CHECK (file_type IN ('report', 'company_document', 'firm_document')),
        document_type text,
        report_type_id integer,
        -- actorId: a platform administrator's id negated (kit/auth/actor-id.ts).
        uploaded_by_id integer NOT NULL,
        uploader_name text NOT NULL,
        -- Where the bytes are: an object store key, or a Google Drive file id in the client's folder.
        storage text NOT NULL CHECK (storage IN ('object', 'google_drive')),
        storage_key text NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        -- Words of the name (weight A) and, once extracted, of the content (weight B): what a
        -- search matches, through the GIN index only (a long document's vector is stored out
        -- of line, and reading it per row is what makes a search slow).
        search_vector tsvector NOT NULL,
        -- The name and the first words of the content: small enough to stay in the row, so
        -- ranking thousands of matches reads no out-of-line vector.
        rank_vector tsvector NOT NULL
      );
      -- The list is newest first, for the firm or for a client, a file type or a report type.
      CREATE INDEX files_uploaded ON files (uploaded_at DESC, id DESC);
      CREATE INDEX files_client_uploaded ON files (client_id, uploaded_at DESC, id DESC);
      CREATE INDEX files_type_uploaded ON files (file_type, uploaded_at DESC, id DESC);
      CREATE INDEX files_report_type_uploaded ON files (report_type_id, uploaded_at DESC, id DESC) WHERE report_type_id IS NOT NULL;
      CREATE INDEX files_search ON files USING gin (search_vector);
      -- "Extract content from existing files" looks for these.
      CREATE INDEX files_unprocessed ON files (id) WHERE processed_at IS NULL;
      -- Files per (client, type, report type), kept by a trigger: the list's X-Total-Count sums
      -- these few rows, with the same visibility condition, instead of counting 100,000 files.
      CREATE TABLE file_counts (
        client_id integer,
        file_type text NOT NULL,
        report_type_id integer,
        files integer NOT NULL
      );
      CREATE UNIQUE INDEX file_counts_group ON file_counts ((coalesce(client_id, 0)), file_type, (coalesce(report_type_id, 0)));
      CREATE FUNCTION files_count_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO file_counts AS c (client_id, file_type, report_type_id, files) VALUES (NEW.client_id, NEW.file_type, NEW.report_type_id, 1)
          ON CONFLICT ((coalesce(client_id, 0)), file_type, (coalesce(report_type_id, 0))) DO UPDATE SET files = c.files + 1;
          RETURN NEW;
        END IF;
        UPDATE file_counts SET files = files - 1
        WHERE coalesce(client_id, 0) = coalesce(OLD.client_id, 0) AND file_type = OLD.file_type AND coalesce(report_type_id, 0) = coalesce(OLD.report_type_id, 0);
        RETURN OLD;
      END $$;
      CREATE TRIGGER files_count AFTER INSERT OR DELETE ON files FOR EACH ROW EXECUTE FUNCTION files_count_change();
      CREATE TABLE file_contents (
        id serial PRIMARY KEY,
        file_id integer NOT NULL UNIQUE REFERENCES files(id) ON DELETE CASCADE,
        extracted_text text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`,
    },
    {
      id: '002_search_plan',
      // How a search finds the newest matches, decided in one round trip instead of four
      // (file.store.ts #searchShape explains the choice): the planner's estimates of all
      // files and of the matches give the shape, whose planner settings are set for the
      // transaction.
      sql: `CREATE FUNCTION files_search_shape(query tsquery, candidates integer, walk_min_density float8)
        RETURNS text LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
      DECLARE
        plan json;
        files float8;
        matches float8;
      BEGIN
        EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM files' INTO plan;
        files := (plan->0->'Plan'->>'Plan Rows')::float8;
        EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM files f WHERE f.search_vector @@ %L::tsquery', query) INTO plan;
        matches := (plan->0->'Plan'->>'Plan Rows')::float8;
        PERFORM set_config('enable_seqscan', 'off', true);
        IF files > 0 AND matches / files >= walk_min_density AND matches >= candidates THEN
          RETURN 'walk';
        END IF;
        PERFORM set_config('enable_indexscan', 'off', true);
        RETURN 'bitmap';
      END $$`,
    },
    {
      id: '003_search_window',
      // The plan also names a window of the newest files for a search whose matches are
      // too sparse to walk to but plenty in all (file.store.ts #searchPlan): the time from
      // which the newest `window_spare` × candidates ÷ density files were uploaded.
      sql: `DROP FUNCTION files_search_shape(tsquery, integer, float8);
      CREATE FUNCTION files_search_plan(query tsquery, candidates integer, walk_min_density float8, window_spare float8)
        RETURNS json LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
      DECLARE
        plan json;
        files float8;
        matches float8;
        newest bigint;
        since timestamptz;
      BEGIN
        EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM files' INTO plan;
        files := (plan->0->'Plan'->>'Plan Rows')::float8;
        EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM files f WHERE f.search_vector @@ %L::tsquery', query) INTO plan;
        matches := (plan->0->'Plan'->>'Plan Rows')::float8;
        IF files > 0 AND matches / files >= walk_min_density AND matches >= candidates THEN
          PERFORM set_config('enable_seqscan', 'off', true);
          RETURN json_build_object('shape', 'walk');
        END IF;
        IF files > 0 AND matches >= candidates THEN
          newest := ceil(window_spare * candidates * files / matches);
          IF newest < files * 0.8 THEN
            -- Before the planner settings below, which would keep this from the index.
            SELECT f.uploaded_at INTO since FROM files f ORDER BY f.uploaded_at DESC, f.id DESC OFFSET newest LIMIT 1;
          END IF;
        END IF;
        PERFORM set_config('enable_seqscan', 'off', true);
        PERFORM set_config('enable_indexscan', 'off', true);
        RETURN json_build_object('shape', 'bitmap', 'since', since);
      END $$`,
    },
    {
      id: '004_search_window_from_statistics',
      // The window's start read from the upload times' histogram (PostgreSQL's statistics of
      // the column) instead of stepping over the newest files in the index: a window of 70,000
      // files took 2-5 ms to find, a third of a search. The statistics lag behind uploads
      // made since the last ANALYZE, which only widens the window (those files are the
      // newest); without a histogram (a small or new firm) the index is stepped as before.
      sql: `CREATE OR REPLACE FUNCTION files_search_plan(query tsquery, candidates integer, walk_min_density float8, window_spare float8)
        RETURNS json LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
      DECLARE
        plan json;
        files float8;
        matches float8;
        newest bigint;
        since timestamptz;
        bounds timestamptz[];
      BEGIN
        EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM files' INTO plan;
        files := (plan->0->'Plan'->>'Plan Rows')::float8;
        EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM files f WHERE f.search_vector @@ %L::tsquery', query) INTO plan;
        matches := (plan->0->'Plan'->>'Plan Rows')::float8;
        IF files > 0 AND matches / files >= walk_min_density AND matches >= candidates THEN
          PERFORM set_config('enable_seqscan', 'off', true);
          RETURN json_build_object('shape', 'walk');
        END IF;
        IF files > 0 AND matches >= candidates THEN
          newest := ceil(window_spare * candidates * files / matches);
          IF newest < files * 0.8 THEN
            SELECT s.histogram_bounds::text::timestamptz[] INTO bounds FROM pg_stats s
              WHERE s.schemaname = current_schema() AND s.tablename = 'files' AND s.attname = 'uploaded_at';
            IF array_length(bounds, 1) >= 10 THEN
              -- The bound below which (1 - newest/files) of the files lie, rounded down (a wider window).
              since := bounds[1 + floor((1 - newest / files) * (array_length(bounds, 1) - 1))::int];
            ELSE
              -- Before the planner settings below, which would keep this from the index.
              SELECT f.uploaded_at INTO since FROM files f ORDER BY f.uploaded_at DESC, f.id DESC OFFSET newest LIMIT 1;
            END IF;
          END IF;
        END IF;
        PERFORM set_config('enable_seqscan', 'off', true);
        PERFORM set_config('enable_indexscan', 'off', true);
        RETURN json_build_object('shape', 'bitmap', 'since', since);
      END $$`,
    },
    {
      id: '005_file_request_items_and_tracker_periods',
      // What a client's ZIP says of each file (client-archive.ts), kept from other services'
      // events (file-context.consumer.ts): the request item a file was uploaded for, and the
      // covered period of tracker items (a request's, or the item a file was matched to).
      sql: `CREATE TABLE file_request_items (
        file_id integer PRIMARY KEY,
        request_id integer NOT NULL,
        request_title text NOT NULL,
        item_id integer NOT NULL,
        item_title text NOT NULL,
        tracker_item_id integer
      );
      CREATE INDEX file_request_items_by_request ON file_request_items (request_id);
      CREATE TABLE file_tracker_periods (
        tracker_item_id integer PRIMARY KEY,
        period text NOT NULL,
        period_start date NOT NULL,
        period_end date NOT NULL,
        source_file_id integer,
        deleted boolean NOT NULL DEFAULT false,
        version timestamptz NOT NULL
      );
      CREATE INDEX file_tracker_periods_by_file ON file_tracker_periods (source_file_id) WHERE source_file_id IS NOT NULL`,
    },
    {
      // Documents released on payment (issue 43). Billing's invoices as its invoice.changed
      // events tell them (DESIGN §2: never its tables), and the files waiting for one of them.
      id: '006_payment_holds',
      sql: `CREATE TABLE file_invoices (
        invoice_id integer PRIMARY KEY,
        client_id integer NOT NULL,
        number text NOT NULL,
        status text NOT NULL,
        version timestamptz NOT NULL
      );
      CREATE TABLE file_payment_holds (
        file_id integer PRIMARY KEY REFERENCES files (id) ON DELETE CASCADE,
        invoice_id integer NOT NULL,
        invoice_number text NOT NULL,
        created_by_id integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        released_at timestamptz,
        -- 'payment', or the actor id of whoever released it by hand.
        released_by text
      );
      CREATE INDEX file_payment_holds_waiting ON file_payment_holds (invoice_id) WHERE released_at IS NULL`,
    },
    {
      // A report type of a client held until an invoice is paid (issue 43): every file of that
      // client and report type, existing and uploaded while it holds, gets a file hold marked
      // as the report type's, so lists and downloads read one table as before.
      id: '007_report_type_payment_holds',
      sql: `CREATE TABLE file_report_type_holds (
        client_id integer NOT NULL,
        report_type_id integer NOT NULL,
        invoice_id integer NOT NULL,
        invoice_number text NOT NULL,
        created_by_id integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        released_at timestamptz,
        released_by text,
        PRIMARY KEY (client_id, report_type_id)
      );
      CREATE INDEX file_report_type_holds_waiting ON file_report_type_holds (invoice_id) WHERE released_at IS NULL;
      ALTER TABLE file_payment_holds ADD COLUMN by_report_type boolean NOT NULL DEFAULT false`,
    },
  ],
};
