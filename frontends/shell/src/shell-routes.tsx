import { lazy, Suspense, useLayoutEffect, type ReactNode } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { useDocumentTitle } from '@ledgerline/ui/document-title.ts';
import { removeFirstPaint } from '@ledgerline/ui/first-paint.ts';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { audienceRedirect } from './guard-redirect.ts';
import { NotFoundPage } from './not-found.page.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { RouteGuard } from './route-guard.tsx';
import { LoadingScreen } from './loading-screen.tsx';
import { expandRoutes, pageTitle, TENANT_PARAM, type RouteEntry } from './route-table.ts';

/*
 * The signed-in frame (navigation, notifications and their realtime connection) is a chunk of
 * its own: the sign-in pages never load it. The shell fetches it at boot when a sign-in is
 * stored, alongside the remote list, so signed-in pages do not wait for it in turn.
 */
const loadShellLayout = () => import('./shell-layout.tsx');
const ShellLayout = lazy(async () => ({ default: (await loadShellLayout()).ShellLayout }));
export const preloadShellLayout = (): void => void loadShellLayout();

export interface ShellRoutesProps {
  routes: readonly ShellRoute[];
  navItems: readonly ShellNavItem[];
}

/** The one page the gateway writes a first-paint copy of (ui/first-paint.ts): a firm's sign-in. */
function isFirmSignIn(pathname: string): boolean {
  const tenant = matchPath('/:tenant/login', pathname)?.params.tenant;
  return tenant !== undefined && tenant !== 'admin';
}

export function ShellRoutes({ routes, navItems }: ShellRoutesProps) {
  const { pathname } = useLocation();
  // Any other page (a signed-in visitor sent on to their dashboard) replaces the first-paint sign-in.
  useLayoutEffect(() => {
    if (!isFirmSignIn(pathname)) removeFirstPaint();
  }, [pathname]);
  const entries = expandRoutes(routes);
  const inLayout = entries.filter((entry) => entry.layout === 'app');
  const bare = entries.filter((entry) => entry.layout === 'bare');
  return (
    <Routes>
      <Route
        element={
          <RouteGuard access="authenticated">
            <Suspense fallback={<LoadingScreen />}>
              <ShellLayout navItems={navItems} routes={inLayout} />
            </Suspense>
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
