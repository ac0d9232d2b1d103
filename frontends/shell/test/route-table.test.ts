import { describe, expect, it } from '@jest/globals';
import { expandRoutes } from '../src/route-table.ts';

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
      { path: '/tasks', element: 'page', access: 'authenticated', layout: 'app', tenantSegment: false },
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
