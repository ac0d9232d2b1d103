import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The chat remote's page, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  promptTemplates: { path: '/prompt-templates', tenantScoped: true, title: 'Prompt Templates', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;

/** register() installs the files tables' Chat-button launcher: load it for every signed-in page. */
export const LOAD_ON_SIGN_IN = true;
