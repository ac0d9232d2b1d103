import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { TASK_MESSAGES } from '@ledgerline/contracts/tasks.contracts.ts';

/**
 * Who reaches which tasks (docs/api/authorization.md, tasks rows). Admin, DTA and platform
 * administrators: every task of the firm and every client status. CPA and custom roles: the
 * tasks assigned to them, and those touching a client in their list whose report type (a
 * task's own, if it has one) is in their report-type list; the statuses of their clients
 * only. Client users: no task API at all.
 */
export interface TaskReach {
  userId: number;
  clients: 'all' | readonly number[];
  reportTypes: 'all' | readonly number[];
}

export function taskReach(t: TenantRequest, userId: number): TaskReach {
  if (t.scope.isClient) throw new Forbidden(TASK_MESSAGES.clientsDenied);
  return { userId, clients: t.scope.clients, reportTypes: t.scope.reportTypes };
}

/** The tasks within reach, as a SQL condition on `tasks` (alias-free). */
export function reachableTasks(r: TaskReach, p: SqlParams): string {
  if (r.clients === 'all' && r.reportTypes === 'all') return 'true';
  const own = `assigned_to_id = ${p.add(r.userId)}`;
  const parts: string[] = [];
  if (r.clients !== 'all') parts.push(`client_ids && ${p.add(r.clients)}::int[]`);
  if (r.reportTypes !== 'all') parts.push(`(report_type_id IS NULL OR report_type_id = ANY(${p.add(r.reportTypes)}::int[]))`);
  return r.clients === 'all' || r.clients.length ? `(${own} OR (${parts.join(' AND ')}))` : own;
}

export const canReachClient = (r: TaskReach, clientId: number): boolean => r.clients === 'all' || r.clients.includes(clientId);
