import { describe, expect, it } from '@jest/globals';
import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import register from '../src/register.tsx';

describe('admin remote', () => {
  it('registers the administrator dashboard and Tenant Management as signed-in pages', () => {
    const routes: ShellRoute[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: () => {} });
    expect(routes.map(({ path, access, tenantScoped, layout }) => ({ path, access, tenantScoped, layout }))).toEqual([
      { path: '/admin/dashboard', access: undefined, tenantScoped: undefined, layout: undefined },
      { path: '/admin/tenants', access: undefined, tenantScoped: undefined, layout: undefined },
    ]);
  });
});
