import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

const styles = () => import('./admin.css');

/** Exposed as './register': the platform administrator's portal. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes([
    { path: '/admin/dashboard', element: lazyPage(() => import('./admin-dashboard.page.tsx'), 'AdminDashboardPage', styles) },
    { path: '/admin/tenants', element: lazyPage(() => import('./tenant-management.page.tsx'), 'TenantManagementPage', styles) },
  ]);
};

export default register;
