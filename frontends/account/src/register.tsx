import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

/** The account remote has no styles of its own: the shared components' (Security's setup and codes) are enough. */
const noOwnStyles = () => Promise.resolve();

/** Exposed as './register': the shell calls it when one of ROUTES is first visited. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { accountSettings: lazyPage(() => import('./account-settings.page.tsx'), 'AccountSettingsPage', noOwnStyles) }));
};

export default register;
