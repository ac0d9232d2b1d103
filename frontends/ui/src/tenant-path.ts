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
  'messages',
]);

export function isTenantScopedPath(pathname: string): boolean {
  const [tenant, section] = pathname.split('/').filter(Boolean);
  return tenant !== undefined && tenant !== 'admin' && section !== undefined && TENANT_SECTIONS.has(section);
}
