import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The tasks remote's page, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  tasks: { path: '/tasks', tenantScoped: true, title: 'Tasks', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;
