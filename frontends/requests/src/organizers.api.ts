import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  OrganizerAnswers, OrganizerDetail, OrganizerFileAnswer, OrganizerInput, OrganizerStatus, OrganizerSummary, OrganizerTemplate, OrganizerTemplateInput, OrganizerUpdate,
} from '@ledgerline/contracts/organizers.contracts.ts';
import type { UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { readToken } from '@ledgerline/ui/auth-storage.ts';
import { uploadWithProgress } from '@ledgerline/ui/upload-request.ts';

/*
 * The organizer calls (issue 42), served by the requests service. Organizers are part of the
 * "what we need from you" family with document requests, so they live in this app.
 */

/** The list's filters, as GET organizers takes them. */
export interface OrganizerFilters {
  clientId?: number;
  year?: number;
  status?: OrganizerStatus;
}

const ORGANIZER_RESOURCES = ['organizers', 'compliance-tracker', 'document-requests'];

export const useOrganizers = (filters: OrganizerFilters) => useQuery<OrganizerSummary[]>({ queryKey: [apiQueryPath('organizers', filters)] });
export const useOrganizer = (id: number) => useQuery<OrganizerDetail>({ queryKey: [apiPath(`organizers/${id}`)], enabled: id > 0 });
export const useOrganizerTemplates = (enabled = true) =>
  useQuery<OrganizerTemplate[]>({ queryKey: [apiPath('organizer-templates')], enabled, staleTime: 30_000 });

export const answersPath = (id: number): string => apiPath(`organizers/${id}/answers`);

/** PUT answers; the page's saver calls it (debounced), not a mutation: it keeps its own state. */
export const saveAnswers = (id: number, answers: OrganizerAnswers): Promise<unknown> => apiJson('PUT', answersPath(id), { answers });

/**
 * The last answers of a page that is going away (a tab closing, a phone locking): `keepalive`
 * lets the request outlive the page, which an ordinary fetch or XMLHttpRequest does not.
 * Browsers cap a keepalive body at 64 KB; a bigger one is refused here and the local copy
 * (organizer-draft.ts) keeps the answers until the next visit.
 */
export function sendAnswersOnLeave(id: number, answers: OrganizerAnswers): boolean {
  const body = JSON.stringify({ answers });
  if (body.length > 60_000) return false;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    void fetch(answersPath(id), { method: 'PUT', headers, body, credentials: 'include', keepalive: true }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file question's upload: a file of the organizer's client through the files service's
 * upload (POST files), kept as `{ fileId, name }` in the answer.
 */
export async function uploadOrganizerFile(clientId: number, file: File): Promise<OrganizerFileAnswer> {
  const form = new FormData();
  form.append('fileType', 'company_document');
  form.append('clientId', String(clientId));
  form.append('file', file, file.name);
  const result = await uploadWithProgress<UploadResult>(apiPath('files'), form);
  const stored = result.files[0];
  if (!stored) throw new Error(`${file.name} could not be uploaded`);
  return { fileId: stored.id, name: file.name };
}

/** Every change refreshes organizers and what they touch (the tracker's stage, the document request). */
export function useOrganizerMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ORGANIZER_RESOURCES);
  return {
    create: useMutation({
      mutationFn: (input: Omit<OrganizerInput, 'reminderEveryDays'> & { reminderEveryDays?: number }) => apiJson<OrganizerDetail>('POST', apiPath('organizers'), input),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, change }: { id: number; change: OrganizerUpdate }) => apiJson<OrganizerDetail>('PATCH', apiPath(`organizers/${id}`), change),
      onSuccess: refresh,
    }),
    submit: useMutation({
      mutationFn: (id: number) => apiJson<OrganizerDetail>('POST', apiPath(`organizers/${id}/submit`)),
      onSuccess: refresh,
    }),
    reopen: useMutation({
      mutationFn: (id: number) => apiJson<OrganizerDetail>('POST', apiPath(`organizers/${id}/reopen`)),
      onSuccess: refresh,
    }),
  };
}

/** Creating, replacing and deleting templates (Admin, DTA); shipped ones are copied, never changed. */
export function useOrganizerTemplateMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['organizer-templates']);
  return {
    save: useMutation({
      mutationFn: ({ id, template }: { id: number | null; template: OrganizerTemplateInput }) =>
        apiJson<OrganizerTemplate>(id === null ? 'POST' : 'PUT', apiPath(id === null ? 'organizer-templates' : `organizer-templates/${id}`), template),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiJson('DELETE', apiPath(`organizer-templates/${id}`)),
      onSuccess: refresh,
    }),
  };
}
