import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

const styles = () => import('./dashboard.css');

/**
 * Exposed as './register': the Dashboard and the Activity Log page. The shell reserves '/',
 * '/:tenant/dashboard' and '/activity' as empty slots; registering the same paths fills them.
 */
const register: RegisterRemote = (shell) => {
  const dashboard = lazyPage(() => import('./dashboard.page.tsx'), 'DashboardPage', styles);
  shell.addRoutes([
    { path: '/', element: dashboard },
    { path: '/:tenant/dashboard', element: dashboard },
    { path: '/activity', element: lazyPage(() => import('./activity.page.tsx'), 'ActivityPage', styles) },
  ]);
};

export default register;
