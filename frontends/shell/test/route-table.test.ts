import { describe, expect, it } from '@jest/globals';
import { expandRoutes, matchEntry, pageTitle } from '../src/route-table.ts';

describe('expandRoutes', () => {
  it('adds the /:tenant variant of a tenant-scoped route', () => {
    const entries = expandRoutes([{ path: '/account-settings', element: 'page', tenantScoped: true }]);
    expect(entries.map(({ path, tenantSegment }) => [path, tenantSegment])).toEqual([
      ['/account-settings', false],
      ['/:tenant/account-settings', true],
    ]);
  });

  it('guards routes and puts them in the app layout by default', () => {
    expect(expandRoutes([{ path: '/tasks', element: 'page' }])).toEqual([
      { path: '/tasks', element: 'page', access: 'authenticated', layout: 'app', title: undefined, audience: ['staff', 'client'], tenantSegment: false },
    ]);
  });

  it('keeps an explicit bare layout for authenticated routes', () => {
    expect(expandRoutes([{ path: '/print', element: 'page', layout: 'bare' }])[0]!.layout).toBe('bare');
  });

  it('renders guest and public routes bare whatever layout they ask for', () => {
    const entries = expandRoutes([
      { path: '/login', element: 'login', access: 'guest', layout: 'app' },
      { path: '/:tenantName/client/:clientId/portal', element: 'portal', access: 'public' },
    ]);
    expect(entries.map(({ access, layout }) => [access, layout])).toEqual([
      ['guest', 'bare'],
      ['public', 'bare'],
    ]);
  });

  it('flags explicit /:tenant/… paths as tenant paths', () => {
    expect(expandRoutes([{ path: '/:tenant/dashboard', element: 'dash' }])[0]!.tenantSegment).toBe(true);
  });
});

describe('page titles', () => {
  const entries = expandRoutes([
    { path: '/clients', element: 'clients', tenantScoped: true, title: 'Clients' },
    { path: '/tasks', element: 'tasks', tenantScoped: true },
    { path: '/:tenant/login', element: 'login', access: 'guest', title: 'Sign In' },
    { path: '/admin/login', element: 'admin', access: 'guest', title: 'Admin Sign In' },
  ]);

  it("uses the matched route's declared title, with react-router's ranking", () => {
    expect(pageTitle(matchEntry(entries, '/acme/clients'), '/acme/clients')).toBe('Clients');
    expect(pageTitle(matchEntry(entries, '/admin/login'), '/admin/login')).toBe('Admin Sign In');
    expect(pageTitle(matchEntry(entries, '/acme/login'), '/acme/login')).toBe('Sign In');
  });

  it('falls back to the header-title table for a route without a title, or no route', () => {
    expect(pageTitle(matchEntry(entries, '/acme/tasks'), '/acme/tasks')).toBe('Tasks');
    expect(pageTitle(matchEntry(entries, '/nowhere/at/all'), '/nowhere/at/all')).toBe('Dashboard');
  });
});
