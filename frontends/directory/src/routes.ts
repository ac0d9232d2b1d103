import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The firm's directory pages and the client portal page, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  clients: { path: '/clients', tenantScoped: true, title: 'Clients', audience: ['staff'] },
  clientImport: { path: '/clients/import', tenantScoped: true, title: 'Import Clients', audience: ['staff'] },
  reportTypes: { path: '/report-types', tenantScoped: true, title: 'Report Types', audience: ['staff'] },
  settings: { path: '/settings', tenantScoped: true, title: 'Settings', audience: ['staff'] },
  firmDetails: { path: '/firm-details', tenantScoped: true, title: 'Firm Details' },
  clientPortal: { path: '/:tenantName/client/:clientId/portal', access: 'public', title: 'Document Settings' },
} satisfies Record<string, RouteDeclaration>;
