import { GOOGLE_DRIVE_SETUP_PARAM } from '@ledgerline/contracts/directory.contracts.ts';
import type { ToastMessage } from '@ledgerline/ui/toast-store.ts';

/** How the OAuth callback ended, as it tells the browser: ?google-drive-setup=success|error&message=… */
export type GoogleDriveSetupResult = { status: 'success' } | { status: 'error'; message: string | null };

export function readSetupResult(search: string): GoogleDriveSetupResult | null {
  const params = new URLSearchParams(search);
  const status = params.get(GOOGLE_DRIVE_SETUP_PARAM);
  if (status === 'success') return { status: 'success' };
  if (status === 'error') return { status: 'error', message: params.get('message') };
  return null;
}

/** The address without the result parameters, so a reload does not repeat the toast. */
export function withoutSetupResult(url: URL): string {
  const clean = new URL(url);
  clean.searchParams.delete(GOOGLE_DRIVE_SETUP_PARAM);
  clean.searchParams.delete('message');
  return `${clean.pathname}${clean.search}${clean.hash}`;
}

/** Spec 000 §4, §8: 'Success!' or an 'OAuth Error' carrying the callback's message. */
export function setupResultToast(result: GoogleDriveSetupResult): ToastMessage {
  if (result.status === 'success') return { severity: 'success', summary: 'Success!', detail: 'Google Drive has been connected successfully.' };
  return { severity: 'error', summary: 'OAuth Error', detail: result.message || 'Failed to connect Google Drive' };
}
