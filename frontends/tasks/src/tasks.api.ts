import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { TASK_UPCOMING_DAYS, type Task, type TaskClientStatus, type TaskPriority, type TaskStats, type TaskStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';

/** Spec 001 §7 "Tasks" as the screen calls it (tenant form when a firm is chosen). */
export interface TaskFilters {
  assignedToId?: number;
  clientId?: number;
  status?: TaskStatus;
  priority?: TaskPriority;
}

export const useTasks = (filters: TaskFilters) => useQuery<Task[]>({ queryKey: [apiQueryPath('tasks', filters)] });
export const useTaskStats = () => useQuery<TaskStats>({ queryKey: [apiPath('tasks/stats')] });
export const useOverdueTasks = () => useQuery<Task[]>({ queryKey: [apiPath('tasks/overdue')] });
export const useUpcomingTasks = () => useQuery<Task[]>({ queryKey: [apiPath(`tasks/upcoming?days=${TASK_UPCOMING_DAYS}`)] });
export const useClientStatuses = (taskId: number | null) =>
  useQuery<TaskClientStatus[]>({ queryKey: [apiPath(`tasks/${taskId}/client-statuses`)], enabled: taskId !== null });

/** §6: the assigned-to list shows staff users (every role but Client), by full name and username. */
export function useStaffUsers() {
  const users = useQuery<User[]>({ queryKey: [apiPath('users')], staleTime: 30_000 });
  return { ...users, data: users.data?.filter((u) => u.role !== 'Client') };
}
export const useTaskClients = () => useQuery<Client[]>({ queryKey: [apiPath('clients')], staleTime: 30_000 });
/** The report types the caller may use: the server answers only those (a CPA's report-access list). */
export const useTaskReportTypes = () => useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], staleTime: 30_000 });

/** The task payload of §7; recurring fields only when the checkbox is on (§5). */
export interface TaskPayload {
  title: string;
  description: string | null;
  priority: TaskPriority;
  status: TaskStatus;
  dueDate: string | null;
  assignedToId: number;
  clientIds: number[];
  /** null: no report type. */
  reportTypeId: number | null;
  isRecurring: boolean;
  recurringPattern?: string;
  recurringEndDate?: string | null;
}

/** After task changes the task list and its stats are refreshed (§4). */
export function useTaskMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['tasks']);
  return {
    save: useMutation({
      mutationFn: ({ id, payload }: { id: number | null; payload: TaskPayload }) =>
        id === null ? apiJson<Task>('POST', apiPath('tasks'), payload) : apiJson<Task>('PATCH', apiPath(`tasks/${id}`), payload),
      onSuccess: refresh,
    }),
    setStatus: useMutation({
      mutationFn: ({ id, status }: { id: number; status: TaskStatus }) =>
        apiJson<Task>('PATCH', apiPath(`tasks/${id}/status`), { status, completedAt: status === 'completed' ? new Date().toISOString() : null }),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: number) => apiJson('DELETE', apiPath(`tasks/${id}`)), onSuccess: refresh }),
    setClientStatus: useMutation({
      mutationFn: ({ taskId, clientId, status, comments }: { taskId: number; clientId: number; status: TaskStatus; comments: string }) =>
        apiJson<TaskClientStatus>('PATCH', apiPath(`tasks/${taskId}/client-status/${clientId}`), { status, comments }),
      onSuccess: refresh,
    }),
  };
}
