import { readCurrentTenant } from './auth-storage.ts';

/**
 * Sections of the spec's tenant-scoped paths, /{tenantShortName}/{section} (spec 000 §2). On
 * them the tenant comes from the address, so the header only shows it.
 */
const TENANT_SECTIONS: ReadonlySet<string> = new Set([
  'dashboard',
  'clients',
  'users',
  'cpa-dashboard',
  'firm-details',
  'firm-documents',
  'account-settings',
  'client-reports',
  'tasks',
  'compliance',
  'compliance-insights',
  'requests',
  'billing',
  'invoices',
  'messages',
]);

export function isTenantScopedPath(pathname: string): boolean {
  const [tenant, section] = pathname.split('/').filter(Boolean);
  return tenant !== undefined && tenant !== 'admin' && section !== undefined && TENANT_SECTIONS.has(section);
}

/** A tenant-scoped page's path in the current firm ('/tasks?task=3' → '/acme/tasks?task=3'), as links and navigation use it. */
export function inCurrentFirm(path: string): string {
  const tenant = readCurrentTenant()?.shortName;
  return tenant ? `/${tenant}${path}` : path;
}
