import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES } from '@ledgerline/contracts/compliance.contracts.ts';

/**
 * Who reaches which schedules and tracker items (docs/api/authorization.md, compliance rows).
 * Admin, DTA and platform administrators: all of the firm's. CPA and custom roles: those whose
 * client is in their client list AND whose report type is in their report-type list. Client
 * users: read the tracker items of their own client; nothing else.
 */
export interface ComplianceReach {
  clients: 'all' | readonly number[];
  reportTypes: 'all' | readonly number[];
  /** A Client user: reads what clients see of an item's stage, never the staff's stage. */
  client?: boolean;
}

/** Reading tracker items: staff within their lists, a Client user their own client's. */
export function readReach(t: TenantRequest): ComplianceReach {
  return { clients: t.scope.clients, reportTypes: t.scope.reportTypes, client: t.scope.isClient };
}

/** Schedules, generation, changes: staff only (403 for Client users before anything is read). */
export function staffReach(t: TenantRequest): ComplianceReach {
  if (t.scope.isClient) throw new Forbidden(COMPLIANCE_MESSAGES.clientsDenied);
  return readReach(t);
}

/** The rows within reach, as a SQL condition on a table with client_id and report_type_id. */
export function reachable(r: ComplianceReach, p: SqlParams, alias = ''): string {
  const col = (c: string) => (alias ? `${alias}.${c}` : c);
  const parts: string[] = [];
  if (r.clients !== 'all') parts.push(`${col('client_id')} = ANY(${p.add(r.clients)}::int[])`);
  if (r.reportTypes !== 'all') parts.push(`${col('report_type_id')} = ANY(${p.add(r.reportTypes)}::int[])`);
  return parts.length ? parts.join(' AND ') : 'true';
}

