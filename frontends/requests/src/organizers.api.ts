import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedOrganizerLink, PublicOrganizer,
  OrganizerAnswers, OrganizerDetail, OrganizerFileAnswer, OrganizerInput, OrganizerStatus, OrganizerSummary, OrganizerTemplate, OrganizerTemplateInput, OrganizerUpdate,
} from '@ledgerline/contracts/organizers.contracts.ts';
import type { RequestLink } from '@ledgerline/contracts/requests.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { readCurrentTenant, readToken } from '@ledgerline/ui/auth-storage.ts';
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

/**
 * Where an organizer's answers go: the signed-in calls (organizers/{id}/…) or a link's
 * (public/organizers/{token}/…). The answering form (organizer-answer-form.tsx) is the same
 * for both; only this differs.
 */
export interface OrganizerSource {
  /** Names the local copy of unsaved answers (organizer-draft.ts): the firm, or the link. */
  draftScope: string;
  save(answers: OrganizerAnswers): Promise<unknown>;
  /** The last answers of a page going away; false when they could not be sent. */
  saveOnLeave(answers: OrganizerAnswers): boolean;
  upload(questionId: string, file: File): Promise<OrganizerFileAnswer>;
  submit(): Promise<OrganizerDetail>;
}

export const answersPath = (id: number): string => apiPath(`organizers/${id}/answers`);
export const publicOrganizerPath = (token: string): string => `/api/public/organizers/${encodeURIComponent(token)}`;

/** A signed-in user's organizer (the client's users; staff read it). */
export const organizerSource = (id: number): OrganizerSource => ({
  draftScope: readCurrentTenant()?.shortName ?? '',
  save: (answers) => apiJson('PUT', answersPath(id), { answers }),
  saveOnLeave: (answers) => sendAnswersOnLeave(answersPath(id), answers),
  upload: (questionId, file) => uploadToOrganizer(apiPath(`organizers/${id}/files`), questionId, file),
  submit: () => apiJson<OrganizerDetail>('POST', apiPath(`organizers/${id}/submit`)),
});

/** The organizer a link opens, for someone without an account (the token is the only key). */
export const linkOrganizerSource = (token: string): OrganizerSource => ({
  // The token's firm prefix and a short piece of it: one local copy per link, no secret kept whole.
  draftScope: `link:${token.slice(0, token.indexOf('.') + 9)}`,
  save: (answers) => apiJson('PUT', `${publicOrganizerPath(token)}/answers`, { answers }),
  saveOnLeave: (answers) => sendAnswersOnLeave(`${publicOrganizerPath(token)}/answers`, answers),
  upload: (questionId, file) => uploadToOrganizer(`${publicOrganizerPath(token)}/files`, questionId, file),
  submit: () => apiJson<PublicOrganizer>('POST', `${publicOrganizerPath(token)}/submit`),
});

/** What a link opens (410 once it expired or the organizer was submitted). */
export const usePublicOrganizer = (token: string) => useQuery<PublicOrganizer>({ queryKey: [publicOrganizerPath(token)], enabled: token.length > 0 });

/**
 * The last answers of a page that is going away (a tab closing, a phone locking): `keepalive`
 * lets the request outlive the page, which an ordinary fetch or XMLHttpRequest does not.
 * Browsers cap a keepalive body at 64 KB; a bigger one is refused here and the local copy
 * (organizer-draft.ts) keeps the answers until the next visit.
 */
function sendAnswersOnLeave(path: string, answers: OrganizerAnswers): boolean {
  const body = JSON.stringify({ answers });
  if (body.length > 60_000) return false;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    void fetch(path, { method: 'PUT', headers, body, credentials: 'include', keepalive: true }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file question's upload: the organizer files it as a report of its client, whoever
 * answers (a Client user or a link's holder may not upload to the files service itself), and
 * only a file uploaded so may be named in the answer as `{ fileId, name }`. The multipart
 * body sends `questionId` first: the server reads it before the file.
 */
function uploadToOrganizer(path: string, questionId: string, file: File): Promise<OrganizerFileAnswer> {
  const form = new FormData();
  form.append('questionId', questionId);
  form.append('file', file, file.name);
  return uploadWithProgress<OrganizerFileAnswer>(path, form);
}

/** The organizer's links for people without an account (staff). */
export const useOrganizerLinks = (id: number, enabled: boolean) =>
  useQuery<RequestLink[]>({ queryKey: [apiPath(`organizers/${id}/links`)], enabled: enabled && id > 0 });

/** Making a link (its URL is shown only now) and revoking one; both refresh the organizer's list of links. */
export function useOrganizerLinkMutations(id: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [apiPath(`organizers/${id}/links`)] });
  return {
    create: useMutation({
      mutationFn: (email: string | null) => apiJson<CreatedOrganizerLink>('POST', apiPath(`organizers/${id}/links`), email ? { email } : {}),
      onSuccess: refresh,
    }),
    revoke: useMutation({ mutationFn: (linkId: number) => apiJson('DELETE', apiPath(`organizers/${id}/links/${linkId}`)), onSuccess: refresh }),
  };
}

/** Refreshes organizers and what they touch (the tracker's stage, the document request). */
export function useRefreshOrganizers(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateApiResources(queryClient, ORGANIZER_RESOURCES);
}

/** Every change refreshes organizers and what they touch. */
export function useOrganizerMutations() {
  const refresh = useRefreshOrganizers();
  return {
    create: useMutation({
      mutationFn: (input: Omit<OrganizerInput, 'reminderEveryDays'> & { reminderEveryDays?: number }) => apiJson<OrganizerDetail>('POST', apiPath('organizers'), input),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, change }: { id: number; change: OrganizerUpdate }) => apiJson<OrganizerDetail>('PATCH', apiPath(`organizers/${id}`), change),
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
