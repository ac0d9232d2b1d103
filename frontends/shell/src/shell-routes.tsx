import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { useDocumentTitle } from '@ledgerline/ui/document-title.ts';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { audienceRedirect } from './guard-redirect.ts';
import { NotFoundPage } from './not-found.page.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { RouteGuard } from './route-guard.tsx';
import { expandRoutes, pageTitle, TENANT_PARAM, type RouteEntry } from './route-table.ts';
import { ShellLayout } from './shell-layout.tsx';

export interface ShellRoutesProps {
  routes: readonly ShellRoute[];
  navItems: readonly ShellNavItem[];
}

export function ShellRoutes({ routes, navItems }: ShellRoutesProps) {
  const entries = expandRoutes(routes);
  const inLayout = entries.filter((entry) => entry.layout === 'app');
  const bare = entries.filter((entry) => entry.layout === 'bare');
  return (
    <Routes>
      <Route
        element={
          <RouteGuard access="authenticated">
            <ShellLayout navItems={navItems} routes={inLayout} />
          </RouteGuard>
        }
      >
        {inLayout.map((entry) => (
          <Route key={entry.path} path={entry.path} element={<RouteElement entry={entry}>{entry.element}</RouteElement>} />
        ))}
      </Route>
      {bare.map((entry) => (
        <Route
          key={entry.path}
          path={entry.path}
          element={
            <RouteGuard access={entry.access}>
              <RouteElement entry={entry}>{entry.element}</RouteElement>
            </RouteGuard>
          }
        />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function RouteElement({ entry, children }: { entry: RouteEntry; children: ReactNode }) {
  const params = useParams();
  const { pathname } = useLocation();
  const { state } = useAuth();
  const tenant = state.status === 'authenticated' ? readCurrentTenant() : null;
  useDocumentTitle(pageTitle(entry, pathname), tenant?.name);
  if (entry.tenantSegment && params[TENANT_PARAM] === 'admin') return <NotFoundPage />;
  if (entry.access === 'authenticated' && state.status === 'authenticated') {
    const redirect = audienceRedirect(entry.audience, state.user.role, tenant?.shortName);
    if (redirect) return <Navigate to={redirect} replace />;
  }
  // Keyed by location so moving to another page clears a previous page's error.
  return <RouteErrorBoundary key={pathname}>{children}</RouteErrorBoundary>;
}
