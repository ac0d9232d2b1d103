import type { JWTPayload } from 'jose';
import { z } from 'zod';
import { Unauthenticated } from '../errors.ts';
import type { PortalClaims } from './claims.ts';
import { INVALID_TOKEN_MESSAGE } from './token-payload.ts';

/** Roles every Keycloak realm grants by default; they say nothing about portal access. */
const isKeycloakDefaultRole = (role: string) =>
  role === 'offline_access' || role === 'uma_authorization' || role.startsWith('default-roles-');

const keycloakPayloadSchema = z.object({
  // The realm's own `sub` is a Keycloak user UUID that no portal table knows; the portal's
  // user id travels in this claim (a protocol mapper of the realm's portal client).
  portal_user_id: z.string().regex(/^[0-9]+$/),
  // Keycloak lowercases usernames; the realm also carries the portal's spelling.
  portal_username: z.string().min(1).optional(),
  preferred_username: z.string().min(1),
  name: z.string().optional(),
  realm_access: z.object({ roles: z.array(z.string()) }),
  sid: z.string().min(1).optional(),
});

/**
 * Claim mapping for an access token of a tenant's Keycloak realm. A realm serves exactly
 * one tenant, so the tenant comes from the trust (named after the realm), never from a
 * claim a realm admin could edit; the portal role is the realm role that is not a Keycloak
 * default; `sub` is the portal user id, so services see the same subject whichever
 * provider signed the token. Realm users are never platform administrators.
 */
export function keycloakClaimsMapper(tenant: string): (payload: JWTPayload) => PortalClaims {
  return (payload) => {
    const parsed = keycloakPayloadSchema.safeParse(payload);
    const role = parsed.success ? parsed.data.realm_access.roles.find((r) => !isKeycloakDefaultRole(r)) : undefined;
    if (!parsed.success || role === undefined) throw new Unauthenticated(INVALID_TOKEN_MESSAGE);
    const p = parsed.data;
    const username = p.portal_username ?? p.preferred_username;
    return { sub: p.portal_user_id, username, fullName: p.name ?? username, role, tenant, platformAdmin: false, ...(p.sid ? { realmSessionId: p.sid } : {}) };
  };
}
