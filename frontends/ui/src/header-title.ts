/**
 * The header title of a page no declared title names (a route's `title` wins; see
 * shell-contract.ts): spec 000 "Shell"'s table by section, extended for the work areas
 * (design §7), so no page but the dashboard is called 'Dashboard'.
 */

/** A page's section: its first segment, or the second after a tenant short name. */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  dashboard: 'Dashboard',
  clients: 'Clients',
  users: 'Users',
  roles: 'Roles',
  'file-upload': 'File Upload',
  permissions: 'User Permissions',
  'report-types': 'Report Types',
  activity: 'Activity',
  // The navigation calls the page Reports (spec 000 "Navigation"); the header says the same (issue 44).
  'cpa-dashboard': 'Reports',
  'client-reports': 'Client Reports',
  'firm-details': 'Firm Details',
  'firm-documents': 'Firm Documents',
  'account-settings': 'Account Settings',
  tasks: 'Tasks',
  compliance: 'Compliance',
  'compliance-insights': 'AI Insights',
  requests: 'Requests',
  messages: 'Messages',
  settings: 'Settings',
  'prompt-templates': 'Prompt Templates',
};

/** The platform administrator's pages, under /admin. */
const ADMIN_TITLES: Readonly<Record<string, string>> = {
  dashboard: 'Admin Dashboard',
  tenants: 'Tenant Management',
};

export function headerTitle(pathname: string): string {
  const [first, second] = pathname.split('/').filter(Boolean);
  if (first === undefined) return 'Dashboard';
  if (first === 'admin') return lookup(ADMIN_TITLES, second);
  // Section names are reserved: no firm's short name can be one of them.
  return lookup(SECTION_TITLES, Object.hasOwn(SECTION_TITLES, first) ? first : second);
}

function lookup(table: Readonly<Record<string, string>>, key: string | undefined): string {
  return key !== undefined && Object.hasOwn(table, key) ? table[key]! : 'Dashboard';
}
