import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

/**
 * Exposed as './register': the Tasks screen of spec 001 §2 (list, calendar and
 * notifications). Its navigation item is already in the spec's side navigation; the
 * notification bell of the header comes from the shared ui package.
 */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { tasks: lazyPage(() => import('./tasks.page.tsx'), 'TasksPage', () => import('./tasks.css')) }));
};

export default register;
