import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The platform administrator's pages, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  dashboard: { path: '/admin/dashboard', title: 'Admin Dashboard', audience: ['staff'] },
  tenants: { path: '/admin/tenants', title: 'Tenant Management', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;
