import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/** Directory's tables in every tenant schema (names distinct from identity's in the same schema). */
export const directoryTenantMigrations: ServiceMigrations = {
  service: 'directory',
  scope: 'tenant',
  migrations: [
    {
      id: '001_clients',
      sql: `-- Trigrams of a text, as pg_trgm makes them (pg_trgm is not in PGlite): a GIN index
      -- over them finds the rows holding every trigram of a search term, and LIKE rechecks
      -- only those, so a substring search does not scan every client.
      CREATE FUNCTION client_search_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        'SELECT coalesce(array_agg(DISTINCT substr(t, i, 3)), ''{}'') FROM generate_series(1, length(t) - 2) AS i';
      CREATE TABLE clients (
        id serial PRIMARY KEY,
        name text NOT NULL,
        address text NOT NULL,
        phone text NOT NULL,
        federal_id text NOT NULL,
        state_id text NOT NULL,
        email text NOT NULL,
        employee_count integer NOT NULL DEFAULT 0 CHECK (employee_count >= 0),
        start_date date NOT NULL DEFAULT current_date,
        upload_destination text NOT NULL DEFAULT 'server' CHECK (upload_destination IN ('server', 'google_drive')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- The search box matches a substring of any of these fields, case-insensitively.
        search_text text GENERATED ALWAYS AS (lower(name || chr(31) || email || chr(31) || phone || chr(31) || federal_id || chr(31) || state_id || chr(31) || address)) STORED
      );
      -- An expression index: the trigram arrays live in the index only, rows stay narrow.
      -- fastupdate off: clients are written rarely and searched often, so entries go into
      -- the index at once instead of a pending list every search would have to scan.
      CREATE INDEX clients_search_grams ON clients USING gin (client_search_grams(search_text)) WITH (fastupdate = off);
      CREATE INDEX clients_name ON clients (lower(name), id);
      CREATE TABLE report_types (
        id serial PRIMARY KEY,
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX report_types_name ON report_types (lower(name));
      -- One row per firm at most (the singleton column is unique and always true).
      CREATE TABLE client_field_settings (
        id serial PRIMARY KEY,
        singleton boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton),
        phone_label text NOT NULL,
        phone_country text NOT NULL,
        phone_pattern text NOT NULL,
        phone_example text NOT NULL,
        federal_id_label text NOT NULL,
        federal_id_pattern text NOT NULL,
        federal_id_example text NOT NULL,
        state_id_label text NOT NULL,
        state_id_pattern text NOT NULL,
        state_id_example text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Secrets and tokens are sealed (AES-256-GCM) before they reach this table.
      CREATE TABLE client_google_drive (
        client_id integer PRIMARY KEY REFERENCES clients(id) ON DELETE CASCADE,
        oauth_client_id text NOT NULL,
        oauth_client_secret_sealed text NOT NULL,
        refresh_token_sealed text,
        access_token_sealed text,
        token_expires_at timestamptz,
        folder_id text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    },
    {
      id: '002_report_type_files',
      sql: `-- Which stored file uses which report type, fed by the files service's events, so a
      -- report type in use is never deleted (its files would keep a dead label).
      CREATE TABLE report_type_files (
        file_id integer PRIMARY KEY,
        report_type_id integer NOT NULL
      );
      CREATE INDEX report_type_files_type ON report_type_files (report_type_id)`,
    },
    {
      id: '003_client_jurisdiction_entity',
      sql: `-- Where a client files and as what (DESIGN §8 "firm calendar"): existing clients take the
      -- firm's country (its phone country), as new ones do when none is given.
      ALTER TABLE clients ADD COLUMN jurisdiction text NOT NULL DEFAULT 'US' CHECK (jurisdiction IN ('US', 'CA', 'IN', 'UK', 'AU'));
      UPDATE clients SET jurisdiction = s.phone_country FROM client_field_settings s WHERE s.phone_country IN ('US', 'CA', 'IN', 'UK', 'AU');
      ALTER TABLE clients ADD COLUMN entity_type text
        CHECK (entity_type IN ('individual', 'sole_proprietor', 'partnership', 'c_corp', 's_corp', 'company', 'llp', 'trust'))`,
    },
    {
      id: '004_client_fiscal_year_state_registrations',
      sql: `-- What the statutory calendars need of a client (issue 39): the day its financial year ends
      -- (null: the jurisdiction's default, answered on read), its State (ISO 3166-2) and its
      -- registrations (null: not said).
      ALTER TABLE clients ADD COLUMN fiscal_year_end text CHECK (fiscal_year_end ~ '^[01][0-9]-[0-3][0-9]$');
      ALTER TABLE clients ADD COLUMN state text;
      ALTER TABLE clients ADD COLUMN registrations text[]`,
    },
    {
      id: '005_client_tax_ids',
      sql: `-- A client's typed tax IDs (issue 40), one per type, stored compact; a number belongs to one
      -- client of the firm, and the import finds a client by it.
      CREATE TABLE client_tax_ids (
        client_id integer NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        type text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (client_id, type)
      );
      CREATE UNIQUE INDEX client_tax_ids_value ON client_tax_ids (type, value);
      -- Search finds a client by the last four characters of a tax ID, never by more: only
      -- the tails join the searched text.
      ALTER TABLE clients ADD COLUMN tax_id_tails text NOT NULL DEFAULT '';
      DROP INDEX clients_search_grams;
      ALTER TABLE clients DROP COLUMN search_text;
      ALTER TABLE clients ADD COLUMN search_text text GENERATED ALWAYS AS (lower(name || chr(31) || email || chr(31) || phone || chr(31) || federal_id
        || chr(31) || state_id || chr(31) || address || chr(31) || tax_id_tails)) STORED;
      CREATE INDEX clients_search_grams ON clients USING gin (client_search_grams(search_text)) WITH (fastupdate = off);
      CREATE INDEX clients_lower_name ON clients (lower(name))`,
    },
    {
      id: '006_role_permissions',
      sql: `-- Which roles may reveal clients' whole tax IDs (issue 40), as identity announces its roles
      -- (role.upserted); a role without a row has identity's default (Admin yes, others no).
      CREATE TABLE role_permissions (
        role_id integer PRIMARY KEY,
        reveal_tax_ids boolean NOT NULL,
        version timestamptz NOT NULL
      )`,
    },
  ],
};
