import { apiPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { saveBlob } from '@ledgerline/ui/file-access.ts';

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

/** One client's documents as a ZIP by type, tax year and report type, with an index (Admin; what a firm hands over when a client leaves). */
export async function downloadClientDocuments(client: { id: number; name: string }): Promise<void> {
  const response = await apiRequest('GET', apiPath(`files/clients/${client.id}/archive`));
  saveBlob(await response.blob(), `${client.name} documents.zip`);
}

/**
 * The firm's readable copy (Admin): users, clients, report types and tasks as CSV and each
 * client's documents in a folder, made as it downloads; saved under the name the server gives.
 */
export async function downloadReadableCopy(shortName: string): Promise<void> {
  const response = await apiRequest('GET', apiPath('export/readable'));
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  saveBlob(await response.blob(), named ?? `${shortName}-readable.zip`);
}
