import { useEffect, useRef, useState } from 'react';
import type { GoogleAuthUrl } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { openCenteredPopup, watchPopup } from '@ledgerline/ui/popup-flow.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { googleDrivePath } from './directory.api.ts';
import { listenForSetupResults } from './google-drive-channel.ts';
import { readSetupResult, setupResultToast, type GoogleDriveSetupResult } from './google-drive-result.ts';

/** Spec 000 §9: the consent popup is 600x600 and polled every 1000 ms. */
const POPUP_SIZE = { width: 600, height: 600 };
const POPUP_POLL_MS = 1000;

export interface GoogleDriveConnect {
  /** True while the consent popup is open ('Connecting...'). */
  connecting: boolean;
  start(): Promise<void>;
}

/**
 * Step 2 of the Google Drive setup: the provider's consent screen in a popup. The flow ends
 * when the callback sends the popup back to /{tenant}/clients?google-drive-setup=…, whether
 * the poll reads that address or the returned page hands the result over (see
 * google-drive-channel.ts). onSettled runs when the popup is gone, so the status is re-read.
 */
export function useGoogleDriveConnect(clientId: number, onSettled: () => void): GoogleDriveConnect {
  const [connecting, setConnecting] = useState(false);
  const stopFlow = useRef<(() => void) | null>(null);
  // The latest callback, for a flow that outlives the render which started it.
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  useEffect(() => () => stopFlow.current?.(), []);

  const start = async () => {
    let authUrl: string;
    try {
      ({ authUrl } = await apiJson<GoogleAuthUrl>('GET', googleDrivePath(clientId, '/auth-url')));
    } catch (error) {
      showToast({ severity: 'error', summary: 'Error', detail: serverMessage(error) ?? 'Failed to start OAuth flow' });
      return;
    }
    const popup = openCenteredPopup(authUrl, 'google-drive-setup', POPUP_SIZE);
    if (!popup) {
      // Popup blocked: run the consent in this window; the clients page shows the result on return.
      window.location.assign(authUrl);
      return;
    }
    stopFlow.current?.();
    setConnecting(true);
    let finished = false;
    const finish = (result: GoogleDriveSetupResult | null) => {
      if (finished) return;
      finished = true;
      stopFlow.current?.();
      stopFlow.current = null;
      setConnecting(false);
      if (result) showToast(setupResultToast(result));
      settled.current();
    };
    const stopListening = listenForSetupResults(finish);
    const stopWatching = watchPopup(popup, {
      intervalMs: POPUP_POLL_MS,
      isReturn: (url) => readSetupResult(url.search) !== null,
      onReturn: (url) => finish(readSetupResult(url.search)),
      // Closed by the user, or only severed from this page (COOP): stop waiting, re-read the
      // status, and keep listening while this dialog is open in case the flow still ends.
      onClosed: () => {
        setConnecting(false);
        settled.current();
      },
    });
    stopFlow.current = () => {
      stopWatching();
      stopListening();
    };
  };

  return { connecting, start };
}
