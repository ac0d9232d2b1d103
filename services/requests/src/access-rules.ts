import { canReadClient, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { REQUEST_MESSAGES, type DocumentRequest, type DocumentRequestChanged, type ItemStatus } from '@ledgerline/contracts/requests.contracts.ts';

/**
 * Who reaches which document requests and items (docs/api/authorization.md). Admin and DTA:
 * all of the firm's. CPA and custom roles: requests of a client in their list, and of those
 * only the items whose report type (if it has one) is in their report-type list; a request
 * with a report type of its own needs that one in their list too, and one without needs at
 * least one item they reach (its title says what it is about). Items outside their list are
 * not shown, not counted in the progress they see, and cannot be decided or uploaded to (404).
 * Client users: their own client's, every item, to read, upload and mark items not
 * applicable only. Templates: Admin and DTA manage them; staff read them.
 */
export const canManageTemplates = (scope: AccessScope): boolean => !scope.isClient && scope.clients === 'all';

export function requireStaff(scope: AccessScope): void {
  if (scope.isClient) throw new Forbidden(REQUEST_MESSAGES.clientsCannotManage);
}

export function requireTemplateManager(scope: AccessScope): void {
  if (!canManageTemplates(scope)) throw new Forbidden(REQUEST_MESSAGES.templatesDenied);
}

/** The report types that limit the caller's items, or 'all' (Admin, DTA, Client users). */
export const itemReportTypes = (scope: AccessScope): 'all' | readonly number[] => (scope.isClient ? 'all' : scope.reportTypes);

/** Whether a caller limited to `reportTypes` reaches an item of this report type. */
export const reachesItemOf = (reportTypes: 'all' | readonly number[], itemReportTypeId: number | null): boolean =>
  reportTypes === 'all' || itemReportTypeId === null || reportTypes.includes(itemReportTypeId);

export const reachesItem = (scope: AccessScope, item: { reportTypeId: number | null }): boolean =>
  reachesItemOf(itemReportTypes(scope), item.reportTypeId);

/** The request-level part of the rule, given its items' report types (no client check). */
export function reachesRequestOf(reportTypes: 'all' | readonly number[], r: { reportTypeId: number | null; items: readonly { reportTypeId: number | null }[] }): boolean {
  if (reportTypes === 'all') return true;
  if (r.reportTypeId !== null) return reportTypes.includes(r.reportTypeId);
  return r.items.length === 0 || r.items.some((i) => reachesItemOf(reportTypes, i.reportTypeId));
}

export const reachesRequest = (scope: AccessScope, r: { clientId: number; reportTypeId: number | null; items: readonly { reportTypeId: number | null }[] }): boolean =>
  canReadClient(scope, r.clientId) && reachesRequestOf(itemReportTypes(scope), r);

/** The item rule as a SQL condition on `document_request_items` aliased `alias`, or null when every item is reached. */
export function reachableItems(scope: AccessScope, p: SqlParams, alias = 'i'): string | null {
  const types = itemReportTypes(scope);
  if (types === 'all') return null;
  return `(${alias}.report_type_id IS NULL OR ${alias}.report_type_id = ANY(${p.add([...types])}::int[]))`;
}

/** The request rule as a SQL condition on `document_requests` aliased `r`. */
export function reachableRequests(scope: AccessScope, p: SqlParams): string {
  const conditions: string[] = [];
  if (scope.clients !== 'all') conditions.push(`r.client_id = ANY(${p.add([...scope.clients])}::int[])`);
  const items = reachableItems(scope, p, 'ri');
  if (items && scope.reportTypes !== 'all') {
    conditions.push(`(r.report_type_id = ANY(${p.add([...scope.reportTypes])}::int[]) OR (r.report_type_id IS NULL AND (
      EXISTS (SELECT 1 FROM document_request_items ri WHERE ri.request_id = r.id AND ${items})
      OR NOT EXISTS (SELECT 1 FROM document_request_items ri WHERE ri.request_id = r.id))))`);
  }
  return conditions.length ? conditions.join(' AND ') : 'true';
}

/** Missing and out of reach answer alike (404): existence is not revealed. */
export function assertReach(scope: AccessScope, r: { clientId: number; reportTypeId: number | null; items: readonly { reportTypeId: number | null }[] }): void {
  if (!reachesRequest(scope, r)) throw new NotFound(REQUEST_MESSAGES.requestNotFound);
}

/** Progress as the list keeps it, over the given items: required ones, those of them done, and uploads waiting for review. */
export function progressOf(items: readonly { required: boolean; status: ItemStatus }[]): DocumentRequest['progress'] {
  return {
    required: items.filter((i) => i.required).length,
    done: items.filter((i) => i.required && (i.status === 'accepted' || i.status === 'not_applicable')).length,
    uploaded: items.filter((i) => i.status === 'uploaded').length,
  };
}

/** A request as the caller sees it: only the items they reach, and the progress of those. */
export function requestSeenBy(scope: AccessScope, r: DocumentRequest): DocumentRequest {
  if (itemReportTypes(scope) === 'all') return r;
  const items = r.items.filter((i) => reachesItem(scope, i));
  return items.length === r.items.length ? r : { ...r, items, progress: progressOf(items) };
}

/**
 * What a user limited to `reportTypes` may be told of a request's change (pushes): nothing
 * (null) when they do not reach the request or the item it names, else the progress of the
 * items they reach. Events without items (published before they carried them) follow the
 * request's own report type.
 */
export function changeSeenBy(reportTypes: 'all' | readonly number[], change: DocumentRequestChanged): { required: number; done: number } | null {
  const items = change.items;
  if (!items) return change.reportTypeId === null || reachesItemOf(reportTypes, change.reportTypeId) ? change.progress : null;
  if (!reachesRequestOf(reportTypes, { reportTypeId: change.reportTypeId, items })) return null;
  const named = change.itemId === undefined ? undefined : items.find((i) => i.id === change.itemId);
  if (named && !reachesItemOf(reportTypes, named.reportTypeId)) return null;
  if (reportTypes === 'all') return change.progress;
  const { required, done } = progressOf(items.filter((i) => reachesItemOf(reportTypes, i.reportTypeId)));
  return { required, done };
}
