import { Forbidden } from '../errors.ts';
import type { PortalClaims } from './claims.ts';

/** The built-in role names as the spec spells them; tenants may add custom roles. */
export const ROLES = { admin: 'Admin', dta: 'DTA', cpa: 'CPA', client: 'Client' } as const;

// The spec checks both 'Admin' and 'admin' (and 'client'); roles are data typed by people,
// so one comparison rule for all of them, in every service: this one.
const normalise = (role: string) => role.trim().toLowerCase();

/** Whether two role names name the same role (case and surrounding spaces do not count). */
export const sameRoleName = (a: string, b: string): boolean => normalise(a) === normalise(b);

/** Whether a stored role name is one of `roles` (e.g. a participant's or assignee's role). */
export const roleIs = (role: string, ...roles: string[]): boolean => roles.some((r) => sameRoleName(role, r));

/** The built-in role a name stands for, if any: identity refuses such names for other roles. */
export const builtInRoleNamed = (name: string): string | null => Object.values(ROLES).find((r) => sameRoleName(r, name)) ?? null;

/**
 * Platform administrators act as Admin in whichever tenant they open (the spec's tenant
 * selector), whatever role name their token carries.
 */
export function hasRole(claims: PortalClaims, ...roles: string[]): boolean {
  if (claims.platformAdmin && roles.some((r) => sameRoleName(r, ROLES.admin))) return true;
  return roleIs(claims.role, ...roles);
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
