import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { AccountSettingsPage } from './account-settings.page.tsx';

/** Exposed as './register': the shell calls it once at boot. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes([{ path: '/account-settings', element: <AccountSettingsPage />, tenantScoped: true }]);
};

export default register;
