import { keepPreviousData, useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import {
  COMPLIANCE_ITEMS_PER_DAY, type BulkGenerationResult, type CalendarDayCounts, type ComplianceItem, type CompliancePreset, type ComplianceSchedule, type EarlierPeriods, type GenerationResult, type PeriodChoice, type PresetApplyResult, type ScheduleDeletion, type TrackerStatus,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import type { DocumentRequestPush } from '@ledgerline/contracts/requests.contracts.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources, readsApiResource } from '@ledgerline/ui/api-invalidation.ts';
import { fetchList, fetchListPage, type ListPage } from '@ledgerline/ui/list-page.ts';
import { useRealtimeEvents } from '@ledgerline/ui/realtime-connection.ts';
import type { Pipeline } from '@ledgerline/contracts/stages.contracts.ts';
import { STAGE_PUSH } from '@ledgerline/contracts/stages.constants.ts';
import { forgetDocumentRequestPushes, rememberDocumentRequestPush, withPushedDocumentRequest } from './pushed-document-requests.ts';

/** Spec 001 §7 "Compliance" as the screen calls it (tenant form when a firm is chosen). */
const withQuery = (path: string, params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const query = q.toString();
  return apiPath(`${path}${query ? `?${query}` : ''}`);
};
/** §8: compliance list fetches treat a reply that is not a list as empty. */
const asList = <T>(data: T[] | undefined): T[] => (Array.isArray(data) ? data : []);

export interface TrackerFilters {
  clientId?: number;
  status?: TrackerStatus;
}

/** The tracker table pages on the server: a firm's tracker runs to tens of thousands of items. */
export const TRACKER_PAGE_ROWS = 25;

/** A page of tracker items, each with the newest of its read and pushed document request. */
async function fetchItemPage(url: string, signal: AbortSignal): Promise<ListPage<ComplianceItem>> {
  const page = await fetchListPage<ComplianceItem>(url, signal);
  return { ...page, rows: page.rows.map(withPushedDocumentRequest) };
}

/** A page of a tracker list and how many items match in all (X-Total-Count). */
function useItemPage(url: string) {
  const r = useQuery<ListPage<ComplianceItem>>({ queryKey: [url], queryFn: ({ signal }) => fetchItemPage(url, signal), placeholderData: keepPreviousData });
  return { items: r.data?.rows ?? [], total: r.data?.total ?? 0 };
}

/** The tracker table's page starting at row `first`. */
export function useTracker(filters: TrackerFilters, first: number) {
  return useItemPage(withQuery('compliance-tracker', { clientId: filters.clientId, status: filters.status, limit: TRACKER_PAGE_ROWS, offset: first }));
}
/** A calendar range's items (at most three a day, §9) and every day's counts (X-Day-Counts). */
export interface CalendarItems {
  items: ComplianceItem[];
  days: CalendarDayCounts;
}

async function fetchCalendarItems(url: string, signal: AbortSignal): Promise<CalendarItems> {
  const { rows, headers } = await fetchList<ComplianceItem>(url, signal);
  let days: CalendarDayCounts = {};
  try {
    days = JSON.parse(headers.get('X-Day-Counts') ?? '{}') as CalendarDayCounts;
  } catch {
    // A proxy that mangles the header leaves the calendar with the items it received.
  }
  return { items: rows, days };
}

/**
 * The calendar asks only for what it shows: a firm's month can hold thousands of items, of
 * which each day shows three and '+N more'.
 */
export function useTrackerRange(range: { startDate: string; endDate: string }, filters: TrackerFilters) {
  const url = withQuery('compliance-tracker', { ...range, clientId: filters.clientId, status: filters.status, perDay: COMPLIANCE_ITEMS_PER_DAY });
  const r = useQuery<CalendarItems>({ queryKey: [url], queryFn: ({ signal }) => fetchCalendarItems(url, signal), placeholderData: keepPreviousData });
  return r.data ?? { items: [], days: {} };
}
/** The overdue panel's three items (§9) and the count its card and '+N more' show. */
export function useOverdue(clientId: number | undefined) {
  return useItemPage(withQuery('compliance-tracker/overdue', { clientId, limit: COMPLIANCE_ITEMS_PER_DAY }));
}
/** The upcoming panel's three items and their count. */
export function useUpcoming(clientId: number | undefined) {
  return useItemPage(withQuery('compliance-tracker/upcoming', { clientId, limit: COMPLIANCE_ITEMS_PER_DAY }));
}
/** The list behind a '+N more': a day's or a month's items, or the overdue or upcoming ones. */
export type ItemListSource = 'overdue' | 'upcoming' | { day: string } | { from: string; to: string };
/** At most this many in a '+N more' list (the tracker tab pages through the rest). */
const ITEM_LIST_LIMIT = 200;
export function useItemList(source: ItemListSource | null, filters: TrackerFilters): ComplianceItem[] {
  const url = source === null ? null
    : source === 'overdue' || source === 'upcoming' ? withQuery(`compliance-tracker/${source}`, { clientId: filters.clientId, limit: ITEM_LIST_LIMIT })
      : withQuery('compliance-tracker', {
        startDate: 'day' in source ? source.day : source.from, endDate: 'day' in source ? source.day : source.to, clientId: filters.clientId, status: filters.status, limit: ITEM_LIST_LIMIT,
      });
  const r = useQuery<ListPage<ComplianceItem>>({ queryKey: [url], queryFn: ({ signal }) => fetchItemPage(url!, signal), enabled: url !== null });
  return r.data?.rows ?? [];
}

/** Staff only: Client users are refused schedules by the server, so they never ask. */
export function useSchedules(clientId: number | undefined, enabled: boolean) {
  const r = useQuery<ComplianceSchedule[]>({ queryKey: [withQuery('compliance-schedules', { clientId })], enabled });
  return { ...r, data: asList(r.data) };
}
export function usePresets(enabled: boolean) {
  const r = useQuery<CompliancePreset[]>({ queryKey: [apiPath('compliance-presets')], enabled, staleTime: 5 * 60_000 });
  return { ...r, data: asList(r.data) };
}
export function useClients() {
  const r = useQuery<Client[]>({ queryKey: [apiPath('clients')], staleTime: 30_000 });
  return { ...r, data: asList(r.data) };
}
/** The firm's users, for assigning items and granting report types (staff only). */
export function useUsers(enabled: boolean) {
  const r = useQuery<User[]>({ queryKey: [apiPath('users')], staleTime: 30_000, enabled });
  return { ...r, data: asList(r.data) };
}
export function useReportTypes(enabled: boolean) {
  const r = useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], staleTime: 30_000, enabled });
  return { ...r, data: asList(r.data) };
}

