/**
 * First path segments the portal itself uses, in the API (`/api/{segment}`) or in the
 * app's routes (`/{segment}`). A firm's short name can never be one of them, or its
 * `/{tenant}/…` and `/api/{tenant}/…` paths would be read as the portal's own.
 * (A server test checks every service's API resources are listed.)
 */
export const RESERVED_TENANT_NAMES: ReadonlySet<string> = new Set([
  // API
  'auth', 'admin', 'companies', 'users', 'roles', 'info', 'report-types', 'clients', 'client-field-settings',
  'files', 'public', 'activity-logs', 'dashboard', 'chat', 'prompt-templates', 'tasks', 'notifications',
  'compliance-schedules', 'compliance-tracker', 'compliance-presets', 'compliance-pipelines', 'compliance-insights', 'firm-settings', 'conversations', 'messages', 'docs', 'internal', 'export',
  'request-templates', 'document-requests', 'document-request', 'requests', 'organizer-templates', 'organizers', 'organizer',
  'signature-requests', 'signature-templates', 'signatures', 'signing', 'sign',
  'security-settings', 'security-events',
  'billing', 'invoices', 'invoice',
  // app routes and static paths
  'login', 'cpa-dashboard', 'client-reports', 'compliance', 'settings', 'firm-details', 'firm-documents',
  'account-settings', 'file-upload', 'activity', 'permissions', 'remotes', 'api', 'socket', 'static', 'assets',
]);
