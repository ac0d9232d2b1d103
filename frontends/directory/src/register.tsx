import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./directory.css');

/** Exposed as './register': the firm's client directory, report types, settings and the client portal page. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(
    declaredRoutes(ROUTES, {
      clients: lazyPage(() => import('./clients.page.tsx'), 'ClientsPage', styles),
      clientImport: lazyPage(() => import('./client-import.page.tsx'), 'ClientImportPage', styles),
      reportTypes: lazyPage(() => import('./report-types.page.tsx'), 'ReportTypesPage', styles),
      settings: lazyPage(() => import('./settings.page.tsx'), 'SettingsPage', styles),
      firmDetails: lazyPage(() => import('./firm-details.page.tsx'), 'FirmDetailsPage', styles),
      clientPortal: lazyPage(() => import('./client-portal.page.tsx'), 'ClientPortalPage', styles),
    }),
  );
};

export default register;
