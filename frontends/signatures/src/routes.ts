import type { RouteDeclaration, ShellNavItem } from '@ledgerline/ui/shell-contract.ts';

/** The e-signature pages (issue 41), known to the shell before the remote loads. */
export const ROUTES = {
  signatures: { path: '/signatures', tenantScoped: true, title: 'Signatures', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;

export const NAV_ITEMS: ShellNavItem[] = [
  { id: 'signatures', label: 'Signatures', path: '/signatures', icon: 'pi pi-pen-to-square', audience: ['staff'] },
];
