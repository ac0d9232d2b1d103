import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { readCurrentTenant, readToken } from './auth-storage.ts';
import { endSession, isSessionEndedAnswer, untilPageLeaves } from '@ledgerline/ui/session-end.ts';

/** Every non-OK response becomes this; its message is what screens show (spec 000 §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export interface ApiPathOptions {
  /** A tenant short name, or null for the unprefixed form; omitted: the stored current tenant. */
  tenant?: string | null;
}

/**
 * Tenant-scoped calls go to /api/{tenant}/…, or /api/… when there is no tenant (spec 000 §7).
 * `path` is relative to /api: 'clients' or '/clients/7'.
 */
export function apiPath(path: string, options: ApiPathOptions = {}): string {
  const tenant = options.tenant === undefined ? readCurrentTenant()?.shortName : options.tenant;
  const rest = path.replace(/^\/+/, '');
  return tenant ? `/api/${encodeURIComponent(tenant)}/${rest}` : `/api/${rest}`;
}

/** apiPath with a query string of the defined values: `apiQueryPath('tasks', { status: 'pending', clientId: undefined })`. */
export function apiQueryPath(path: string, params: object, options: ApiPathOptions = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
  const query = q.toString();
  return apiPath(`${path}${query ? `?${query}` : ''}`, options);
}

export interface ApiRequestInit {
  signal?: AbortSignal;
  /** e.g. 'text/event-stream' for a reply streamed as server-sent events. */
  accept?: string;
}

/** Sends the stored bearer token and cookies; plain values go as JSON, FormData as multipart. */
export async function apiRequest(method: string, url: string, body?: unknown, init: ApiRequestInit = {}): Promise<Response> {
  const headers = authHeaders();
  if (init.accept) headers.set('Accept', init.accept);
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    // The browser writes the multipart boundary into Content-Type itself.
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  const response = await fetch(url, { method, headers, body: payload, credentials: 'include', signal: init.signal });
  await throwIfNotOk(response);
  return response;
}

/** apiRequest for calls that answer JSON; an empty body (204) gives null. */
export async function apiJson<T>(method: string, url: string, body?: unknown, init?: ApiRequestInit): Promise<T> {
  const response = await apiRequest(method, url, body, init);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

function authHeaders(): Headers {
  const headers = new Headers();
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text();
  if (isSessionEndedAnswer(response.status, text)) {
    // One sign-out for the tab, not an error on every screen that asked (session-end.ts).
    endSession();
    return untilPageLeaves();
  }
  throw new ApiError(response.status, text, response.statusText);
}

/** A 401 that says the session ended signs the tab out whatever the caller does with other 401s. */
async function throwIfSessionEnded(response: Response): Promise<void> {
  if (response.status !== 401) return;
  if (isSessionEndedAnswer(401, await response.clone().text())) {
    endSession();
    await untilPageLeaves();
  }
}

export type On401 = 'returnNull' | 'throw';

/** The generic query: GET on the first element of the query key (spec 000 §7). */
export function getQueryFn<T>(options: { on401: On401 }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(String(queryKey[0]), { headers: authHeaders(), credentials: 'include', signal });
    await throwIfSessionEnded(response);
    if (options.on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}

/** Cache defaults of spec 000 §7: no retry, no refetch on focus or interval, never stale. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
