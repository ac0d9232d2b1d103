import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { AuthProvider } from '@ledgerline/ui/auth-context.tsx';
import { SHELL_OWN_ROUTES } from '../src/shell-own-routes.tsx';
import { ShellRoutes } from '../src/shell-routes.tsx';
import type { ShellRoute } from '@ledgerline/ui/shell-contract.ts';

const routes: ShellRoute[] = [
  ...SHELL_OWN_ROUTES,
  { path: '/account-settings', element: <p>account page</p>, tenantScoped: true },
  { path: '/:tenantName/client/:clientId/portal', element: <p>portal page</p>, access: 'public' },
];

// Server rendering runs no effects, so the auth state is the initial 'loading' one.
function render(path: string): string {
  return renderToStaticMarkup(
    <AuthProvider>
      <MemoryRouter initialEntries={[path]}>
        <ShellRoutes routes={routes} navItems={[]} />
      </MemoryRouter>
    </AuthProvider>,
  );
}

describe('ShellRoutes', () => {
  it('shows the not-found page for a path no route claims', () => {
    const html = render('/no/such/page');
    expect(html).toContain('404 Page Not Found');
    expect(html).toContain('Did you forget to add the page to the router?');
  });

  it("shows 'Loading...' on guarded routes while the auth state loads", () => {
    expect(render('/account-settings')).toContain('Loading...');
    expect(render('/acme/account-settings')).toContain('Loading...');
    expect(render('/acme/account-settings')).not.toContain('account page');
  });

  it('guards the pages of the spec route table before their remotes register them', () => {
    for (const path of ['/', '/acme/dashboard', '/tasks', '/acme/tasks', '/cpa-dashboard/report/7', '/permissions']) {
      expect([path, render(path)]).toEqual([path, expect.stringContaining('Loading...')]);
    }
    expect(render('/acme/permissions')).toContain('404 Page Not Found');
  });

  it('renders public routes without waiting for authentication', () => {
    expect(render('/acme/client/4/portal')).toContain('portal page');
  });
});
