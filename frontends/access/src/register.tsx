import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./access.css');

/** Exposed as './register': sign-in pages and the firm's users and roles. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(
    declaredRoutes(ROUTES, {
      login: lazyPage(() => import('./generic-login.page.tsx'), 'GenericLoginPage', styles),
      tenantLogin: lazyPage(() => import('./tenant-login.page.tsx'), 'TenantLoginPage', styles),
      adminLogin: lazyPage(() => import('./admin-login.page.tsx'), 'AdminLoginPage', styles),
      invitation: lazyPage(() => import('./invitation.page.tsx'), 'InvitationPage', styles),
      users: lazyPage(() => import('./users.page.tsx'), 'UsersPage', styles),
      roles: lazyPage(() => import('./roles.page.tsx'), 'RolesPage', styles),
    }),
  );
};

export default register;
