import { randomBytes } from 'node:crypto';
import KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import { MemorySigningKeyStore } from '@ledgerline/kit/auth/signing-key-store.ts';
import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { createTokenVerifier, type IssuerTrust, type TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { createDatabase } from '@ledgerline/kit/db/create-database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { identityPlatformMigrations, identityTenantMigrations } from '../../src/identity.migrations.ts';
import { BuiltinIdentityProvider } from '../../src/providers/builtin-identity-provider.ts';
import type { IdentityProvider } from '../../src/providers/identity-provider.ts';
import { KeycloakIdentityProvider } from '../../src/providers/keycloak-identity-provider.ts';

/** One provider wired the way the identity service wires it, plus what a test needs around it. */
export interface ProviderHarness {
  provider: IdentityProvider;
  /** A fresh tenant name (a-z0-9); the caller provisions it. */
  newTenant(): Promise<string>;
  /** The portal's own user record (the provider's `ProviderUser.id`). */
  createUserRecord(tenant: string, username: string, fullName: string): Promise<number>;
  /** A verifier as a service of the tenant builds it: the provider's trust, else the built-in issuer's. */
  verifierFor(tenant: string): TokenVerifier;
  close(): Promise<void>;
}

export interface ProviderTarget {
  kind: IdentityProvider['kind'];
  open(): Promise<ProviderHarness>;
}

export const tenantName = () => `t${randomBytes(5).toString('hex')}`;

/** The built-in provider always; Keycloak when KEYCLOAK_URL names a server (required in CI). */
export function identityProviderTargets(): ProviderTarget[] {
  const targets: ProviderTarget[] = [{ kind: 'builtin', open: openBuiltin }];
  const keycloakUrl = realServerUrl('KEYCLOAK_URL');
  if (keycloakUrl) targets.push({ kind: 'keycloak', open: () => openKeycloak(keycloakUrl) });
  return targets;
}

async function openBuiltin(): Promise<ProviderHarness> {
  const db = await createDatabase({});
  // As at start-up: the platform's tables first (a firm's migrations may read them).
  await migratePlatform(db, [identityPlatformMigrations]);
  const issuer = createTokenIssuer({ issuer: 'https://portal.test/identity', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 600 });
  // Schema name = tenant name, which is a valid schema identifier by construction.
  const provider = new BuiltinIdentityProvider(db, issuer, async (tenant) => tenant);
  const builtinTrust: IssuerTrust = { issuer: issuer.issuer, jwks: () => issuer.jwks() };
  return {
    provider,
    async newTenant() {
      const tenant = tenantName();
      await migrateTenant(db, tenant, [identityTenantMigrations]);
      return tenant;
    },
    async createUserRecord(tenant, username, fullName) {
      // credentials.user_id references users(id): the portal's record comes first.
      const { rows } = await db.forSchema(tenant).query<{ id: number }>(
        `INSERT INTO users (username, full_name, role_id) SELECT $1, $2, id FROM roles WHERE name = 'Client' RETURNING id`,
        [username, fullName],
      );
      return rows[0]!.id;
    },
    verifierFor: () => createTokenVerifier({ issuers: [provider.trustFor() ?? builtinTrust], verifiedCacheSize: 0 }),
    async close() {
      await provider.close();
      await db.close();
    },
  };
}

/** The bootstrap administrator that scripts/ci/start-keycloak.sh prints. */
export const keycloakAdminCredentials = () => ({
  adminUsername: process.env.KEYCLOAK_ADMIN_USERNAME ?? 'admin',
  adminPassword: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
});

/** Realms of test tenants get a prefix of their own, so one left behind by an aborted run is recognisable. */
export const TEST_REALM_PREFIX = 'contract-';

/** An admin client of our own, to arrange and clean up what the provider under test cannot. */
export async function keycloakTestAdmin(url: string): Promise<KeycloakAdminClient> {
  const { adminUsername, adminPassword } = keycloakAdminCredentials();
  const admin = new KeycloakAdminClient({ baseUrl: url, realmName: 'master' });
  await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: adminUsername, password: adminPassword });
  return admin;
}

async function openKeycloak(url: string): Promise<ProviderHarness> {
  const realmPrefix = TEST_REALM_PREFIX;
  const provider = new KeycloakIdentityProvider({ url, ...keycloakAdminCredentials(), realmPrefix, accessTokenLifespanSeconds: 600 });
  const tenants: string[] = [];
  let nextUserId = 1000;
  return {
    provider,
    async newTenant() {
      const tenant = tenantName();
      tenants.push(tenant);
      return tenant;
    },
    // No portal tables here: the id only has to be the portal's number for the user.
    createUserRecord: async () => nextUserId++,
    verifierFor: (tenant) => createTokenVerifier({ issuers: [provider.trustFor(tenant)], verifiedCacheSize: 0 }),
    async close() {
      await provider.close();
      const admin = await keycloakTestAdmin(url);
      for (const tenant of tenants) await admin.realms.del({ realm: `${realmPrefix}${tenant}` }, { catchNotFound: true });
    },
  };
}
