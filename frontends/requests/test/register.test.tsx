import { describe, expect, it } from '@jest/globals';
import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import register from '../src/register.tsx';

describe('requests remote', () => {
  it('registers the Requests list, the templates (staff) and a request\'s page, for staff and Client users, also under /{tenant}; the navigation item is in ui/nav-items.ts', () => {
    const routes: ShellRoute[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: () => { throw new Error('no navigation items of its own'); } });
    expect(routes.map(({ path, tenantScoped, audience, access, title }) => ({ path, tenantScoped, audience, access, title }))).toEqual([
      { path: '/requests', tenantScoped: true, audience: ['staff', 'client'], access: undefined, title: 'Requests' },
      { path: '/requests/templates', tenantScoped: true, audience: ['staff'], access: undefined, title: 'Request Templates' },
      { path: '/requests/organizers', tenantScoped: true, audience: ['staff'], access: undefined, title: 'Organizers' },
      { path: '/requests/organizer-templates', tenantScoped: true, audience: ['staff'], access: undefined, title: 'Organizer Templates' },
      { path: '/requests/organizers/:id', tenantScoped: true, audience: ['staff', 'client'], access: undefined, title: 'Organizer' },
      // The organizer link's page: no sign-in, outside any firm's address (the token names the firm).
      { path: '/organizer/:token', tenantScoped: undefined, audience: undefined, access: 'public', title: 'Organizer' },
      { path: '/requests/:id', tenantScoped: true, audience: ['staff', 'client'], access: undefined, title: 'Document Request' },
    ]);
    expect(SPEC_NAV_ITEMS.find((item) => item.path === '/requests')?.audience).toEqual(['staff', 'client']);
  });
});
