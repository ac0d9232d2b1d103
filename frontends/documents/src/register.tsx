import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./documents.css');

/** Exposed as './register': the document screens (see routes.ts). */
const register: RegisterRemote = (shell) => {
  const reports = lazyPage(() => import('./reports.page.tsx'), 'ReportsPage', styles);
  shell.addRoutes(
    declaredRoutes(ROUTES, {
      reports,
      reportType: reports,
      filePanel: lazyPage(() => import('./file-panel.page.tsx'), 'FilePanelPage', styles),
      clientReports: lazyPage(() => import('./client-reports.page.tsx'), 'ClientReportsPage', styles),
      firmDocuments: lazyPage(() => import('./firm-documents.page.tsx'), 'FirmDocumentsPage', styles),
    }),
  );
};

export default register;
