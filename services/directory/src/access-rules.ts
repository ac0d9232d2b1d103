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

export function requireAdmin(t: TenantRequest, what: keyof typeof ADMIN_ONLY): void {
  if (!t.scope.isAdmin) throw new Forbidden(ADMIN_ONLY[what]);
}
