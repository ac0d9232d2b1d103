import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';

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
 * Revealing a whole tax ID: Admin only (the default of the per-role permission the issue
 * asks for; roles carry no permissions yet, so this is the one place a configurable
 * permission will be read).
 */
export function requireTaxIdReveal(t: TenantRequest): void {
  if (!t.scope.isAdmin) throw new Forbidden(REVEAL_DENIED);
}

export function requireAdmin(t: TenantRequest, what: keyof typeof ADMIN_ONLY): void {
  if (!t.scope.isAdmin) throw new Forbidden(ADMIN_ONLY[what]);
}
