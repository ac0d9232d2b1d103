import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import type { RouteAccess } from '@ledgerline/ui/shell-contract.ts';
import { accessRedirect } from './guard-redirect.ts';
import { LoadingScreen } from './loading-screen.tsx';

/** Renders its children once the auth state allows the route's access, else redirects. */
export function RouteGuard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const { state } = useAuth();
  const { pathname } = useLocation();
  if (access === 'public') return children;
  if (state.status === 'loading') return <LoadingScreen />;
  const redirect = accessRedirect(access, pathname, state.status, readCurrentTenant()?.shortName);
  return redirect ? <Navigate to={redirect} replace /> : children;
}
