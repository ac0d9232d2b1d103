/**
 * The 401 answer to a call whose sign-in session was ended (signed out there, or everywhere,
 * or revoked by an Admin). The shell recognises it: it signs the tab out once and shows this
 * on the sign-in page, instead of one error per screen that asked (frontends/ui/src/session-end.ts).
 */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** The sign-in page's query parameter that says why the visitor is there (shown once). */
export const SIGNED_OUT_PARAM = 'signedOut';
export const SIGNED_OUT_SESSION_ENDED = 'session-ended';
