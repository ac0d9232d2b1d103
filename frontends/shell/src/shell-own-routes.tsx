import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/**
 * A guarded page of the spec's route table whose remote has not registered yet: the layout
 * with the header title of the path and an empty content area the remote will fill.
 */
function PageSlot() {
  return <section className="page-slot" />;
}

/** Work areas and firm pages that also exist under /{tenant} (spec 000 §2 "Route table"). */
const TENANT_SCOPED_PAGES = [
  '/cpa-dashboard',
  '/client-reports',
  '/tasks',
  '/compliance',
  '/compliance-insights',
  '/messages',
  '/settings',
  '/clients',
  '/users',
  '/roles',
  '/report-types',
  '/firm-details',
  '/firm-documents',
  '/account-settings',
];

/** Untenanted pages of the route table. */
const UNTENANTED_PAGES = ['/cpa-dashboard/report/:id', '/file-upload', '/activity', '/permissions'];

/**
 * The shell claims every guarded page of the route table up front, so the guards apply to
 * them before their remotes land; a remote registering the same path replaces the slot.
 */
export const SHELL_OWN_ROUTES: readonly ShellRoute[] = [
  { path: '/', element: <PageSlot /> },
  { path: '/:tenant/dashboard', element: <PageSlot /> },
  ...TENANT_SCOPED_PAGES.map((path) => ({ path, element: <PageSlot />, tenantScoped: true })),
  ...UNTENANTED_PAGES.map((path) => ({ path, element: <PageSlot /> })),
];