export interface SchedulePayload {
  clientId: number;
  reportTypeId: number;
  frequency: ComplianceSchedule['frequency'];
  dueDayOfMonth: number;
  dueMonths: string[];
  reminderDays: number;
  notes: string;
  covers: PeriodChoice;
  isActive?: boolean;
}
export interface TrackerPayload {
  status?: TrackerStatus;
  /** A past instant or date; null clears it. */
  filedDate?: string | null;
  extensionDate?: string | null;
  remarks?: string;
  assignedToId?: number | null;
}

/** §4: generating refreshes the tracker, overdue and upcoming lists; every change refreshes what it touches. */
export function useComplianceMutations() {
  const queryClient = useQueryClient();
  const refresh = (resources: string[]) => () => invalidateApiResources(queryClient, resources);
  return {
    createSchedule: useMutation({
      mutationFn: (payload: SchedulePayload) => apiJson<ComplianceSchedule>('POST', apiPath('compliance-schedules'), payload),
      onSuccess: refresh(['compliance-schedules']),
    }),
    updateSchedule: useMutation({
      mutationFn: ({ id, payload }: { id: number; payload: SchedulePayload }) => apiJson<ComplianceSchedule>('PUT', apiPath(`compliance-schedules/${id}`), payload),
      onSuccess: refresh(['compliance-schedules']),
    }),
    deleteSchedule: useMutation({
      mutationFn: ({ id, deleteItems }: { id: number; deleteItems: 'pending' | 'none' }) =>
        apiJson<ScheduleDeletion>('DELETE', withQuery(`compliance-schedules/${id}`, { deleteItems })),
      onSuccess: refresh(['compliance-schedules', 'compliance-tracker']),
    }),
    generate: useMutation({
      mutationFn: ({ scheduleId, year, from, earlier }: { scheduleId: number; year: number; from?: string; earlier?: EarlierPeriods }) =>
        apiJson<GenerationResult>('POST', withQuery(`compliance-schedules/${scheduleId}/generate/${year}`, { from, earlier })),
      onSuccess: refresh(['compliance-tracker']),
    }),
    generateAll: useMutation({
      mutationFn: ({ year, clientId, from, earlier }: { year: number; clientId: number | undefined; from?: string; earlier?: EarlierPeriods }) =>
        apiJson<BulkGenerationResult>('POST', withQuery(`compliance-schedules/generate/${year}`, { clientId, from, earlier })),
      onSuccess: refresh(['compliance-tracker']),
    }),
    updateItem: useMutation({
      mutationFn: ({ id, payload }: { id: number; payload: TrackerPayload }) => apiJson<ComplianceItem>('PUT', apiPath(`compliance-tracker/${id}`), payload),
      onSuccess: refresh(['compliance-tracker']),
    }),
    /**
     * Issue 39: extends an item to the date given, or without one to its entry's extended due date
     * (1040 → 15 Oct, 1120-S → 15 Sep, … on a business day); the calendar moves it there.
     */
    extendItem: useMutation({
      mutationFn: ({ id, extendedDueDate }: { id: number; extendedDueDate?: string }) =>
        apiJson<ComplianceItem>('POST', apiPath(`compliance-tracker/${id}/extend`), extendedDueDate ? { extendedDueDate } : {}),
      onSuccess: refresh(['compliance-tracker']),
    }),
    // The request belongs to the requests service; the tracker shows it once its event arrives.
    requestDocuments: useMutation({
      mutationFn: (itemId: number) => apiJson<{ id: number }>('POST', apiPath(`compliance-tracker/${itemId}/document-request`), {}),
      onSuccess: refresh(['compliance-tracker', 'document-requests']),
    }),
    // Issue 42: the organizer is made by the requests service; the tracker's stage follows it.
    sendOrganizer: useMutation({
      mutationFn: (itemId: number) => apiJson<{ id: number }>('POST', apiPath(`compliance-tracker/${itemId}/organizer`), { sendNow: true }),
      onSuccess: refresh(['compliance-tracker', 'organizers']),
    }),
    applyPreset: useMutation({
      mutationFn: ({ presetId, ...body }: { presetId: string; clientIds: number[]; entryIds: Record<string, string[]>; grantToUserIds: number[]; from?: string }) =>
        apiJson<PresetApplyResult>('POST', apiPath(`compliance-presets/${presetId}/apply`), body),
      // With `from` it also makes the items (issue 39's onboarding).
      onSuccess: refresh(['compliance-schedules', 'compliance-tracker', 'report-types', 'users']),
    }),
  };
}

