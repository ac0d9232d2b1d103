import { keycloakClaimsMapper } from './keycloak-claims.ts';
import type { IssuerTrust } from './token-verifier.ts';

/**
 * In Keycloak mode every firm has a realm `<prefix><shortName>` on one trusted Keycloak.
 * A token whose issuer is such a realm is trusted through that realm's JWKS and mapped
 * to that firm (the firm comes from the realm name in the configured URL, never from a
 * claim). Any other issuer is refused.
 */
export function keycloakRealmTrust(keycloakUrl: string, realmPrefix: string): (iss: string) => IssuerTrust | null {
  const realmsBase = `${keycloakUrl.replace(/\/+$/, '')}/realms/${realmPrefix}`;
  return (iss) => {
    if (!iss.startsWith(realmsBase)) return null;
    const tenant = iss.slice(realmsBase.length);
    if (!/^[a-z0-9]+$/.test(tenant)) return null;
    return { issuer: iss, jwksUrl: `${iss}/protocol/openid-connect/certs`, mapClaims: keycloakClaimsMapper(tenant) };
  };
}
