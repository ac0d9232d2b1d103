import { isAdmin, isClient, hasRole, ROLES } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { AuthContext } from '@ledgerline/kit/http/authenticate.ts';

/**
 * Identity's server-side rules (docs/api/authorization.md): platform administrators manage
 * firms and act as Admin in any firm; a firm's Admin manages its users and roles; DTA
 * and other staff read; Client users see only themselves.
 */
export const isTenantAdmin = (a: AuthContext): boolean => a.claims.platformAdmin || isAdmin(a.claims);

export function requirePlatformAdmin(a: AuthContext): void {
  if (!a.claims.platformAdmin) throw new Forbidden('Only platform administrators can manage tenants.');
}

export function requireTenantAdmin(a: AuthContext): void {
  if (!isTenantAdmin(a)) throw new Forbidden('Only administrators can manage users and roles.');
}

export function requireStaff(a: AuthContext): void {
  if (!a.claims.platformAdmin && isClient(a.claims)) throw new Forbidden('You do not have access to this resource.');
}

/** Admin and DTA see the company list (spec §6); within a firm, only their own firm. */
export function canListCompanies(a: AuthContext): boolean {
  return a.claims.platformAdmin || hasRole(a.claims, ROLES.admin, ROLES.dta);
}

/** A user's own access lists, or anyone's for Admin and DTA. */
export function requireSelfOrManager(a: AuthContext, userId: number): void {
  if (a.claims.platformAdmin || hasRole(a.claims, ROLES.admin, ROLES.dta)) return;
  if (a.claims.sub !== String(userId)) throw new Forbidden('You do not have access to this resource.');
}
