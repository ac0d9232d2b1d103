import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

const styles = () => import('./documents.css');

/**
 * Exposed as './register': the document screens of spec 001 §2 — the staff reports page
 * (also per report type), the file panel, the Client users' reports and firm documents.
 * Their navigation items are already in the spec's side navigation.
 */
const register: RegisterRemote = (shell) => {
  const reports = lazyPage(() => import('./reports.page.tsx'), 'ReportsPage', styles);
  shell.addRoutes([
    { path: '/cpa-dashboard', element: reports, tenantScoped: true },
    { path: '/cpa-dashboard/report/:id', element: reports },
    { path: '/file-upload', element: lazyPage(() => import('./file-panel.page.tsx'), 'FilePanelPage', styles) },
    { path: '/client-reports', element: lazyPage(() => import('./client-reports.page.tsx'), 'ClientReportsPage', styles), tenantScoped: true },
    { path: '/firm-documents', element: lazyPage(() => import('./firm-documents.page.tsx'), 'FirmDocumentsPage', styles), tenantScoped: true },
  ]);
};

export default register;
