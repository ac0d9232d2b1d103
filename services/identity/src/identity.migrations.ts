import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/**
 * Second factors, login challenges and security events: the same tables for a firm's users
 * (tenant schema) and for platform administrators (platform schema), so one store serves
 * both; `user_id` is the user's or the administrator's id.
 */
const signInSecurityTables = `
  CREATE TABLE mfa_factors (
    user_id integer PRIMARY KEY,
    -- SecretBox-sealed base32 secrets: the confirmed one, and one being set up.
    totp_secret text,
    totp_pending_secret text,
    -- The newest 30-second step a code was accepted for: a code is never accepted twice.
    totp_last_step bigint NOT NULL DEFAULT 0,
    totp_enabled_at timestamptz
  );
  CREATE TABLE mfa_recovery_codes (
    id serial PRIMARY KEY,
    user_id integer NOT NULL,
    code_hash text NOT NULL,
    used_at timestamptz,
    UNIQUE (user_id, code_hash)
  );
  -- A password accepted, a second factor still due (or to be set up): lives minutes.
  CREATE TABLE mfa_challenges (
    token_hash text PRIMARY KEY,
    user_id integer NOT NULL,
    purpose text NOT NULL CHECK (purpose IN ('verify', 'setup')),
    throttle_key text NOT NULL,
    failures integer NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX mfa_challenges_user ON mfa_challenges (user_id);
  CREATE TABLE security_events (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    kind text NOT NULL,
    user_id integer,
    username text,
    method text,
    address text,
    browser text,
    actor_id integer
  );
  CREATE INDEX security_events_at ON security_events (at DESC, id DESC);
  CREATE INDEX security_events_user ON security_events (user_id, at DESC)`;

const sessionsTable = `
  -- Sign-in sessions of the built-in issuer: every token names one (sid).
  CREATE TABLE sessions (
    id text PRIMARY KEY,
    user_id integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    address text,
    browser text,
    method text,
    revoked_at timestamptz
  );
  CREATE INDEX sessions_user ON sessions (user_id, created_at DESC)`;

