import type { ServiceMigrations } from '../db/migrations.ts';

/**
 * Platform tables of the transactional outbox and the consumer inbox. Every service that
 * publishes or consumes events includes this set in its migrations; applying it more than
 * once is a no-op (history is per service name, and the name here is shared).
 */
export const outboxMigrations: ServiceMigrations = {
  service: 'kit-outbox',
  scope: 'platform',
  migrations: [
    {
      id: '001_create_outbox_and_inbox',
      sql: `
        CREATE TABLE outbox (
          id bigserial PRIMARY KEY,
          event_id text NOT NULL,
          event jsonb NOT NULL,
          enqueued_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE inbox (
          consumer text NOT NULL,
          event_id text NOT NULL,
          consumed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, event_id)
        );`,
    },
  ],
};
