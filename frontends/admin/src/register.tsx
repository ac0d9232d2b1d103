import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./admin.css');

/** Exposed as './register': the platform administrator's portal. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(
    declaredRoutes(ROUTES, {
      dashboard: lazyPage(() => import('./admin-dashboard.page.tsx'), 'AdminDashboardPage', styles),
      tenants: lazyPage(() => import('./tenant-management.page.tsx'), 'TenantManagementPage', styles),
    }),
  );
};

export default register;
