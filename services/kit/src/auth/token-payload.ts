import type { JWTPayload } from 'jose';
import { z } from 'zod';
import { Unauthenticated } from '../errors.ts';
import type { PortalClaims } from './claims.ts';

export const INVALID_TOKEN_MESSAGE = 'Invalid authentication token. Please log in again.';

/**
 * The JWT claims of tokens from the built-in issuer. Where OpenID Connect has a standard
 * name we use it (`preferred_username`, `name`), so generic OIDC tooling reads our tokens
 * and the Keycloak mapping differs only where Keycloak itself differs (roles, tenant):
 *
 *   iss, sub, iat, exp   registered claims (sub = user id)
 *   preferred_username   PortalClaims.username
 *   name                 PortalClaims.fullName
 *   role                 PortalClaims.role (role name as stored in the tenant)
 *   tenant               PortalClaims.tenant (short name, or null for platform admins)
 *   platform_admin       PortalClaims.platformAdmin
 *   sid                  PortalClaims.sessionId (OIDC's session id claim), when the token names one
 */
export interface PortalTokenClaims {
  preferred_username: string;
  name: string;
  role: string;
  tenant: string | null;
  platform_admin: boolean;
  sid?: string;
}

const portalPayloadSchema = z.object({
  sub: z.string().min(1),
  preferred_username: z.string().min(1),
  name: z.string(),
  role: z.string().min(1),
  tenant: z.string().min(1).nullable(),
  platform_admin: z.boolean(),
  sid: z.string().min(1).optional(),
});

/** PortalClaims → JWT body, without `sub`, which jose sets through `setSubject`. */
export function toTokenClaims(claims: PortalClaims): PortalTokenClaims {
  return {
    preferred_username: claims.username,
    name: claims.fullName,
    role: claims.role,
    tenant: claims.tenant,
    platform_admin: claims.platformAdmin,
    ...(claims.sessionId ? { sid: claims.sessionId } : {}),
  };
}

/**
 * The default claim mapping of a trusted issuer. A signed token lacking a claim is still
 * unusable, so a shape mismatch is an invalid token, not a server error.
 */
export function portalClaimsFromPayload(payload: JWTPayload): PortalClaims {
  const parsed = portalPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new Unauthenticated(INVALID_TOKEN_MESSAGE);
  const p = parsed.data;
  return {
    sub: p.sub,
    username: p.preferred_username,
    fullName: p.name,
    role: p.role,
    tenant: p.tenant,
    platformAdmin: p.platform_admin,
    ...(p.sid ? { sessionId: p.sid } : {}),
  };
}
