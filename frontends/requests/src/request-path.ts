import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';

/** The Requests pages under the stored firm (/{tenant}/requests/…), or unprefixed without one. */
export function requestPagePath(id?: number): string {
  const tenant = readCurrentTenant()?.shortName;
  const path = id === undefined ? '/requests' : `/requests/${id}`;
  return tenant ? `/${tenant}${path}` : path;
}