const passkeyTables = `
  -- WebAuthn credentials (passkeys): a second factor, and a sign-in without a password.
  CREATE TABLE passkeys (
    id serial PRIMARY KEY,
    user_id integer NOT NULL,
    -- base64url, as the browser names it: the key an assertion is looked up by.
    credential_id text NOT NULL UNIQUE,
    -- base64url of the COSE public key.
    public_key text NOT NULL,
    -- The authenticator's signature counter: an assertion must carry a higher one (a cloned key shows).
    sign_count bigint NOT NULL DEFAULT 0,
    transports text[] NOT NULL DEFAULT '{}',
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
  );
  CREATE INDEX passkeys_user ON passkeys (user_id);
  -- The random challenge of a WebAuthn ceremony in progress: used once, lives minutes.
  -- user_id is null for a sign-in without a password (the passkey names the user).
  CREATE TABLE passkey_ceremonies (
    challenge text PRIMARY KEY,
    purpose text NOT NULL CHECK (purpose IN ('register', 'second-factor', 'sign-in')),
    user_id integer,
    expires_at timestamptz NOT NULL
  )`;

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
    {
      id: '006_sign_in_security',
      sql: `${signInSecurityTables};
      ALTER TABLE mfa_factors ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE;
      ALTER TABLE mfa_recovery_codes ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE;
      ALTER TABLE mfa_challenges ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE`,
    },
    {
      id: '007_sessions',
      sql: `${sessionsTable};
      ALTER TABLE sessions ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE`,
    },
    {
      id: '008_passkeys',
      sql: `${passkeyTables};
      ALTER TABLE passkeys ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE;
      ALTER TABLE passkey_ceremonies ADD FOREIGN KEY (user_id) REFERENCES platform_admins(id) ON DELETE CASCADE`,
    },
    {
      id: '009_firm_import_origin',
      // Who signed an imported archive (archive-signature.ts): shown with the job.
      sql: 'ALTER TABLE firm_imports ADD COLUMN signer text, ADD COLUMN signer_key_id text',
    },
    {
      id: '010_company_country',
      // The firm's country (ISO 3166-1 alpha-2, issue 44). A firm that exists already gets the
      // country its chosen time zone names, when that zone is one of the five countries';
      // otherwise none (null): guessing US for a firm in Mumbai on the platform's UTC would set
      // the wrong calendars and currency, and its Admin sets it in the console in one step.
      sql: `ALTER TABLE companies ADD COLUMN country text CHECK (country IN ('US', 'IN', 'GB', 'AU', 'CA'));
      UPDATE companies SET country = CASE
        WHEN time_zone IN ('Asia/Kolkata', 'Asia/Calcutta') THEN 'IN'
        WHEN time_zone IN ('Europe/London', 'GB', 'Europe/Belfast') THEN 'GB'
        WHEN time_zone LIKE 'Australia/%' THEN 'AU'
        WHEN time_zone LIKE 'Canada/%' OR time_zone IN ('America/Toronto', 'America/Vancouver', 'America/Edmonton', 'America/Winnipeg',
          'America/Halifax', 'America/St_Johns', 'America/Regina', 'America/Montreal', 'America/Moncton', 'America/Whitehorse') THEN 'CA'
        WHEN time_zone LIKE 'US/%' OR time_zone LIKE 'America/Indiana/%' OR time_zone LIKE 'America/Kentucky/%'
          OR time_zone LIKE 'America/North_Dakota/%' OR time_zone IN ('America/New_York', 'America/Chicago', 'America/Denver',
          'America/Los_Angeles', 'America/Phoenix', 'America/Anchorage', 'America/Detroit', 'America/Boise', 'Pacific/Honolulu') THEN 'US'
      END`,
    },
    {
      id: '011_tenant_list_version',
      // The firm list's version (issue 45): every change to companies, by whatever statement,
      // bumps it in the same transaction, so the gateway and the services ask "changed since
      // version n?" (one row) instead of reading the whole list several times a second.
      sql: `CREATE TABLE tenant_list_version (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        version bigint NOT NULL
      );
      INSERT INTO tenant_list_version (version) VALUES (1);
      CREATE FUNCTION tenant_list_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE tenant_list_version SET version = version + 1;
        RETURN NULL;
      END $$;
      CREATE TRIGGER companies_list_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_list_changed()`,
    },
    {
      id: '012_login_activity',
      // Each user's last sign-in beside their platform-wide login (issue 45): the platform
      // overview counts users and active users in one statement instead of one per firm.
      // Filled from each firm's users by the tenant migration 011_platform_login_activity.
      sql: 'ALTER TABLE user_logins ADD COLUMN last_login_at timestamptz',
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
    {
      id: '004_sign_in_security',
      sql: `${signInSecurityTables};
      -- A deleted user's factors go with them; their security events stay (the firm's history).
      ALTER TABLE mfa_factors ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
      ALTER TABLE mfa_recovery_codes ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
      ALTER TABLE mfa_challenges ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
      -- The firm's sign-in policy: one row.
      CREATE TABLE security_settings (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        require_mfa_for_staff boolean NOT NULL DEFAULT false,
        require_mfa_for_clients boolean NOT NULL DEFAULT false,
        allow_email_code_for_staff boolean NOT NULL DEFAULT false,
        allow_email_code_for_clients boolean NOT NULL DEFAULT true,
        client_email_sign_in boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO security_settings DEFAULT VALUES`,
    },
    {
      id: '005_email_sign_in',
      sql: `ALTER TABLE users ADD COLUMN email text;
      -- Unique in the firm whatever the case: it is how a Client user is found to sign in by e-mail.
      CREATE UNIQUE INDEX users_email ON users (lower(email));
      -- One-time codes e-mailed to a user: to sign in (with a one-click link), or as the second factor of a challenge.
      CREATE TABLE email_codes (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('sign-in', 'mfa')),
        code_hash text NOT NULL,
        link_hash text UNIQUE,
        failures integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX email_codes_user ON email_codes (user_id, purpose)`,
    },
    {
      id: '006_sessions',
      sql: `${sessionsTable};
      ALTER TABLE sessions ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`,
    },
    {
      id: '007_passkeys',
      sql: `${passkeyTables};
      ALTER TABLE passkeys ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
      ALTER TABLE passkey_ceremonies ADD FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`,
    },
    {
      id: '008_realm_code_step',
      // Keycloak firms: the password of a sign-in whose realm asks for a one-time code too,
      // sealed until the code step sends both to the realm (the challenge lives 5 minutes).
      sql: 'ALTER TABLE mfa_challenges ADD COLUMN sealed_password text',
    },
    {
      id: '009_invitations',
      // Issue 40: a user may exist before they can sign in (activated_at null) and be invited
      // to set a password; e-mails they turned off (kinds of contracts' EMAIL_KINDS).
      sql: `ALTER TABLE users ADD COLUMN activated_at timestamptz, ADD COLUMN invited_at timestamptz,
        ADD COLUMN email_opt_outs text[] NOT NULL DEFAULT '{}';
      -- Everyone so far was made with a password.
      UPDATE users SET activated_at = created_at;
      ALTER TABLE credentials ALTER COLUMN password_hash DROP NOT NULL;
      -- The link of an invitation, stored as its hash (kit/crypto/hashed-token.ts, DESIGN §8 public links).
      CREATE TABLE invitations (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX invitations_user ON invitations (user_id)`,
    },
    {
      id: '010_role_reveal_tax_ids',
      // Issue 40: a per-role permission to see clients' whole tax IDs; Admins have it by default.
      sql: `ALTER TABLE roles ADD COLUMN reveal_tax_ids boolean NOT NULL DEFAULT false;
      UPDATE roles SET reveal_tax_ids = true WHERE lower(name) = 'admin'`,
    },
    {
      id: '011_platform_login_activity',
      // The firm's users' last sign-ins copied to the platform's login index (platform 012).
      sql: `UPDATE ${PLATFORM_SCHEMA}.user_logins l SET last_login_at = u.last_login_at
            FROM users u WHERE l.username = u.username AND l.schema_name = current_schema()`,
    },
  ],
};
