import type { RouteDeclaration, ShellNavItem } from '@ledgerline/ui/shell-contract.ts';

/**
 * The billing pages (issue 43), known to the shell before the remote loads: staff's Billing
 * (invoices, receivables, the price list), an invoice's page for staff and the client's users,
 * and the client's own list of invoices.
 */
export const ROUTES = {
  billing: { path: '/billing', tenantScoped: true, title: 'Billing', audience: ['staff'] },
  invoices: { path: '/invoices', tenantScoped: true, title: 'Invoices', audience: ['client'] },
  invoice: { path: '/invoices/:id', tenantScoped: true, title: 'Invoice', audience: ['staff', 'client'] },
} satisfies Record<string, RouteDeclaration>;

export const NAV_ITEMS: ShellNavItem[] = [
  { id: 'billing', label: 'Billing', path: '/billing', icon: 'pi pi-wallet', audience: ['staff'] },
  { id: 'invoices', label: 'Invoices', path: '/invoices', icon: 'pi pi-wallet', audience: ['client'] },
];
