import { apiPath } from '@ledgerline/ui/api-client.ts';

/**
 * Paths of the directory API. Everything but the public portal call follows the stored
 * current tenant (spec 000 §7 conventions: /api/{tenant}/…, or /api/… without one).
 */
export const clientsPath = (rest = ''): string => apiPath(`clients${rest}`);
export const clientPath = (clientId: number, rest = ''): string => clientsPath(`/${clientId}${rest}`);
export const googleDrivePath = (clientId: number, rest = ''): string => clientPath(clientId, `/google-drive${rest}`);
export const reportTypesPath = (rest = ''): string => apiPath(`report-types${rest}`);
export const clientFieldSettingsPath = (): string => apiPath('client-field-settings');
/** A user's client-access list (identity): Client users' own client is its first id. */
export const clientAccessPath = (userId: number): string => apiPath(`users/${userId}/client-access`);

/** The public page's call: the tenant comes from its address, the signed token from the link. */
export function clientPortalPath(tenant: string, clientId: string, token: string | null): string {
  const query = token ? `?${new URLSearchParams({ token })}` : '';
  return apiPath(`clients/${encodeURIComponent(clientId)}/portal${query}`, { tenant });
}
