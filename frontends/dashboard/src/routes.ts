import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/**
 * The Dashboard and the Activity Log page, known to the shell before the remote loads (see
 * shell-contract.ts). The shell reserves '/', '/:tenant/dashboard' and '/activity' as empty
 * slots; declaring the same paths fills them.
 */
export const ROUTES = {
  home: { path: '/', title: 'Dashboard' },
  tenantDashboard: { path: '/:tenant/dashboard', title: 'Dashboard' },
  activity: { path: '/activity', title: 'Activity' },
} satisfies Record<string, RouteDeclaration>;
