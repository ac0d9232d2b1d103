import { canReadClient } from '@ledgerline/kit/access/access-scope.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { INSIGHT_MESSAGES, type ComplianceInsight } from '@ledgerline/contracts/insights.contracts.ts';

/*
 * Who reaches which insights (README "Authorization", insights rows). Admin, DTA and
 * platform administrators: every insight of the firm. CPA and custom roles: those about
 * the clients of their list. Client users: their own client's, read only. Only an Admin
 * runs an analysis and changes the rule settings (spec 001 §6).
 */

/** The clients whose insights the caller reads. */
export const readableClients = (t: TenantRequest): 'all' | readonly number[] => t.scope.clients;

/** An insight the caller may review, or 403/404 (one outside their clients is not revealed). */
export function reviewable(t: TenantRequest, insight: ComplianceInsight | null): ComplianceInsight {
  requireStaff(t);
  if (!insight || !canReadClient(t.scope, insight.clientId)) throw new NotFound(INSIGHT_MESSAGES.notFound);
  return insight;
}

export function requireStaff(t: TenantRequest): void {
  if (t.scope.isClient) throw new Forbidden(INSIGHT_MESSAGES.readOnly);
}

export function requireAdmin(t: TenantRequest): void {
  if (!t.scope.isAdmin) throw new Forbidden(INSIGHT_MESSAGES.adminOnly);
}
