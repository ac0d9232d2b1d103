import type { ClientPortalLink } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { clientPath } from './directory.api.ts';

/**
 * Copies {origin}/{tenant}/client/{id}/portal to the clipboard (spec 000 §2). The server signs
 * the path (design §3: portal links carry an expiring token), so it is fetched first.
 */
export async function copyPortalLink(clientId: number): Promise<void> {
  try {
    const { url } = await apiJson<ClientPortalLink>('GET', clientPath(clientId, '/portal-link'));
    await navigator.clipboard.writeText(`${window.location.origin}${url}`);
    showToast({ severity: 'success', summary: 'Portal Link Copied', detail: 'The client portal link is on your clipboard.' });
  } catch {
    showToast({ severity: 'error', summary: 'Error', detail: 'Failed to copy portal link to clipboard.' });
  }
}
