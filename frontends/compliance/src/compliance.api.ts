import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkGenerationResult, ComplianceItem, CompliancePreset, ComplianceSchedule, GenerationResult, PresetApplyResult, TrackerStatus,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';

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

export function useTracker(filters: TrackerFilters) {
  const r = useQuery<ComplianceItem[]>({ queryKey: [withQuery('compliance-tracker', { clientId: filters.clientId, status: filters.status })] });
  return { ...r, data: asList(r.data) };
}
export function useTrackerRange(range: { startDate: string; endDate: string }, clientId: number | undefined) {
  const r = useQuery<ComplianceItem[]>({ queryKey: [withQuery('compliance-tracker', { ...range, clientId })] });
  return { ...r, data: asList(r.data) };
}
export function useOverdue(clientId: number | undefined) {
  const r = useQuery<ComplianceItem[]>({ queryKey: [withQuery('compliance-tracker/overdue', { clientId })] });
  return { ...r, data: asList(r.data) };
}
export function useUpcoming(clientId: number | undefined) {
  const r = useQuery<ComplianceItem[]>({ queryKey: [withQuery('compliance-tracker/upcoming', { clientId })] });
  return { ...r, data: asList(r.data) };
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
}
export interface TrackerPayload {
  status: TrackerStatus;
  extensionDate: string | null;
  remarks: string;
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
    generate: useMutation({
      mutationFn: ({ scheduleId, year }: { scheduleId: number; year: number }) =>
        apiJson<GenerationResult>('POST', apiPath(`compliance-schedules/${scheduleId}/generate/${year}`)),
      onSuccess: refresh(['compliance-tracker']),
    }),
    generateAll: useMutation({
      mutationFn: ({ year, clientId }: { year: number; clientId: number | undefined }) =>
        apiJson<BulkGenerationResult>('POST', withQuery(`compliance-schedules/generate/${year}`, { clientId })),
      onSuccess: refresh(['compliance-tracker']),
    }),
    updateItem: useMutation({
      mutationFn: ({ id, payload }: { id: number; payload: TrackerPayload }) => apiJson<ComplianceItem>('PUT', apiPath(`compliance-tracker/${id}`), payload),
      onSuccess: refresh(['compliance-tracker']),
    }),
    applyPreset: useMutation({
      mutationFn: ({ presetId, clientIds }: { presetId: string; clientIds: number[] }) =>
        apiJson<PresetApplyResult>('POST', apiPath(`compliance-presets/${presetId}/apply`), { clientIds }),
      onSuccess: refresh(['compliance-schedules', 'report-types']),
    }),
  };
}
