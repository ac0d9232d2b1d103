import { describe, expect, it } from '@jest/globals';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import { createShellRegistry, mergeByKey } from '../src/shell-registry.ts';

describe('shell registry', () => {
  it('collects routes and nav items that remotes add', () => {
    const registry = createShellRegistry([{ path: '/', element: 'slot' }], SPEC_NAV_ITEMS);
    registry.addRoutes([{ path: '/account-settings', element: 'account', tenantScoped: true }]);
    registry.addNavItems([{ id: 'activity', label: 'Activity', path: '/activity' }]);
    expect(registry.routes().map((route) => route.path)).toEqual(['/', '/account-settings']);
    expect(registry.navItems().at(-1)).toEqual({ id: 'activity', label: 'Activity', path: '/activity' });
    expect(registry.navItems()).toHaveLength(SPEC_NAV_ITEMS.length + 1);
  });

  it('lets a later registration of a path replace the shell default in place', () => {
    const registry = createShellRegistry(
      [
        { path: '/', element: 'slot' },
        { path: '/:tenant/dashboard', element: 'slot' },
      ],
      [],
    );
    registry.addRoutes([{ path: '/', element: 'dashboard remote' }]);
    expect(registry.routes()).toEqual([
      { path: '/', element: 'dashboard remote' },
      { path: '/:tenant/dashboard', element: 'slot' },
    ]);
  });

  it('lets a remote replace a spec nav item by id, keeping its place', () => {
    const registry = createShellRegistry([], SPEC_NAV_ITEMS);
    registry.addNavItems([{ id: 'tasks', label: 'Tasks', path: '/tasks', icon: 'pi pi-list' }]);
    const index = SPEC_NAV_ITEMS.findIndex((item) => item.id === 'tasks');
    expect(registry.navItems()[index]?.icon).toBe('pi pi-list');
    expect(registry.navItems()).toHaveLength(SPEC_NAV_ITEMS.length);
  });

  it('merges by key: replace in place, append new', () => {
    expect(mergeByKey(['a1', 'b1'], ['b2', 'c1'], (entry) => entry[0]!)).toEqual(['a1', 'b2', 'c1']);
  });
});
