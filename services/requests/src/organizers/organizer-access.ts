import { canReadClient, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { ORGANIZER_MESSAGES } from '@ledgerline/contracts/organizers.contracts.ts';

/**
 * Who reaches which organizers (docs/api/authorization.md), as for document requests: Admin
 * and DTA every one of the firm's; CPA and custom roles those of a client in their list whose
 * report type (when it has one) is in their list; Client users their own client's, once sent
 * (a draft is the firm's). Templates: Admin and DTA manage them (access-rules.ts
 * requireTemplateManager); staff read those without a report type or of one they reach.
 */
export function reachesOrganizer(scope: AccessScope, o: { clientId: number; reportTypeId: number | null; status: string }): boolean {
  if (!canReadClient(scope, o.clientId)) return false;
  if (scope.isClient) return o.status !== 'draft';
  return o.reportTypeId === null || scope.reportTypes === 'all' || scope.reportTypes.includes(o.reportTypeId);
}

/** Missing and out of reach answer alike (404): existence is not revealed. */
export function assertOrganizerReach(scope: AccessScope, o: { clientId: number; reportTypeId: number | null; status: string }): void {
  if (!reachesOrganizer(scope, o)) throw new NotFound(ORGANIZER_MESSAGES.organizerNotFound);
}

/** The same rule as a SQL condition on `organizers` aliased `o`. */
export function reachableOrganizers(scope: AccessScope, p: SqlParams): string {
  const conditions: string[] = [];
  if (scope.clients !== 'all') conditions.push(`o.client_id = ANY(${p.add([...scope.clients])}::int[])`);
  if (scope.isClient) conditions.push(`o.status <> 'draft'`);
  else if (scope.reportTypes !== 'all') conditions.push(`(o.report_type_id IS NULL OR o.report_type_id = ANY(${p.add([...scope.reportTypes])}::int[]))`);
  return conditions.length ? conditions.join(' AND ') : 'true';
}

export const reachesTemplate = (scope: AccessScope, t: { reportTypeId?: number | null }): boolean =>
  !scope.isClient && (t.reportTypeId == null || scope.reportTypes === 'all' || scope.reportTypes.includes(t.reportTypeId));
