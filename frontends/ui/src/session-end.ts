import { SESSION_ENDED, SIGNED_OUT_PARAM, SIGNED_OUT_SESSION_ENDED } from '@ledgerline/contracts/session-ended.ts';
import { clearStoredAuth, logoutRedirectPath, readCurrentTenant } from './auth-storage.ts';

/*
 * A tab whose sign-in ended elsewhere ("Sign out everywhere" in another tab or on another
 * device, an Admin's revocation, a sign-out in another tab of this browser) goes to the sign-in
 * page once, and that page says why once: not one "Your session has ended" banner per screen
 * that happened to ask the server something.
 */

let ending = false;

/** Whether a response is the server saying this tab's session has ended. */
export function isSessionEndedAnswer(status: number, body: string): boolean {
  if (status !== 401) return false;
  try {
    return (JSON.parse(body) as { message?: unknown }).message === SESSION_ENDED;
  } catch {
    return false;
  }
}

/** The sign-in page the tab is sent to, saying why. */
export function sessionEndedPath(loginPath: string): string {
  return `${loginPath}?${SIGNED_OUT_PARAM}=${SIGNED_OUT_SESSION_ENDED}`;
}

/** Signs this tab out and loads the sign-in page, once however many calls found out. */
export function endSession(): void {
  if (ending) return;
  ending = true;
  const tenant = readCurrentTenant();
  clearStoredAuth();
  window.location.assign(sessionEndedPath(logoutRedirectPath(tenant)));
}

/** Whether the tab is on its way to the sign-in page (calls made meanwhile answer nothing). */
export const sessionEnding = (): boolean => ending;

/**
 * What never settles: a call that finds the session ended waits on it while the page goes,
 * so no screen draws an error in the moment before the sign-in page loads.
 */
export const untilPageLeaves = (): Promise<never> => new Promise<never>(() => {});

let notice: string | null | undefined;

/**
 * The sign-in page's notice, read from its address once per page load (and taken out of it, so
 * a reload does not say it again); every sign-in card of this load shows the same one.
 */
export function signedOutNotice(): string | null {
  if (notice === undefined) notice = takeSignedOutNotice();
  return notice;
}

function takeSignedOutNotice(): string | null {
  const url = new URL(window.location.href);
  if (url.searchParams.get(SIGNED_OUT_PARAM) !== SIGNED_OUT_SESSION_ENDED) return null;
  url.searchParams.delete(SIGNED_OUT_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return SESSION_ENDED;
}
