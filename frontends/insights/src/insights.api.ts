import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { type AnalysisResult, type ComplianceInsight, type FirmAnalysisResult, type InsightBulkResult, type InsightPriority, type InsightRuleSettings, type InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { ApiError, apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';

/** Spec 001 §7 "Insights" as the screen calls it (tenant form when a firm is chosen). */
export interface InsightFilters {
  clientId?: number;
  status?: InsightStatus;
  priority?: InsightPriority;
}

/** What "Create task" sends (POST /api/tasks; no due date: the person sets it on the task). */
export interface TaskInputBody {
  title: string;
  description: string;
  priority: 'high' | 'medium' | 'low';
  clientIds: number[];
  reportTypeId: number | null;
}

export const useInsights = (filters: InsightFilters) => useQuery<ComplianceInsight[]>({ queryKey: [apiQueryPath('compliance-insights', filters)] });
export const useInsightClients = () => useQuery<Client[]>({ queryKey: [apiPath('clients')], staleTime: 30_000 });
export const useInsightReportTypes = (enabled: boolean) => useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], staleTime: 30_000, enabled });

const rulesPath = () => apiPath('compliance-insights/rules');
export const useRuleSettings = (enabled: boolean) => useQuery<InsightRuleSettings>({ queryKey: [rulesPath()], enabled });
export function useSaveRuleSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: InsightRuleSettings) => apiJson<InsightRuleSettings>('PUT', rulesPath(), settings),
    onSuccess: (saved) => queryClient.setQueryData([rulesPath()], saved),
  });
}

export function useInsightMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['compliance-insights']);
  return {
    // §4: each update sends the current user as reviewer (the server records the caller whatever is sent).
    update: useMutation({
      mutationFn: ({ id, status, reviewedById }: { id: number; status: InsightStatus; reviewedById: number }) =>
        apiJson<ComplianceInsight>('PUT', apiPath(`compliance-insights/${id}`), { status, reviewedById }),
      onSuccess: refresh,
    }),
    bulk: useMutation({
      mutationFn: ({ ids, status }: { ids: number[]; status: InsightStatus }) => apiJson<InsightBulkResult>('POST', apiPath('compliance-insights/bulk-status'), { ids, status }),
      onSuccess: refresh,
    }),
    undo: useMutation({
      mutationFn: (ids: number[]) => apiJson<InsightBulkResult>('POST', apiPath('compliance-insights/undo-dismissal'), { ids }),
      onSuccess: refresh,
    }),
    /**
     * Mark filed: the card is marked acted upon by the caller, then its tracker item filed. In
     * that order: filing retires the card's match at once (insights follows the tracker), so a
     * card moved after it would already be closed. One someone else closed meanwhile is still filed.
     */
    markFiled: useMutation({
      mutationFn: async ({ insightId, reviewedById, trackerItemId, filedDate }: { insightId: number; reviewedById: number; trackerItemId: number; filedDate: string }) => {
        await apiJson<ComplianceInsight>('PUT', apiPath(`compliance-insights/${insightId}`), { status: 'acted_upon', reviewedById }).catch((err: unknown) => {
          if (!(err instanceof ApiError && err.status === 409)) throw err;
        });
        return apiJson<ComplianceItem>('PUT', apiPath(`compliance-tracker/${trackerItemId}`), { status: 'filed', filedDate });
      },
      onSettled: () => invalidateApiResources(queryClient, ['compliance-insights', 'compliance-tracker']),
    }),
    createTask: useMutation({
      mutationFn: (task: TaskInputBody) => apiJson<Task>('POST', apiPath('tasks'), task),
      onSuccess: () => invalidateApiResources(queryClient, ['tasks']),
    }),
    /** A document request for one tracker item (the requests service makes it from the item's client, type and period). */
    requestDocuments: useMutation({
      mutationFn: (trackerItemId: number) => apiJson<{ id: number }>('POST', apiPath(`compliance-tracker/${trackerItemId}/document-request`), {}),
    }),
    analyzeAll: useMutation({
      mutationFn: () => apiJson<FirmAnalysisResult>('POST', apiPath('compliance-insights/analyze-all')),
      onSuccess: refresh,
    }),
    analyze: useMutation({
      // The spec's path (§7), in the tenant form like every call; it still needs an Admin's token.
      mutationFn: (clientId: number) => apiJson<AnalysisResult>('POST', apiPath(`public/clients/${clientId}/analyze-compliance`)),
      onSuccess: refresh,
    }),
  };
}
