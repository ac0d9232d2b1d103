import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { AccountSettingsPage } from './account-settings.page.tsx';
import { ROUTES } from './routes.ts';

/** Exposed as './register': the shell calls it when one of ROUTES is first visited. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, { accountSettings: <AccountSettingsPage /> }));
};

export default register;
