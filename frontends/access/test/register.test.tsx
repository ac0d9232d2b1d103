import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import register from '../src/register.tsx';

describe('access remote', () => {
  it('registers the three sign-in pages as guest pages, the invitation page as public, and Users and Roles with their tenant variants', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, access, tenantScoped }) => ({ path, access, tenantScoped }))).toEqual([
      { path: '/login', access: 'guest', tenantScoped: undefined },
      { path: '/:tenant/login', access: 'guest', tenantScoped: undefined },
      { path: '/admin/login', access: 'guest', tenantScoped: undefined },
      // An invitation's page opens whether or not someone is signed in on this browser.
      { path: '/:tenant/invitation', access: 'public', tenantScoped: undefined },
      { path: '/users', access: undefined, tenantScoped: true },
      { path: '/roles', access: undefined, tenantScoped: true },
    ]);
    // The spec's navigation already links Users and Roles.
    expect(navItems).toEqual([]);
  });
});
