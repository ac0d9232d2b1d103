import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

const STATUSES = `('pending', 'in_progress', 'completed', 'cancelled')`;

/**
 * The tasks service's tables in every firm's schema. A recurring task is a series of rows:
 * `series_id` (the first occurrence's id) and `occurrence` are unique together, so the
 * next occurrence is inserted once however many requests or replicas complete the current
 * one at the same time. The next due date counts periods from `series_origin`, the due date
 * of occurrence `origin_occurrence` (re-anchored when someone moves a due date), so month
 * ends clamp without drifting.
 */
export const tasksTenantMigrations: ServiceMigrations = {
  service: 'tasks',
  scope: 'tenant',
  migrations: [{
    id: '001_tasks',
    sql: `CREATE TABLE tasks (
      id serial PRIMARY KEY,
      title text NOT NULL,
      description text,
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ${STATUSES}),
      due_date timestamptz,
      assigned_to_id integer,
      created_by_id integer NOT NULL,
      client_ids integer[] NOT NULL DEFAULT '{}',
      report_type_id integer,
      is_recurring boolean NOT NULL DEFAULT false,
      recurring_pattern text CHECK (recurring_pattern IN ('daily', 'weekly', 'monthly', 'quarterly', 'yearly')),
      recurring_end_date timestamptz,
      series_id integer,
      occurrence integer NOT NULL DEFAULT 0,
      series_origin timestamptz,
      origin_occurrence integer NOT NULL DEFAULT 0,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (series_id, occurrence)
    );
    CREATE INDEX tasks_by_due ON tasks (due_date, id);
    CREATE INDEX tasks_by_assignee ON tasks (assigned_to_id, due_date, id);
    CREATE INDEX tasks_by_status ON tasks (status, due_date, id);
    CREATE INDEX tasks_by_client ON tasks USING gin (client_ids);

    CREATE TABLE task_client_statuses (
      id serial PRIMARY KEY,
      task_id integer NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      client_id integer NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ${STATUSES}),
      comments text,
      updated_by_id integer,
      updated_by_name text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (task_id, client_id)
    );

    -- One row per notification.requested event (event_id): a redelivery never notifies twice.
    CREATE TABLE notifications (
      id serial PRIMARY KEY,
      event_id text NOT NULL UNIQUE,
      user_id integer NOT NULL,
      title text NOT NULL,
      message text NOT NULL,
      type text NOT NULL,
      category text NOT NULL,
      task_id integer,
      task_title text,
      reminder_id integer,
      client_id integer,
      client_name text,
      is_read boolean NOT NULL DEFAULT false,
      action_url text,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_by_user ON notifications (user_id, created_at DESC, id DESC);
    CREATE INDEX notifications_unread ON notifications (user_id, created_at DESC, id DESC) WHERE NOT is_read;
    -- The bell polls every user's unread count: a counter a trigger keeps answers it in one row
    -- read, however many notifications a user has (counting them took seconds at 100k+).
    CREATE TABLE notification_unread_counts (
      user_id integer PRIMARY KEY,
      unread integer NOT NULL
    );
    CREATE FUNCTION notifications_unread_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      uid integer;
      delta integer;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        uid := NEW.user_id; delta := CASE WHEN NEW.is_read THEN 0 ELSE 1 END;
      ELSIF TG_OP = 'DELETE' THEN
        uid := OLD.user_id; delta := CASE WHEN OLD.is_read THEN 0 ELSE -1 END;
      ELSE
        uid := NEW.user_id; delta := (CASE WHEN NEW.is_read THEN 0 ELSE 1 END) - (CASE WHEN OLD.is_read THEN 0 ELSE 1 END);
      END IF;
      IF delta <> 0 THEN
        INSERT INTO notification_unread_counts AS c (user_id, unread) VALUES (uid, delta)
        ON CONFLICT (user_id) DO UPDATE SET unread = c.unread + EXCLUDED.unread;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER notifications_unread AFTER INSERT OR DELETE OR UPDATE OF is_read ON notifications
      FOR EACH ROW EXECUTE FUNCTION notifications_unread_change();

    -- Spec 001 §3 "Reminder": what a task's assignee is told before it is due (due_soon) and
    -- once it is overdue (overdue); each fires through the scheduler's job of the same id.
    CREATE TABLE reminders (
      id serial PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('due_soon', 'overdue')),
      title text NOT NULL,
      message text NOT NULL,
      type text NOT NULL DEFAULT 'general',
      reminder_date timestamptz NOT NULL,
      is_recurring boolean NOT NULL DEFAULT false,
      recurring_pattern text,
      reminder_time text,
      user_id integer NOT NULL,
      task_id integer NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      client_id integer,
      is_read boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (task_id, kind)
    )`,
  }, {
    id: '002_due_dates_are_dates',
    // Due dates are calendar dates (docs/using/time-zones-and-thresholds.md). The old form sent the
    // browser's local midnight as an instant: 12 hours later in UTC lands on that local date for
    // every zone from UTC-11 to UTC+12, and a date sent bare (UTC midnight) stays itself.
    sql: `ALTER TABLE tasks
      ALTER COLUMN due_date TYPE date USING ((due_date AT TIME ZONE 'UTC') + interval '12 hours')::date,
      ALTER COLUMN recurring_end_date TYPE date USING ((recurring_end_date AT TIME ZONE 'UTC') + interval '12 hours')::date,
      ALTER COLUMN series_origin TYPE date USING ((series_origin AT TIME ZONE 'UTC') + interval '12 hours')::date`,
  }],
};
