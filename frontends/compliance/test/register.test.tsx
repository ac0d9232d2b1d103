import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('compliance remote', () => {
  it('registers the Compliance screen for staff and Client users, also under /{tenant}; its navigation item is the spec\'s own', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, audience }) => ({ path, tenantScoped, audience }))).toEqual([{ path: '/compliance', tenantScoped: true, audience: ['staff', 'client'] }]);
    expect(navItems).toEqual([]);
    expect(SPEC_NAV_ITEMS.find((item) => item.path === '/compliance')?.audience).toEqual(['staff', 'client']);
  });
});
