import { canReadClient, canReadReportType } from '@ledgerline/kit/access/access-scope.ts';
import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { INSIGHT_MESSAGES, type ComplianceInsight } from '@ledgerline/contracts/insights.contracts.ts';

/*
 * Who reaches which insights (docs/api/authorization.md, insights rows). Admin, DTA and
 * platform administrators: every insight of the firm. CPA and custom roles: those about
 * the clients of their list and, where the insight concerns a report type (its file's or
 * its tracker item's, metadata.reportTypeId), a type of their list: what files and the
 * tracker show them. Client users: their own client's, read only. Only an Admin runs an
 * analysis and changes the rule settings (spec 001 §6). Decided per request from the
 * stored user, so a list or role changed later applies to insights already made.
 */

/** The insight's report type, when it concerns one. */
const REPORT_TYPE = `(i.metadata->>'reportTypeId')::int`;
const reportTypeOf = (insight: ComplianceInsight): number | null =>
  typeof insight.metadata?.reportTypeId === 'number' ? insight.metadata.reportTypeId : null;

/** The insights the caller reads, as a SQL condition on `compliance_insights i`. */
export function readableInsights(t: TenantRequest, p: SqlParams): string {
  const { clients, reportTypes } = t.scope;
  const parts: string[] = [];
  if (clients !== 'all') parts.push(`i.client_id = ANY(${p.add(clients)}::int[])`);
  if (reportTypes !== 'all') parts.push(`(${REPORT_TYPE} IS NULL OR ${REPORT_TYPE} = ANY(${p.add(reportTypes)}::int[]))`);
  return parts.length ? parts.join(' AND ') : 'true';
}

/** An insight the caller may review, or 403/404 (one outside their lists is not revealed). */
export function reviewable(t: TenantRequest, insight: ComplianceInsight | null): ComplianceInsight {
  requireStaff(t);
  const type = insight && reportTypeOf(insight);
  if (!insight || !canReadClient(t.scope, insight.clientId) || (type !== null && !canReadReportType(t.scope, type))) throw new NotFound(INSIGHT_MESSAGES.notFound);
  return insight;
}

export function requireStaff(t: TenantRequest): void {
  if (t.scope.isClient) throw new Forbidden(INSIGHT_MESSAGES.readOnly);
}

export function requireAdmin(t: TenantRequest): void {
  if (!t.scope.isAdmin) throw new Forbidden(INSIGHT_MESSAGES.adminOnly);
}
