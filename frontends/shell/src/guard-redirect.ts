import type { RouteAccess } from '@ledgerline/ui/shell-contract.ts';

/** Known once the stored auth state has been read; until then guards show 'Loading...'. */
export type SettledAuthStatus = 'authenticated' | 'anonymous';

/**
 * Spec 000 "Guards": an unauthenticated user on /{tenant}/dashboard goes to /{tenant}/login,
 * on any other guarded path to /login. 'admin' is never a tenant short name.
 */
export function loginPathFor(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean);
  const [tenant, section] = segments;
  if (segments.length === 2 && section === 'dashboard' && tenant !== 'admin') return `/${tenant}/login`;
  return '/login';
}

/** Where a route of the given access sends the user, or null to render it. */
export function accessRedirect(access: RouteAccess, pathname: string, status: SettledAuthStatus): string | null {
  if (access === 'authenticated' && status === 'anonymous') return loginPathFor(pathname);
  // Sign-in pages (/login) send an already signed-in user to /.
  if (access === 'guest' && status === 'authenticated') return '/';
  return null;
}
