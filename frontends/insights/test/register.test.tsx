import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('insights remote', () => {
  it('registers the AI Compliance Insights screen for staff, also under /{tenant}; its navigation item is the spec\'s own', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, audience }) => ({ path, tenantScoped, audience }))).toEqual([{ path: '/compliance-insights', tenantScoped: true, audience: ['staff'] }]);
    expect(navItems).toEqual([]);
    expect(SPEC_NAV_ITEMS.map((item) => item.path)).toContain('/compliance-insights');
  });
});
