import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('documents remote', () => {
  it('registers the reports, file panel, client reports and firm documents pages', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, access }) => ({ path, tenantScoped, access }))).toEqual([
      { path: '/cpa-dashboard', tenantScoped: true, access: undefined },
      { path: '/cpa-dashboard/report/:id', tenantScoped: undefined, access: undefined },
      { path: '/file-upload', tenantScoped: undefined, access: undefined },
      { path: '/client-reports', tenantScoped: true, access: undefined },
      { path: '/firm-documents', tenantScoped: true, access: undefined },
    ]);
    // Reports, client Reports and Firm Documents are already in the spec's navigation.
    expect(navItems).toEqual([]);
    expect(SPEC_NAV_ITEMS.map((item) => item.path)).toEqual(expect.arrayContaining(['/cpa-dashboard', '/client-reports', '/firm-documents']));
  });
});
