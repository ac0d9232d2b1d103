import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/**
 * The billing service's tables in every firm's schema. Amounts are bigint minor units. An
 * invoice copies what it was issued with (client's name, address, state, lines with their
 * computed tax) so a sent invoice never changes when the price list or the client does.
 */
export const billingTenantMigrations: ServiceMigrations = {
  service: 'billing',
  scope: 'tenant',
  migrations: [{
    id: '001_invoices',
    sql: `CREATE TABLE billing_settings (
      id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      invoice_prefix text NOT NULL DEFAULT 'INV-',
      address text,
      tax_registration text,
      state text,
      sales_tax_rate_percent numeric(6, 3) NOT NULL DEFAULT 0,
      payment_terms_days integer NOT NULL DEFAULT 30,
      bank_details text,
      -- The next invoice number: taken and advanced in the transaction that sends an invoice (row lock), so numbers never skip or repeat.
      next_invoice_sequence integer NOT NULL DEFAULT 1,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO billing_settings (id) VALUES (1);

    CREATE TABLE billing_services (
      id serial PRIMARY KEY,
      name text NOT NULL,
      description text,
      default_price bigint NOT NULL CHECK (default_price >= 0),
      tax_treatment text NOT NULL CHECK (tax_treatment IN ('standard', 'zero_rated', 'exempt')),
      sac_code text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE invoices (
      id serial PRIMARY KEY,
      sequence integer UNIQUE,
      number text UNIQUE,
      client_id integer NOT NULL,
      client_name text NOT NULL,
      client_address text,
      client_state text,
      client_registration text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'partially_paid', 'paid', 'void')),
      issue_date date,
      due_date date,
      currency text NOT NULL,
      country text NOT NULL,
      lines jsonb NOT NULL,
      tax_summary jsonb NOT NULL,
      subtotal bigint NOT NULL,
      tax bigint NOT NULL,
      total bigint NOT NULL,
      amount_paid bigint NOT NULL DEFAULT 0,
      notes text,
      links jsonb NOT NULL DEFAULT '{}',
      created_by_id integer,
      sent_at timestamptz,
      voided_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'draft') = (sequence IS NULL))
    );
    CREATE INDEX invoices_by_client ON invoices (client_id, id);
    CREATE INDEX invoices_by_status ON invoices (status, due_date);

    CREATE TABLE invoice_payments (
      id serial PRIMARY KEY,
      invoice_id integer NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
      amount bigint NOT NULL CHECK (amount > 0),
      method text NOT NULL CHECK (method IN ('cheque', 'cash', 'bank_transfer', 'card', 'bank_debit')),
      received_on date NOT NULL,
      reference text,
      -- A provider's event id: the same webhook delivered twice records one payment.
      provider_event_id text UNIQUE,
      recorded_by_id integer,
      recorded_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX invoice_payments_by_invoice ON invoice_payments (invoice_id, id);`,
  }, {
    id: '002_reminders',
    // The firm's cadence of reminders for unpaid invoices (REMINDER_DEFAULTS in the contracts).
    sql: `ALTER TABLE billing_settings
      ADD COLUMN reminders_enabled boolean NOT NULL DEFAULT true,
      ADD COLUMN reminder_days_before integer NOT NULL DEFAULT 3 CHECK (reminder_days_before BETWEEN 0 AND 60),
      ADD COLUMN reminder_every_days_after integer NOT NULL DEFAULT 7 CHECK (reminder_every_days_after BETWEEN 0 AND 90);`,
  }, {
    id: '003_recurring_invoices',
    // A schedule on a draft (the template): each issue copies it into a new invoice and sends it.
    // anchor_day keeps the 31st the 31st (or the month's last day) month after month.
    sql: `CREATE TABLE invoice_schedules (
      template_id integer PRIMARY KEY REFERENCES invoices (id) ON DELETE CASCADE,
      frequency text NOT NULL CHECK (frequency IN ('monthly', 'quarterly')),
      next_issue_date date NOT NULL,
      anchor_day integer NOT NULL CHECK (anchor_day BETWEEN 1 AND 31),
      due_in_days integer CHECK (due_in_days BETWEEN 0 AND 365),
      active boolean NOT NULL DEFAULT true,
      paused_reason text,
      last_invoice_id integer,
      last_issued_on date,
      created_by_id integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );`,
  }],
};
