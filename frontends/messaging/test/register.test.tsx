import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('messaging remote', () => {
  it('registers the Messages screen for staff and Client users, also under /{tenant}; its navigation item is the spec\'s AI Assistant', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, audience }) => ({ path, tenantScoped, audience }))).toEqual([{ path: '/messages', tenantScoped: true, audience: ['staff', 'client'] }]);
    expect(navItems).toEqual([]);
    expect(SPEC_NAV_ITEMS.find((item) => item.path === '/messages')).toMatchObject({ label: 'AI Assistant', audience: ['staff', 'client'] });
  });
});
