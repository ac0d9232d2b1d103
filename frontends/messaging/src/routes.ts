import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The messaging remote's page, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  messages: { path: '/messages', tenantScoped: true, title: 'Messages', audience: ['staff', 'client'] },
} satisfies Record<string, RouteDeclaration>;
