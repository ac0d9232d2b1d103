import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The account remote's pages, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  accountSettings: { path: '/account-settings', tenantScoped: true, title: 'Account Settings' },
} satisfies Record<string, RouteDeclaration>;
