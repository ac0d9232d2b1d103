import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import type { LoginRequest } from '@ledgerline/contracts/auth.contracts.ts';
import type { LoginOutcome as LoginAnswer } from '@ledgerline/contracts/sign-in-security.contracts.ts';

export const NETWORK_ERROR = 'Network error. Please try again.';

/** Public facts of a firm for its login page (GET /api/{tenant}/info). */
export interface TenantInfo {
  id: number;
  name: string;
  shortName: string;
  isActive: boolean;
  urlPattern: string;
  /** ISO 3166-1 alpha-2, null when not set; its currency beside it. */
  country: FirmCountry | null;
  currency: string | null;
  /** Whether the firm's Client users may sign in with an e-mailed code. */
  clientEmailSignIn: boolean;
  /** Whether the firm's users may sign in with a passkey (the built-in issuer's; a Keycloak firm's realm keeps its own). */
  passkeySignIn: boolean;
}

export type LoginOutcome =
  | { ok: true; response: LoginAnswer }
  | { ok: false; reason: 'rejected'; message: string | undefined }
  | { ok: false; reason: 'network' };

/**
 * Sign-in calls go out without the stored bearer token: a stale token left in the browser
 * would otherwise be checked by the gateway and turn every login into a 401.
 */
export async function requestLogin(url: string, credentials: LoginRequest | object): Promise<LoginOutcome> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials), credentials: 'include' });
    body = await response.json().catch(() => null);
  } catch {
    return { ok: false, reason: 'network' };
  }
  if (response.ok) return { ok: true, response: body as LoginAnswer };
  const message = (body as { message?: unknown } | null)?.message;
  return { ok: false, reason: 'rejected', message: typeof message === 'string' && message ? message : undefined };
}

/** The other sign-in steps (a code, the setup during sign-in): tokenless like the login, one message on failure. */
export async function postPublic<T>(url: string, body: object): Promise<{ ok: true; response: T } | { ok: false; message: string }> {
  const r = await requestLogin(url, body);
  if (r.ok) return { ok: true, response: r.response as T };
  return { ok: false, message: r.reason === 'network' ? NETWORK_ERROR : (r.message ?? 'Sign-in failed') };
}

/** The firm of a tenant login page; null when it is unknown or inactive (the API's 404). */
export async function fetchTenantInfo(shortName: string, signal?: AbortSignal): Promise<TenantInfo | null> {
  const response = await fetch(`/api/${encodeURIComponent(shortName)}/info`, { signal });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  const info = (await response.json()) as TenantInfo;
  return info.isActive ? info : null;
}
