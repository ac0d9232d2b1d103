import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/**
 * The document screens of spec 001 §2, known to the shell before the remote loads (see
 * shell-contract.ts): the staff reports page (also per report type), the file panel, the
 * Client users' reports and firm documents. Their navigation items are in the spec's side
 * navigation already.
 */
export const ROUTES = {
  reports: { path: '/cpa-dashboard', tenantScoped: true, title: 'Reports', audience: ['staff'] },
  reportType: { path: '/cpa-dashboard/report/:id', title: 'Reports', audience: ['staff'] },
  filePanel: { path: '/file-upload', title: 'File Upload', audience: ['staff'] },
  clientReports: { path: '/client-reports', tenantScoped: true, title: 'Client Reports', audience: ['client'] },
  firmDocuments: { path: '/firm-documents', tenantScoped: true, title: 'Firm Documents', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;
