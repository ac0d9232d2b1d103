import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

/**
 * Exposed as './register': the AI Compliance Insights screen of spec 001 §2. Its
 * navigation item ('AI Insights') is already in the spec's side navigation.
 */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { insights: lazyPage(() => import('./insights.page.tsx'), 'InsightsPage', () => import('./insights.css')) }));
};

export default register;
