import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The insights remote's page, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  // Staff, as the spec's navigation has it; Client users read their own client's insights through the API only.
  insights: { path: '/compliance-insights', tenantScoped: true, title: 'AI Insights', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;