/**
 * A tracker item's document request changes while the page is open (the requests service's
 * push): the cached tracker pages (tracker, overdue, upcoming) show its progress at once, and
 * a later read that is older than a push keeps the push's state (pushed-document-requests.ts);
 * a cancelled one leaves the item (an older request it may uncover shows on the next read).
 * The calendar's ranges catch up on their next read.
 */
export function useDocumentRequestPushes(): void {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => ({
    // Pushes made before the socket (re)connected never arrive: read the items again.
    connect: () => { void invalidateApiResources(queryClient, ['compliance-tracker']); },
    [DOCUMENT_REQUEST_PUSH]: (push: DocumentRequestPush) => {
      if (!rememberDocumentRequestPush(push)) return;
      const trackerPage = (q: Query) => readsApiResource(q.queryKey, ['compliance-tracker']) && Array.isArray((q.state.data as Partial<ListPage<ComplianceItem>> | undefined)?.rows);
      queryClient.setQueriesData<ListPage<ComplianceItem>>({ predicate: trackerPage }, (page) => page && { ...page, rows: page.rows.map(withPushedDocumentRequest) });
    },
  }), [queryClient]);
  useEffect(() => forgetDocumentRequestPushes, []);
  useRealtimeEvents(true, handlers);
}

/** The firm's pipelines of the report types the caller reaches (staff only). */
export function usePipelines(enabled: boolean) {
  const r = useQuery<Pipeline[]>({ queryKey: [apiPath('compliance-pipelines')], enabled, staleTime: 60_000 });
  return { ...r, data: asList(r.data) };
}

export interface BoardFilters {
  clientId?: number;
  reportTypeId?: number;
  /** 0: unassigned. */
  assignedToId?: number;
  startDate?: string;
  endDate?: string;
}
/** At most this many items on the Board at once (its filters narrow it further). */
export const BOARD_LIMIT = 500;
/** A report type's items for the Board, and how many match in all. */
export function useBoardItems(filters: BoardFilters, enabled: boolean) {
  const url = withQuery('compliance-tracker', { ...filters, limit: BOARD_LIMIT });
  const r = useQuery<ListPage<ComplianceItem>>({ queryKey: [url], queryFn: ({ signal }) => fetchItemPage(url, signal), enabled, placeholderData: keepPreviousData });
  return { items: r.data?.rows ?? [], total: r.data?.total ?? 0, loading: r.isPending && enabled };
}

/** PATCH an item's stage (issue 42); every tracker read follows. */
export function useMoveStage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stage }: { id: number; stage: string }) => apiJson<ComplianceItem>('PATCH', apiPath(`compliance-tracker/${id}`), { stage }),
    onSuccess: () => invalidateApiResources(queryClient, ['compliance-tracker']),
  });
}

/** A move made elsewhere (another person, an automatic move) is pushed: the tracker's reads are read again. */
export function useStagePushes(): void {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => ({ [STAGE_PUSH]: () => { void invalidateApiResources(queryClient, ['compliance-tracker']); } }), [queryClient]);
  useRealtimeEvents(true, handlers);
}
