import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { fetchListPage, type ListTotal } from '@ledgerline/ui/list-page.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { clientAccessPath, clientsPath, filePath, REFRESH_AFTER_UPLOAD_MS, reportTypesPath, STALE_TIME_MS, UPLOAD_REFRESHES, withCacheBuster } from './documents.api.ts';

/** The clients the caller may see (the server narrows the list); cached 30 s (spec 001 §9). */
export function useClients(enabled = true) {
  const clients = useQuery<Client[]>({ queryKey: [clientsPath()], staleTime: STALE_TIME_MS.clients, enabled });
  useFailureToast(clients, 'Failed to fetch clients');
  return clients;
}

/** The report types the caller may use (a CPA's report-access list; everyone's for others). */
export function useReportTypes() {
  return useQuery<ReportType[]>({ queryKey: [reportTypesPath()] });
}

/** A user's client-access list; a Client user's own client is its first id. */
export function useClientAccess(userId: number) {
  return useQuery<number[] | null>({ queryKey: [clientAccessPath(userId)], staleTime: STALE_TIME_MS.users });
}

/** One page of a files list and how many files match in all. */
export interface FilePage extends ListTotal {
  files: PortalFile[];
}

/** GET of a files list URL: a page of files and how many match in all. */
export async function fetchFilePage(url: string, signal?: AbortSignal): Promise<FilePage> {
  const { rows, ...total } = await fetchListPage<PortalFile>(url, signal);
  return { files: rows, ...total };
}

export interface FilesQueryOptions {
  enabled?: boolean;
  /** Send the firm documents screen's `_t` cache buster with every request. */
  bustCache?: boolean;
  /** The failure toast's text. */
  failureDetail?: string;
}

/**
 * A files list page by its URL (fileListPath), which is also its key, so invalidating
 * 'files' refreshes it; never cached as fresh (spec 001 §9). While the next page or filter
 * loads, the previous rows stay rather than the table flashing empty.
 */
export function useFiles(url: string, { enabled = true, bustCache = false, failureDetail = 'Failed to fetch files' }: FilesQueryOptions = {}) {
  const files = useQuery<FilePage>({
    queryKey: [url],
    queryFn: ({ signal }) => fetchFilePage(bustCache ? withCacheBuster(url) : url, signal),
    staleTime: STALE_TIME_MS.files,
    enabled,
    placeholderData: keepPreviousData,
  });
  useFailureToast(files, failureDetail);
  return files;
}

/**
 * What every upload's success does (spec 001 §2): the toast, and after 0.5 s the activity
 * logs, files, clients and users are refetched.
 */
export function useUploadRefresh(): (toast: boolean) => void {
  const queryClient = useQueryClient();
  return (toast) => {
    if (toast) showToast({ severity: 'success', summary: 'Success', detail: 'File uploaded successfully' });
    setTimeout(() => void invalidateApiResources(queryClient, UPLOAD_REFRESHES), REFRESH_AFTER_UPLOAD_MS);
  };
}

export interface DeleteFileHandlers {
  onDeleted(file: PortalFile): void;
  onFailed(error: unknown, file: PortalFile): void;
}

/** DELETE /api/files/{id}, then the lists and the activity feed are refetched. */
export function useDeleteFile({ onDeleted, onFailed }: DeleteFileHandlers) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: PortalFile) => {
      await apiJson('DELETE', filePath(file.id));
      return file;
    },
    onSuccess: async (file) => {
      onDeleted(file);
      await invalidateApiResources(queryClient, ['files', 'activity-logs']);
    },
    onError: (error, file) => onFailed(error, file),
  });
}
