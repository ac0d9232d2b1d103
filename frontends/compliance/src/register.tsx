import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

/** Exposed as './register': the Compliance screen of spec 001 §2 (calendar, tracker, schedules, statutory calendars). */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { compliance: lazyPage(() => import('./compliance.page.tsx'), 'CompliancePage', () => import('./compliance.css')) }));
};

export default register;
