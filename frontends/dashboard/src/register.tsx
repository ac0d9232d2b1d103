import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./dashboard.css');

/** Exposed as './register': the Dashboard and the Activity Log page. */
const register: RegisterRemote = (shell) => {
  const dashboard = lazyPage(() => import('./dashboard.page.tsx'), 'DashboardPage', styles);
  shell.addRoutes(
    declaredRoutes(ROUTES, {
      home: dashboard,
      tenantDashboard: dashboard,
      activity: lazyPage(() => import('./activity.page.tsx'), 'ActivityPage', styles),
    }),
  );
};

export default register;
