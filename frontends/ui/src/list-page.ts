import { apiRequest } from '@ledgerline/ui/api-client.ts';

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
 * GET of a list URL with its reply's headers: the generic query returns only the body, and a
 * pager or a count also needs what the headers say. apiRequest brings the same token and
 * error handling; a reply that is not a list reads as empty.
 */
export async function fetchList<T>(url: string, signal?: AbortSignal): Promise<{ rows: T[]; headers: Headers }> {
  const response = await apiRequest('GET', url, undefined, { signal });
  const body = (await response.json()) as unknown;
  return { rows: Array.isArray(body) ? (body as T[]) : [], headers: response.headers };
}

/** GET of a paged list URL: the page and how many rows match in all (X-Total-Count). */
export async function fetchListPage<T>(url: string, signal?: AbortSignal): Promise<ListPage<T>> {
  const { rows, headers } = await fetchList<T>(url, signal);
  return { rows, ...listTotal(headers, rows.length) };
}
