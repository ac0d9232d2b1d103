import { showToast } from '@ledgerline/ui/toast-store.ts';

/** Puts a link made just now on the clipboard (it is shown once), or says to copy it by hand. */
export async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    showToast({ severity: 'success', summary: 'Copied', detail: 'The link is on your clipboard.' });
  } catch {
    showToast({ severity: 'warn', summary: 'Copy Failed', detail: 'Select the link and copy it yourself.' });
  }
}
