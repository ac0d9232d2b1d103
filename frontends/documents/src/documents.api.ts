import type { FileType } from '@ledgerline/contracts/files.contracts.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';

/**
 * Paths of the calls the documents screens make (spec 001 §7). All follow the stored current
 * tenant: /api/{tenant}/…, or /api/… without one.
 */
export const filesPath = (rest = ''): string => apiPath(`files${rest}`);
export const filePath = (fileId: number): string => filesPath(`/${fileId}`);
export const extractContentPath = (): string => filesPath('/extract-content');
export const clientsPath = (): string => apiPath('clients');
export const reportTypesPath = (): string => apiPath('report-types');
export const clientAccessPath = (userId: number): string => apiPath(`users/${userId}/client-access`);

/** The filters of GET /api/files the screens use; unset ones are left out of the query. */
export interface FileListFilters {
  clientId?: number | null;
  reportTypeId?: number | null;
  fileType?: FileType | null;
  search?: string | null;
  /** YYYY-MM-DD, inclusive whole days. */
  startDate?: string | null;
  endDate?: string | null;
}

/** One page of the list: `limit` rows from row `offset` (without them the server answers its first 200). */
export interface FileListPaging {
  limit?: number;
  offset?: number;
}

/** GET /api/files with the set filters and paging, in a stable order (the URL is also the query's cache key). */
export function fileListPath(filters: FileListFilters & FileListPaging): string {
  const query = new URLSearchParams();
  const add = (name: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined && value !== '') query.set(name, String(value));
  };
  add('clientId', filters.clientId);
  add('reportTypeId', filters.reportTypeId);
  add('fileType', filters.fileType);
  add('search', filters.search?.trim());
  add('startDate', filters.startDate);
  add('endDate', filters.endDate);
  add('limit', filters.limit);
  add('offset', filters.offset);
  const text = query.toString();
  return text ? `${filesPath()}?${text}` : filesPath();
}

/**
 * The firm documents screen's `_t` cache buster (spec 001 §7), added when the request is sent
 * (not to the cache key), so no cache between here and the service answers with an old list.
 */
export function withCacheBuster(url: string, now = Date.now()): string {
  return `${url}${url.includes('?') ? '&' : '?'}_t=${now}`;
}

/** Cache lifetimes of spec 001 §9. */
export const STALE_TIME_MS = { clients: 30_000, users: 30_000, files: 0, activity: 0 } as const;

/** Spec 001 §9: the lists are refreshed 500 ms after an upload. */
export const REFRESH_AFTER_UPLOAD_MS = 500;

/** What an upload changes (spec 001 §2): activity logs, files, clients and users. */
export const UPLOAD_REFRESHES = ['activity-logs', 'files', 'clients', 'users'] as const;
