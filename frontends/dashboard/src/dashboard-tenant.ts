import type { StoredTenant } from '@ledgerline/ui/auth-storage.ts';

/**
 * The firm whose dashboard and activity a screen shows (spec 001 §2 "Dashboard"): the stored
 * current tenant, otherwise the first segment of /{tenant}/dashboard. A firm user without
 * either still has their own firm (`userTenant`: login's user.tenant), which the token also names; only a
 * platform administrator who has not picked a firm has none.
 */
export function dashboardTenant(stored: StoredTenant | null, pathname: string, userTenant: unknown): string | null {
  if (stored) return stored.shortName;
  const [first, second] = pathname.split('/').filter(Boolean);
  if (first && second === 'dashboard') return decodeURIComponent(first);
  return typeof userTenant === 'string' && userTenant ? userTenant : null;
}
