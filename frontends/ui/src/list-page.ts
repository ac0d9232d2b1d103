import { apiRequest } from './api-client.ts';

/** How many rows match a paged list in all, from its reply's headers. */
export interface ListTotal {
  total: number;
  /** The server counted only up to a limit (a content search's best matches); then the total is that limit. */
  capped: boolean;
}

/** One page of a list the server pages with limit/offset, and how many rows match in all. */
export interface ListPage<T> extends ListTotal {
  rows: T[];
}

/**
 * The total of a paged reply (X-Total-Count). Without a readable header (a proxy that drops
 * it) the rows received are all the screen knows of, so it shows them as everything.
 */
export function listTotal(headers: Headers, rowsReceived: number): ListTotal {
  const total = Number.parseInt(headers.get('X-Total-Count') ?? '', 10);
  return {
    total: Number.isSafeInteger(total) && total >= 0 ? total : rowsReceived,
    capped: headers.get('X-Total-Count-Capped') === 'true',
  };
}

/**
 * GET of a paged list URL. The generic query returns only the body, and a pager or a count
 * also needs X-Total-Count; apiRequest brings the same token and error handling.
 */
export async function fetchListPage<T>(url: string, signal?: AbortSignal): Promise<ListPage<T>> {
  const response = await apiRequest('GET', url, undefined, { signal });
  const body = (await response.json()) as unknown;
  const rows = Array.isArray(body) ? (body as T[]) : [];
  return { rows, ...listTotal(response.headers, rows.length) };
}
