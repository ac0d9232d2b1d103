import { Forbidden } from '../errors.ts';
import type { PortalClaims } from './claims.ts';

/** The built-in role names as the spec spells them; tenants may add custom roles. */
export const ROLES = { admin: 'Admin', dta: 'DTA', cpa: 'CPA', client: 'Client' } as const;

// The spec checks both 'Admin' and 'admin' (and 'client'); roles are data typed by people,
// so one comparison rule for all of them.
const normalise = (role: string) => role.trim().toLowerCase();

/**
 * Platform administrators act as Admin in whichever tenant they open (the spec's tenant
 * selector), whatever role name their token carries.
 */
export function hasRole(claims: PortalClaims, ...roles: string[]): boolean {
  const wanted = new Set(roles.map(normalise));
  if (claims.platformAdmin && wanted.has(normalise(ROLES.admin))) return true;
  return wanted.has(normalise(claims.role));
}

export const isAdmin = (claims: PortalClaims): boolean => hasRole(claims, ROLES.admin);

export const isClient = (claims: PortalClaims): boolean => !claims.platformAdmin && hasRole(claims, ROLES.client);

/** Firm staff: every non-Client role, custom roles included (their reach is limited by access lists, not here). */
export const isStaff = (claims: PortalClaims): boolean => !isClient(claims);

export function requireRole(claims: PortalClaims, ...roles: string[]): void {
  if (!hasRole(claims, ...roles)) throw new Forbidden();
}

/**
 * Whether the bearer may act in `tenant`. Whether that tenant is active is the tenant
 * resolver's concern; this only keeps a tenant's user out of every other tenant.
 */
export function canActInTenant(claims: PortalClaims, tenant: string): boolean {
  return claims.platformAdmin || (claims.tenant !== null && claims.tenant === tenant);
}
