import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { RolePermissions } from './clients/role-permissions.ts';

/**
 * Directory's server-side rules (docs/api/authorization.md): only Admin (and platform
 * administrators) change clients, report types, field settings and Google Drive;
 * everyone else reads within their scope (access-scope.ts).
 */
export const ADMIN_ONLY = {
  clients: 'Access denied. Only Admin users can manage clients.',
  reportTypes: 'Access denied. Only Admin users can manage report types.',
  settings: 'Access denied. Only Admin users can change client field settings.',
  googleDrive: 'Access denied. Only Admin users can set up Google Drive.',
  portalLink: 'Access denied. Only Admin users can share client portal links.',
} as const;

export const IMPORT_DENIED = 'Access denied. Only Admin and DTA users can import clients.';
export const REVEAL_DENIED = 'Access denied. Your role may not reveal whole tax IDs.';

/** The import creates and updates clients and their Client users: Admin and DTA (issue 40). */
export function requireImporter(t: TenantRequest): void {
  if (!t.scope.isAdmin && !roleIs(t.scope.role, ROLES.dta)) throw new Forbidden(IMPORT_DENIED);
}

/**
 * Revealing a whole tax ID: platform administrators, and users whose role has the
 * permission (identity's per-role "reveal tax IDs", the Admin role's by default).
 */
export async function mayRevealTaxIds(t: TenantRequest, permissions: RolePermissions): Promise<boolean> {
  if (t.claims.platformAdmin) return true;
  return permissions.mayRevealTaxIds(t.db, Number(t.claims.sub), t.scope.role);
}

export async function requireTaxIdReveal(t: TenantRequest, permissions: RolePermissions): Promise<void> {
  if (!await mayRevealTaxIds(t, permissions)) throw new Forbidden(REVEAL_DENIED);
}

export function requireAdmin(t: TenantRequest, what: keyof typeof ADMIN_ONLY): void {
  if (!t.scope.isAdmin) throw new Forbidden(ADMIN_ONLY[what]);
}
