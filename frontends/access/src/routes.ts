import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/** The access remote's pages, known to the shell before the remote loads (see shell-contract.ts). */
export const ROUTES = {
  login: { path: '/login', access: 'guest', title: 'Sign In' },
  // The static /admin/login outranks this pattern, and the shell never reads 'admin' as a tenant.
  tenantLogin: { path: '/:tenant/login', access: 'guest', title: 'Sign In' },
  adminLogin: { path: '/admin/login', access: 'guest', title: 'Admin Sign In' },
  // The page an invitation e-mail links to (issue 40); public like the sign-in pages.
  invitation: { path: '/:tenant/invitation', access: 'public', title: 'Invitation' },
  users: { path: '/users', tenantScoped: true, title: 'Users', audience: ['staff'] },
  roles: { path: '/roles', tenantScoped: true, title: 'Roles', audience: ['staff'] },
} satisfies Record<string, RouteDeclaration>;
