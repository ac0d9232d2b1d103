/**
 * A sign-in flow in a popup window (e.g. an OAuth consent screen) that ends by sending the
 * popup back to one of our own pages. The opener polls it: while the popup shows another
 * origin its location cannot be read; once it is back on ours, the returned address is
 * handed over and the popup closed.
 */

export interface PopupSize {
  width: number;
  height: number;
}

export interface PopupWatch {
  /** Whether an address on this origin is where the flow ends (not a redirect on the way). */
  isReturn(url: URL): boolean;
  /** Called once with the popup's address when it has returned; it is then closed. */
  onReturn(url: URL): void;
  /** Called once if the user closes the popup before it returned. */
  onClosed(): void;
  intervalMs: number;
}

/** Opens url in a popup centred over the current window; null when the browser blocked it. */
export function openCenteredPopup(url: string, name: string, { width, height }: PopupSize): Window | null {
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open(url, name, `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
}

/** Starts polling the popup; the returned function stops it (e.g. on unmount). */
export function watchPopup(popup: Window, watch: PopupWatch): () => void {
  const timer = window.setInterval(() => {
    if (popup.closed) {
      window.clearInterval(timer);
      watch.onClosed();
      return;
    }
    const returned = sameOriginLocation(popup);
    if (!returned || !watch.isReturn(returned)) return;
    window.clearInterval(timer);
    popup.close();
    watch.onReturn(returned);
  }, watch.intervalMs);
  return () => window.clearInterval(timer);
}

function sameOriginLocation(popup: Window): URL | null {
  try {
    // Reading another origin's location throws; about:blank (still loading) has no host.
    const url = new URL(popup.location.href);
    return url.origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}
