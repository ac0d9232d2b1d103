import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/**
 * The dashboard's place in the layout. The dashboard remote registers the same paths and
 * replaces this element; until then the header reads 'Dashboard' over an empty content area.
 */
function DashboardSlot() {
  return <section className="dashboard-slot" aria-label="Dashboard" />;
}

export const SHELL_OWN_ROUTES: readonly ShellRoute[] = [
  { path: '/', element: <DashboardSlot /> },
  { path: '/:tenant/dashboard', element: <DashboardSlot /> },
];
