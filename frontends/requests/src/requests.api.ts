import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import type {
  CreatedRequestLink, DocumentRequest, DocumentRequestSummary, RequestItemInput, RequestLink, RequestStatus, RequestTemplate,
} from '@ledgerline/contracts/requests.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { uploadWithProgress } from '@ledgerline/ui/upload-request.ts';

/** The list's filters, as GET document-requests takes them. */
export interface RequestFilters {
  clientId?: number;
  status?: RequestStatus;
  overdue?: boolean;
}

export const useRequests = (filters: RequestFilters) =>
  useQuery<DocumentRequestSummary[]>({ queryKey: [apiQueryPath('document-requests', { ...filters, overdue: filters.overdue ? 'true' : undefined })] });
export const useRequest = (id: number) => useQuery<DocumentRequest>({ queryKey: [apiPath(`document-requests/${id}`)], enabled: id > 0 });
export const useRequestLinks = (id: number, enabled: boolean) =>
  useQuery<RequestLink[]>({ queryKey: [apiPath(`document-requests/${id}/links`)], enabled: enabled && id > 0 });
export const useTemplates = (enabled: boolean) => useQuery<RequestTemplate[]>({ queryKey: [apiPath('request-templates')], enabled, staleTime: 30_000 });
export const useRequestClients = (enabled: boolean) => useQuery<Client[]>({ queryKey: [apiPath('clients')], enabled, staleTime: 30_000 });

/** Reviewers: the firm's staff (the server refuses a Client user as reviewer). */
export function useReviewers(enabled: boolean) {
  const users = useQuery<User[]>({ queryKey: [apiPath('users')], enabled, staleTime: 30_000 });
  return { ...users, data: users.data?.filter((u) => !isClientRole(u.role)) };
}

/** POST document-requests as the create dialog sends it (items edited from a template, never templateId). */
export interface NewRequest {
  clientId: number;
  title: string;
  message: string | null;
  dueDate: string;
  reminderEveryDays: number;
  assignedToId: number | null;
  reportTypeId: number | null;
  items: RequestItemInput[];
}

export type ItemDecision = { status: 'accepted' | 'rejected' | 'not_applicable'; comment: string | null };

/** Every change refreshes the list and the open request (both read document-requests). */
export function useRequestMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['document-requests']);
  return {
    create: useMutation({
      // "Send now" is its own call after the request exists, so a failed send never loses the request.
      mutationFn: async ({ request, sendNow }: { request: NewRequest; sendNow: boolean }) => {
        const created = await apiJson<DocumentRequest>('POST', apiPath('document-requests'), request);
        if (sendNow) await apiJson('POST', apiPath(`document-requests/${created.id}/send`));
        return created;
      },
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, change }: { id: number; change: { status: 'open' | 'cancelled' } }) =>
        apiJson<DocumentRequest>('PATCH', apiPath(`document-requests/${id}`), change),
      onSuccess: refresh,
    }),
    send: useMutation({
      mutationFn: (id: number) => apiJson<{ message: string }>('POST', apiPath(`document-requests/${id}/send`)),
      onSuccess: refresh,
    }),
    decide: useMutation({
      mutationFn: ({ id, itemId, decision }: { id: number; itemId: number; decision: ItemDecision }) =>
        apiJson<DocumentRequest>('PATCH', apiPath(`document-requests/${id}/items/${itemId}`), decision),
      onSuccess: refresh,
    }),
    createLink: useMutation({
      mutationFn: ({ id, ...body }: { id: number; email: string | null; expiresInDays?: number }) =>
        apiJson<CreatedRequestLink>('POST', apiPath(`document-requests/${id}/links`), body),
      onSuccess: refresh,
    }),
    addItem: useMutation({
      mutationFn: ({ id, item }: { id: number; item: RequestItemInput }) => apiJson<DocumentRequest>('POST', apiPath(`document-requests/${id}/items`), item),
      onSuccess: refresh,
    }),
    revokeLink: useMutation({
      mutationFn: ({ id, linkId }: { id: number; linkId: number }) => apiJson('DELETE', apiPath(`document-requests/${id}/links/${linkId}`)),
      onSuccess: refresh,
    }),
  };
}

/** Uploads one file for an item, reporting progress; the caller refreshes when it settles. */
export function uploadItemFile(requestId: number, itemId: number, file: File, onProgress: (percent: number) => void): Promise<DocumentRequest> {
  const form = new FormData();
  form.append('file', file);
  return uploadWithProgress<DocumentRequest>(apiPath(`document-requests/${requestId}/items/${itemId}/files`), form, { onProgress });
}

/** What a template's form sends (POST and PUT request-templates). */
export interface TemplateInput {
  name: string;
  reportTypeId: number | null;
  items: { title: string; description: string | null; required: boolean }[];
}

/** Creating, replacing and deleting templates (Admin, DTA); each refreshes the list the create dialog reads too. */
export function useTemplateMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['request-templates']);
  return {
    save: useMutation({
      mutationFn: ({ id, template }: { id: number | null; template: TemplateInput }) =>
        apiJson<RequestTemplate>(id === null ? 'POST' : 'PUT', apiPath(id === null ? 'request-templates' : `request-templates/${id}`), template),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiJson('DELETE', apiPath(`request-templates/${id}`)),
      onSuccess: refresh,
    }),
  };
}

export const useReportTypes = (enabled: boolean) => useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], enabled, staleTime: 30_000 });
