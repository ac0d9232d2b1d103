import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import register from '../src/register.tsx';

describe('dashboard remote', () => {
  it("fills the shell's Dashboard and Activity slots with signed-in pages, adding no navigation", () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, access, tenantScoped, layout }) => ({ path, access, tenantScoped, layout }))).toEqual([
      { path: '/', access: undefined, tenantScoped: undefined, layout: undefined },
      { path: '/:tenant/dashboard', access: undefined, tenantScoped: undefined, layout: undefined },
      { path: '/activity', access: undefined, tenantScoped: undefined, layout: undefined },
    ]);
    // Dashboard is already the first item of the spec's navigation; /activity has none.
    expect(navItems).toEqual([]);
  });
});
