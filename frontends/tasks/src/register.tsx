import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

/**
 * Exposed as './register': the Tasks screen of spec 001 §2 (list, calendar and
 * notifications). Its navigation item is already in the spec's side navigation; the
 * notification bell of the header comes from the shared ui package.
 */
const register: RegisterRemote = (shell) => {
  shell.addRoutes([
    { path: '/tasks', element: lazyPage(() => import('./tasks.page.tsx'), 'TasksPage', () => import('./tasks.css')), tenantScoped: true },
  ]);
};

export default register;
