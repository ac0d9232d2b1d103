import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The compliance remote's page, known to the shell before the remote loads (see shell-contract.ts). Client users read their own client's items there. */
export const ROUTES = {
  compliance: { path: '/compliance', tenantScoped: true, title: 'Compliance', audience: ['staff', 'client'] },
} satisfies Record<string, RouteDeclaration>;
