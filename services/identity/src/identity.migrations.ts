import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/** Platform-wide identity tables (schema `portal`): firms, platform administrators, signing keys, login index. */
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
    {
      id: '003_companies',
      sql: `CREATE TABLE companies (
        id serial PRIMARY KEY,
        name text NOT NULL,
        short_name text NOT NULL UNIQUE,
        schema_name text NOT NULL UNIQUE,
        custom_domain text,
        custom_subdomain text,
        url_pattern text NOT NULL DEFAULT 'path' CHECK (url_pattern IN ('path', 'subdomain', 'domain')),
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- Usernames are unique platform-wide so the generic /login can find a user's firm.
      CREATE TABLE user_logins (
        username text PRIMARY KEY,
        schema_name text NOT NULL
      )`,
    },
    {
      id: '004_company_time_zone',
      // The firm's IANA time zone; null follows the platform's default (PORTAL_DEFAULT_TIME_ZONE).
      sql: 'ALTER TABLE companies ADD COLUMN time_zone text',
    },
    {
      id: '005_firm_moves',
      // Firm export and import jobs (portability/): their state and where an export's archive is stored.
      sql: `CREATE TABLE firm_exports (
        id uuid PRIMARY KEY,
        company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('running', 'ready', 'failed')),
        progress integer NOT NULL DEFAULT 0,
        size bigint,
        message text,
        object_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE firm_imports (
        id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('running', 'ready', 'failed')),
        progress integer NOT NULL DEFAULT 0,
        message text,
        short_name text NOT NULL,
        company_id integer REFERENCES companies(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    },
  ],
};

/** Identity's tables in every tenant schema. */
export const identityTenantMigrations: ServiceMigrations = {
  service: 'identity',
  scope: 'tenant',
  migrations: [
    {
      id: '001_roles_users',
      sql: `CREATE TABLE roles (
        id serial PRIMARY KEY,
        name text NOT NULL UNIQUE
      );
      INSERT INTO roles (name) VALUES ('Admin'), ('DTA'), ('CPA'), ('Client');
      CREATE TABLE users (
        id serial PRIMARY KEY,
        username text NOT NULL UNIQUE,
        full_name text NOT NULL,
        role_id integer NOT NULL REFERENCES roles(id),
        report_type_ids integer[],
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE user_client_access (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        client_id integer NOT NULL,
        position integer NOT NULL,
        UNIQUE (user_id, client_id)
      );
      CREATE INDEX user_client_access_client ON user_client_access (client_id);
      -- Built-in provider only: Keycloak keeps credentials in the tenant's realm.
      CREATE TABLE credentials (
        user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        username text NOT NULL UNIQUE,
        full_name text NOT NULL,
        role text NOT NULL,
        password_hash text NOT NULL
      )`,
    },
    {
      id: '002_last_login',
      // Feeds the administrator dashboard's "Active Users (7d)".
      sql: 'ALTER TABLE users ADD COLUMN last_login_at timestamptz',
    },
    {
      id: '003_credentials_disabled',
      // Built-in provider: a retired (inactive) firm's credentials stop working, as a disabled realm does.
      sql: 'ALTER TABLE credentials ADD COLUMN disabled boolean NOT NULL DEFAULT false',
    },
  ],
};
