/**
 * The localStorage keys of a sign-in in the browser (spec 000 §3 "Logged-in user", §7). The apps
 * read and write them (frontends/ui/src/auth-storage.ts); the gateway's first-paint sign-in page
 * looks for a stored token under them (gateway/src/sign-in-page.ts).
 */
export const TOKEN_KEY = 'token';
/** Read first: older sign-ins stored the token under this key (spec 000 §7). */
export const AUTH_TOKEN_KEY = 'authToken';
export const USER_KEY = 'user';
export const CURRENT_TENANT_KEY = 'currentTenant';
