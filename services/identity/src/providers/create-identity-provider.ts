import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { ConfigError } from '@ledgerline/kit/config.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { IdentityConfig } from '../identity.config.ts';
import { BuiltinIdentityProvider } from './builtin-identity-provider.ts';
import type { IdentityProvider } from './identity-provider.ts';
import { KeycloakIdentityProvider } from './keycloak-identity-provider.ts';

/** Keycloak (a realm per firm) when KEYCLOAK_URL is set, else the built-in issuer. */
export function createIdentityProvider(
  config: IdentityConfig,
  deps: { db: Database; issuer: TokenIssuer; schemaOf: (tenant: string) => Promise<string>; logger: Logger },
): IdentityProvider {
  if (!config.keycloakUrl) return new BuiltinIdentityProvider(deps.db, deps.issuer, deps.schemaOf);
  if (!config.keycloakAdminPassword) {
    throw new ConfigError('Invalid configuration:\n  KEYCLOAK_URL is set, so KEYCLOAK_ADMIN_PASSWORD must be set too');
  }
  return new KeycloakIdentityProvider({
    url: config.keycloakUrl,
    ...(config.keycloakPublicUrl ? { publicUrl: config.keycloakPublicUrl } : {}),
    adminUsername: config.keycloakAdminUsername,
    adminPassword: config.keycloakAdminPassword,
    realmPrefix: config.keycloakRealmPrefix,
    // Realm tokens live as long as built-in ones (Keycloak's own default is 5 minutes).
    accessTokenLifespanSeconds: config.tokenTtlSeconds,
    logger: deps.logger,
  });
}
