import { canReadClient, canReadReportType, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { REQUEST_MESSAGES } from '@ledgerline/contracts/requests.contracts.ts';

/**
 * Who reaches which document requests (docs/api/authorization.md). Admin and DTA: all of the
 * firm's. CPA and custom roles: requests of a client in their list whose report type (if
 * it has one) is in their list. Client users: their own client's, to read, upload and mark
 * items not applicable only. Templates: Admin and DTA manage them; staff read them.
 */
export const canManageTemplates = (scope: AccessScope): boolean => !scope.isClient && scope.clients === 'all';

export function requireStaff(scope: AccessScope): void {
  if (scope.isClient) throw new Forbidden(REQUEST_MESSAGES.clientsCannotManage);
}

export function requireTemplateManager(scope: AccessScope): void {
  if (!canManageTemplates(scope)) throw new Forbidden(REQUEST_MESSAGES.templatesDenied);
}

export const reachesRequest = (scope: AccessScope, r: { clientId: number; reportTypeId: number | null }): boolean =>
  canReadClient(scope, r.clientId) && (scope.isClient || r.reportTypeId === null || canReadReportType(scope, r.reportTypeId));

/** The same rule as a SQL condition on `document_requests` aliased `r`. */
export function reachableRequests(scope: AccessScope, p: SqlParams): string {
  const conditions: string[] = [];
  if (scope.clients !== 'all') conditions.push(`r.client_id = ANY(${p.add([...scope.clients])}::int[])`);
  if (!scope.isClient && scope.reportTypes !== 'all') conditions.push(`(r.report_type_id IS NULL OR r.report_type_id = ANY(${p.add([...scope.reportTypes])}::int[]))`);
  return conditions.length ? conditions.join(' AND ') : 'true';
}

/** Missing and out of reach answer alike (404): existence is not revealed. */
export function assertReach(scope: AccessScope, r: { clientId: number; reportTypeId: number | null }): void {
  if (!reachesRequest(scope, r)) throw new NotFound(REQUEST_MESSAGES.requestNotFound);
}
