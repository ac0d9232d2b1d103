import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import type { NavAudience, RouteAccess } from '@ledgerline/ui/shell-contract.ts';

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

/**
 * Where a route of the given access sends the user, or null to render it. `currentTenant`
 * is the stored current firm's short name.
 */
export function accessRedirect(access: RouteAccess, pathname: string, status: SettledAuthStatus, currentTenant?: string): string | null {
  if (access === 'authenticated' && status === 'anonymous') return loginPathFor(pathname);
  // Sign-in pages (/login) send an already signed-in user to /, except another firm's own
  // login (e.g. 'Open' on a tenant card in the admin console): that firm's page is shown.
  if (access === 'guest' && status === 'authenticated' && !isOtherFirmLogin(pathname, currentTenant)) return '/';
  return null;
}

function isOtherFirmLogin(pathname: string, currentTenant: string | undefined): boolean {
  const [tenant, page, ...rest] = pathname.split('/').filter(Boolean);
  return page === 'login' && rest.length === 0 && tenant !== 'admin' && tenant !== currentTenant;
}

/**
 * Where a signed-in user goes from a page that is not for their audience (a Client user who
 * types a staff URL lands on their own reports, staff on a Client page on their dashboard),
 * or null to render it. The server refuses the page's calls anyway; this spares the user
 * a screen of errors.
 */
export function audienceRedirect(audience: readonly NavAudience[], role: string, tenantShortName: string | undefined): string | null {
  const client = isClientRole(role);
  if (audience.includes(client ? 'client' : 'staff')) return null;
  const prefix = tenantShortName ? `/${tenantShortName}` : '';
  if (client) return `${prefix}/client-reports`;
  return tenantShortName ? `${prefix}/dashboard` : '/';
}
