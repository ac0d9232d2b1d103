/** The header title for a location, by the rules of spec 000 "Shell". */

/** Two or more segments: the second segment decides. */
const BY_SECOND_SEGMENT: Readonly<Record<string, string>> = {
  dashboard: 'Dashboard',
  clients: 'Clients',
  users: 'Users',
  'file-upload': 'File Upload',
  permissions: 'User Permissions',
  'report-types': 'Report Types',
  activity: 'Activity',
  'cpa-dashboard': 'CPA Dashboard',
  'client-reports': 'Client Reports',
  'firm-details': 'Firm Details',
  'firm-documents': 'Firm Documents',
  'account-settings': 'Account Settings',
  'prompt-templates': 'Prompt Templates',
  // The work areas' pages (DESIGN §7: the spec's table extended instead of 'Dashboard').
  tasks: 'Tasks',
  compliance: 'Compliance',
  'compliance-insights': 'AI Insights',
  messages: 'Messages',
  roles: 'Roles',
  settings: 'Settings',
};

/** Otherwise the whole path decides. */
const BY_PATH: Readonly<Record<string, string>> = {
  '/': 'Dashboard',
  '/file-upload': 'File Upload',
  '/clients': 'Clients',
  '/users': 'Users',
  '/permissions': 'User Permissions',
  '/report-types': 'Report Types',
  '/activity': 'Activity',
  '/admin/tenants': 'Tenant Management',
  '/prompt-templates': 'Prompt Templates',
  '/tasks': 'Tasks',
  '/compliance': 'Compliance',
  '/compliance-insights': 'AI Insights',
  '/messages': 'Messages',
  '/roles': 'Roles',
  '/settings': 'Settings',
};

export function headerTitle(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean);
  const path = `/${segments.join('/')}`;
  // The spec lists /admin/tenants among the whole-path titles although it has two segments;
  // that explicit entry wins, the second-segment table has nothing for 'tenants' anyway.
  if (segments.length >= 2 && path !== '/admin/tenants') return lookup(BY_SECOND_SEGMENT, segments[1]!);
  return lookup(BY_PATH, path);
}

function lookup(table: Readonly<Record<string, string>>, key: string): string {
  return Object.hasOwn(table, key) ? table[key]! : 'Dashboard';
}
