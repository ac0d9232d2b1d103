import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./billing.css');

/** Exposed as './register': Billing (staff), the client's invoices, and an invoice's page. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, {
    billing: lazyPage(() => import('./billing.page.tsx'), 'BillingPage', styles),
    invoices: lazyPage(() => import('./client-invoices.page.tsx'), 'ClientInvoicesPage', styles),
    invoice: lazyPage(() => import('./invoice.page.tsx'), 'InvoicePage', styles),
  }));
};

export default register;
