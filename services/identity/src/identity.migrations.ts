import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/** Platform-wide identity tables (schema `portal`): platform administrators and signing keys. */
export const identityPlatformMigrations: ServiceMigrations = {
  service: 'identity',
  scope: 'platform',
  migrations: [
    {
      id: '001_platform_admins',
      sql: `CREATE TABLE platform_admins (
        id serial PRIMARY KEY,
        username text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        full_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    },
    {
      id: '002_signing_keys',
      sql: `CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        created_at_ms bigint NOT NULL,
        private_jwk jsonb NOT NULL
      )`,
    },
  ],
};
