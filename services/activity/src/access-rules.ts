import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import type { AuthContext } from '@ledgerline/kit/http/authenticate.ts';
import type { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';

/**
 * What a caller sees of a firm's activity (docs/api/authorization.md, activity rows).
 * Log entries: Admin and DTA every one; CPA and custom roles the entries of the clients in
 * their access list plus their own; a Client user the entries of their own client.
 * Documents (recent files, document counts, top files) follow the files service's rule:
 * staff see files without a client, CPA and custom roles only reports of report types in
 * their list, and Client users never see firm documents.
 */
export interface ActivityVisibility {
  /** The caller, as activity rows store users (kit/auth/actor-id.ts). */
  userId: number;
  isClient: boolean;
  /** Clients whose entries, documents and engagement the caller reads. */
  clients: 'all' | readonly number[];
  /** CPA and custom roles also see their own entries about other (or no) clients. */
  ownEntries: boolean;
  reportTypes: 'all' | readonly number[];
}

export function visibilityOf(t: TenantRequest): ActivityVisibility {
  const { scope } = t;
  return {
    userId: actorId(t.claims),
    isClient: scope.isClient,
    clients: scope.clients,
    ownEntries: !scope.isClient && scope.clients !== 'all',
    reportTypes: scope.isClient ? 'all' : scope.reportTypes,
  };
}

/**
 * `col` is one of `ids`. One id is compared with `=`: an `= ANY(array)` condition keeps
 * PostgreSQL from walking a (client_id, timestamp) index in order, so a Client user's
 * newest entries would be sorted instead of read off the index.
 */
function oneOf(col: string, ids: readonly number[], p: SqlParams): string {
  return ids.length === 1 ? `${col} = ${p.add(ids[0])}` : `${col} = ANY(${p.add(ids)}::int[])`;
}

/** Log entries (or rollup rows keyed by client and user) the caller may see, as a SQL condition. */
export function visibleEntries(v: ActivityVisibility, p: SqlParams, cols = { client: 'client_id', user: 'user_id' }): string {
  if (v.clients === 'all') return 'true';
  const parts: string[] = [];
  if (v.clients.length) parts.push(oneOf(cols.client, v.clients, p));
  if (v.ownEntries) parts.push(`${cols.user} = ${p.add(v.userId)}`);
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

/**
 * Entries about a report type (a report's, a document request item's) the caller may see, as a
 * SQL condition on `activity_logs`: CPA and custom roles only those of their report types, as
 * the files and the requests themselves; entries about no report type are not limited by it.
 * A Client user never reads the staff-only ones (a return's moves between the firm's stages).
 */
export function visibleReportTypes(v: ActivityVisibility, p: SqlParams): string {
  if (v.isClient) return 'NOT staff_only';
  if (v.reportTypes === 'all') return 'true';
  return `(report_type_id IS NULL OR report_type_id = ANY(${p.add(v.reportTypes)}::int[]))`;
}

/** Clients the caller reads (engagement, top clients); `client` never holds 0 here. */
export function visibleClients(v: ActivityVisibility, p: SqlParams, col = 'client_id'): string {
  if (v.clients === 'all') return 'true';
  return v.clients.length ? oneOf(col, v.clients, p) : 'false';
}

/**
 * Documents the caller may see. `zeroKeys`: the columns are rollup keys, where 0 stands
 * for "no client" and "no report type"; otherwise those are NULL.
 */
export function visibleDocuments(
  v: ActivityVisibility,
  p: SqlParams,
  cols: { client: string; fileType: string; reportType: string; zeroKeys: boolean },
): string {
  if (v.clients === 'all' && v.reportTypes === 'all' && !v.isClient) return 'true';
  const none = (col: string) => (cols.zeroKeys ? `${col} = 0` : `${col} IS NULL`);
  const parts: string[] = [];
  // Files without a client are the firm's own (firm documents): every staff member's.
  if (!v.isClient) parts.push(none(cols.client));
  const ofClients = v.clients === 'all' ? `NOT ${none(cols.client)}` : v.clients.length ? oneOf(cols.client, v.clients, p) : null;
  if (ofClients) {
    const conditions = [ofClients];
    if (v.isClient) conditions.push(`${cols.fileType} <> 'firm_document'`);
    if (v.reportTypes !== 'all') {
      conditions.push(`(${cols.fileType} <> 'report' OR ${none(cols.reportType)} OR ${cols.reportType} = ANY(${p.add(v.reportTypes)}::int[]))`);
    }
    parts.push(`(${conditions.join(' AND ')})`);
  }
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

export const FILE_COLUMNS = { client: 'client_id', fileType: 'file_type', reportType: 'report_type_id', zeroKeys: false } as const;
export const DOCUMENT_COUNT_COLUMNS = { client: 'client_id', fileType: 'file_type', reportType: 'report_type_id', zeroKeys: true } as const;

export const ACTIVITY_DENIED = {
  platformAnalytics: 'Access denied. Only platform administrators can view platform analytics.',
  otherUsersActivity: 'Access denied. You can only view your own activity.',
} as const;

export function requirePlatformAdmin(auth: AuthContext): void {
  if (!auth.claims.platformAdmin) throw new Forbidden(ACTIVITY_DENIED.platformAnalytics);
}
