import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

/**
 * Exposed as './register': the Messages screen of spec 001 §2. Its navigation item (labelled
 * AI Assistant, with the unread count) is already in the spec's side navigation.
 */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { messages: lazyPage(() => import('./messages.page.tsx'), 'MessagesPage', () => import('./messages.css')) }));
};

export default register;
