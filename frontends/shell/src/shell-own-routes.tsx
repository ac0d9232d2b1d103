import type { NavAudience, ShellRoute } from '@ledgerline/ui/shell-contract.ts';

const STAFF: readonly NavAudience[] = ['staff'];
const CLIENT: readonly NavAudience[] = ['client'];
const EVERYONE: readonly NavAudience[] = ['staff', 'client'];

/**
 * A guarded page of the spec's route table whose remote has not registered yet: the layout
 * with the header title of the path and an empty content area the remote will fill.
 */
function PageSlot() {
  return <section className="page-slot" />;
}

/** Work areas and firm pages that also exist under /{tenant} (spec 000 §2 "Route table"), and who they are for. */
const TENANT_SCOPED_PAGES: readonly (readonly [string, readonly NavAudience[]])[] = [
  ['/cpa-dashboard', STAFF],
  ['/client-reports', CLIENT],
  ['/tasks', STAFF],
  // Client users read their own client's compliance items there.
  ['/compliance', EVERYONE],
  ['/compliance-insights', STAFF],
  // Document requests: staff review them, Client users answer their client's.
  ['/requests', EVERYONE],
  ['/requests/:id', EVERYONE],
  // Client users reach their messages from their own navigation (design §7).
  ['/messages', EVERYONE],
  ['/settings', STAFF],
  ['/clients', STAFF],
  ['/users', STAFF],
  ['/roles', STAFF],
  ['/report-types', STAFF],
  ['/firm-details', EVERYONE],
  ['/firm-documents', STAFF],
  ['/account-settings', EVERYONE],
];

/** Untenanted pages of the route table. */
const UNTENANTED_PAGES: readonly (readonly [string, readonly NavAudience[]])[] = [
  ['/cpa-dashboard/report/:id', STAFF],
  ['/file-upload', STAFF],
  ['/activity', EVERYONE],
  ['/permissions', STAFF],
];

/**
 * The shell claims every guarded page of the route table up front, so the guards (and the
 * audience rule: a Client user never sees a staff page) apply to them before their remotes
 * land; a remote declaring the same path replaces the slot.
 */
export const SHELL_OWN_ROUTES: readonly ShellRoute[] = [
  { path: '/', element: <PageSlot /> },
  { path: '/:tenant/dashboard', element: <PageSlot /> },
  ...TENANT_SCOPED_PAGES.map(([path, audience]) => ({ path, audience, element: <PageSlot />, tenantScoped: true })),
  ...UNTENANTED_PAGES.map(([path, audience]) => ({ path, audience, element: <PageSlot /> })),
];
