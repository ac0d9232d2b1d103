import { readCurrentTenant } from './auth-storage.ts';

/** A page's path under the current firm's prefix (`/{tenant}/requests/7`), or as it is outside a firm. */
export function firmPagePath(path: string): string {
  const tenant = readCurrentTenant()?.shortName;
  return tenant ? `/${tenant}${path}` : path;
}
