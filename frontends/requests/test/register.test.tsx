import { describe, expect, it } from '@jest/globals';
import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('requests remote', () => {
  it('registers the Requests list, the templates (staff) and a request\'s page, for staff and Client users, also under /{tenant}; the navigation item is in ui/nav-items.ts', () => {
    const routes: ShellRoute[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: () => { throw new Error('no navigation items of its own'); } });
    expect(routes.map(({ path, tenantScoped, audience, title }) => ({ path, tenantScoped, audience, title }))).toEqual([
      { path: '/requests', tenantScoped: true, audience: ['staff', 'client'], title: 'Requests' },
      { path: '/requests/templates', tenantScoped: true, audience: ['staff'], title: 'Request Templates' },
      { path: '/requests/organizers', tenantScoped: true, audience: ['staff'], title: 'Organizers' },
      { path: '/requests/organizer-templates', tenantScoped: true, audience: ['staff'], title: 'Organizer Templates' },
      { path: '/requests/organizers/:id', tenantScoped: true, audience: ['staff', 'client'], title: 'Organizer' },
      { path: '/requests/:id', tenantScoped: true, audience: ['staff', 'client'], title: 'Document Request' },
    ]);
    expect(SPEC_NAV_ITEMS.find((item) => item.path === '/requests')?.audience).toEqual(['staff', 'client']);
  });
});
