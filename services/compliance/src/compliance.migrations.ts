import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/**
 * The compliance service's tables in every firm's schema. A tracker item is unique per
 * schedule and period (`period_key`, the due month as 'YYYY-MM'): generating a year again,
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
  }],
};
