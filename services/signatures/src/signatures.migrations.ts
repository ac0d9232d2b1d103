import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/**
 * The signatures service's tables in every firm's schema (issue 41). The originals are
 * copied in when the request is made (the files service may delete its copy; what was
 * signed must stay what was shown), the sealed result is kept beside them; a signer's link
 * keeps only its token's hash, knowledge answers only their normalised hash, an e-mailed
 * code only its hash.
 */
export const signaturesTenantMigrations: ServiceMigrations = {
  service: 'signatures',
  scope: 'tenant',
  migrations: [{
    id: '001_signature_requests',
    sql: `CREATE TABLE signature_requests (
      id serial PRIMARY KEY,
      client_id integer NOT NULL,
      client_name text NOT NULL,
      title text NOT NULL,
      message text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'completed', 'declined', 'voided', 'expired')),
      due_date date,
      reminder_every_days integer,
      report_type_id integer NOT NULL,
      tracker_item_id integer,
      identity text NOT NULL CHECK (identity IN ('sign_in_second_factor', 'knowledge', 'provider')),
      fields jsonb NOT NULL DEFAULT '[]',
      created_by_id integer NOT NULL,
      created_by_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      completed_at timestamptz,
      void_reason text,
      signed_pdf bytea,
      signed_sha256 text,
      certificate_pdf bytea,
      signed_file_id integer,
      -- When a replica began handing the sealed PDF to the files service (a claim, so two never file it twice).
      filing_started_at timestamptz
    );
    CREATE INDEX signature_requests_by_client ON signature_requests (client_id, id);
    CREATE INDEX signature_requests_by_status ON signature_requests (status, id);

    CREATE TABLE signature_documents (
      request_id integer NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
      position integer NOT NULL,
      file_id integer NOT NULL,
      name text NOT NULL,
      sha256 text NOT NULL,
      pages jsonb NOT NULL,
      content bytea NOT NULL,
      PRIMARY KEY (request_id, position)
    );

    CREATE TABLE signature_signers (
      id serial PRIMARY KEY,
      request_id integer NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
      position integer NOT NULL,
      user_id integer,
      name text NOT NULL,
      email text NOT NULL,
      role text NOT NULL,
      sign_order integer NOT NULL,
      knowledge jsonb NOT NULL DEFAULT '[]',
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'signed', 'declined')),
      token_hash text UNIQUE,
      link_expires_at timestamptz,
      notified_at timestamptz,
      viewed_at timestamptz,
      consented_at timestamptz,
      consent_version text,
      identity_verified_at timestamptz,
      identity_result text,
      failed_checks integer NOT NULL DEFAULT 0,
      locked_at timestamptz,
      code_hash text,
      code_expires_at timestamptz,
      code_attempts integer NOT NULL DEFAULT 0,
      signed_at timestamptz,
      declined_at timestamptz,
      decline_reason text,
      adoption jsonb,
      field_values jsonb,
      address text,
      browser text,
      UNIQUE (request_id, position)
    );

    CREATE TABLE signature_events (
      id serial PRIMARY KEY,
      request_id integer NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
      signer_position integer,
      action text NOT NULL,
      actor text NOT NULL,
      detail text,
      address text,
      browser text,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX signature_events_by_request ON signature_events (request_id, id)`,
  }, {
    // A signed document released on payment of an invoice (issue 43): the invoice and its number, as billing answered when it was chosen.
    id: '002_release_on_payment',
    sql: `ALTER TABLE signature_requests ADD COLUMN release_on_payment_of integer, ADD COLUMN release_invoice_number text`,
  }, {
    // Templates keep a copy of their PDF (a firm document) like requests keep theirs; a letter
    // rendered from a template's body is a document no file stands behind.
    id: '003_signature_templates',
    sql: `CREATE TABLE signature_templates (
      id serial PRIMARY KEY,
      name text NOT NULL,
      report_type_id integer,
      kind text NOT NULL CHECK (kind IN ('engagement_letter', 'form_placement')),
      file_id integer,
      file_name text,
      pages jsonb,
      content bytea,
      body text,
      signers jsonb NOT NULL DEFAULT '[]',
      fields jsonb NOT NULL DEFAULT '[]',
      created_by_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE signature_documents ALTER COLUMN file_id DROP NOT NULL`,
  }],
};
