import type { GoogleDriveSetupResult } from './google-drive-result.ts';

/**
 * Carries the OAuth result from the popup to the page that opened it. The gateway serves
 * pages with Cross-Origin-Opener-Policy: same-origin, so once the popup has been on the
 * provider's origin the opener's handle to it reads as closed and its address can no longer
 * be polled; a same-origin BroadcastChannel still reaches the opener.
 */
const CHANNEL_NAME = 'ledgerline:google-drive-setup';

type ChannelMessage = { kind: 'result'; result: GoogleDriveSetupResult } | { kind: 'ack' };

/** How long the returned popup waits for its opener to claim the result. */
export const HAND_OVER_WAIT_MS = 1000;

/** Opener side: takes results (acknowledging each) until stopped. */
export function listenForSetupResults(onResult: (result: GoogleDriveSetupResult) => void): () => void {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
    if (event.data.kind !== 'result') return;
    channel.postMessage({ kind: 'ack' } satisfies ChannelMessage);
    onResult(event.data.result);
  };
  return () => channel.close();
}

/** Returned-page side: true when an opener took the result, false when nobody was waiting for it. */
export function handOverSetupResult(result: GoogleDriveSetupResult, waitMs = HAND_OVER_WAIT_MS): Promise<boolean> {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  return new Promise<boolean>((resolve) => {
    const settle = (taken: boolean) => {
      clearTimeout(timer);
      channel.close();
      resolve(taken);
    };
    const timer = setTimeout(() => settle(false), waitMs);
    channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
      if (event.data.kind === 'ack') settle(true);
    };
    channel.postMessage({ kind: 'result', result } satisfies ChannelMessage);
  });
}
