import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

const styles = () => import('./access.css');

/** Exposed as './register': sign-in pages and the firm's users and roles. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes([
    { path: '/login', element: lazyPage(() => import('./generic-login.page.tsx'), 'GenericLoginPage', styles), access: 'guest' },
    // The static /admin/login outranks this pattern, and the shell never reads 'admin' as a tenant.
    { path: '/:tenant/login', element: lazyPage(() => import('./tenant-login.page.tsx'), 'TenantLoginPage', styles), access: 'guest' },
    { path: '/admin/login', element: lazyPage(() => import('./admin-login.page.tsx'), 'AdminLoginPage', styles), access: 'guest' },
    { path: '/users', element: lazyPage(() => import('./users.page.tsx'), 'UsersPage', styles), tenantScoped: true },
    { path: '/roles', element: lazyPage(() => import('./roles.page.tsx'), 'RolesPage', styles), tenantScoped: true },
  ]);
};

export default register;
