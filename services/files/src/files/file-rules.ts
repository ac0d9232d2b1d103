import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { FileType } from '@ledgerline/contracts/files.contracts.ts';

/** The texts the files service answers with (spec 001 §8 where the spec names them). */
export const FILE_MESSAGES = {
  notFound: 'File not found',
  clientNotFound: 'Client not found',
  reportTypeNotFound: 'Report type not found',
  clientCannotUpload: 'Access denied. Client users cannot upload files.',
  clientCannotDelete: 'Access denied. Client users cannot delete files.',
  clientCannotExtract: 'Access denied. Client users cannot start content extraction.',
  firmDocumentDelete: 'Access denied. Only an Admin or the uploader can delete a firm document.',
  linkInvalid: 'This link is invalid or has expired.',
  adminsOnlyHold: 'Only Admin users can hold a document until payment or release it.',
  staffOnlyHolds: 'Access denied. Client users cannot list what waits for payment by report type.',
  deleted: (name: string) => `File "${name}" deleted successfully.`,
} as const;

/** Sees every file of the firm: Admin (and platform administrators) and DTA. */
const seesEverything = (scope: AccessScope) => !scope.isClient && (scope.isAdmin || (scope.clients === 'all' && scope.reportTypes === 'all'));

/**
 * docs/api/authorization.md, as one SQL condition over `files f` that list, search, get,
 * public links and delete all apply (null: no restriction). Staff: files of readable
 * clients, reports only of readable report types (a report without a type goes with its
 * client), and documents without a client (firm documents). Client users: their own
 * client's reports and company documents, never firm documents.
 */
export function visibilityCondition(scope: AccessScope, params: unknown[]): string | null {
  if (seesEverything(scope)) return null;
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  if (scope.isClient) {
    if (scope.clients === 'all') return "f.file_type <> 'firm_document'";
    if (scope.clients.length === 0) return 'false';
    return `(f.client_id = ANY(${param(scope.clients)}::int[]) AND f.file_type <> 'firm_document')`;
  }
  const parts: string[] = [];
  if (scope.clients !== 'all') {
    parts.push(scope.clients.length ? `(f.client_id IS NULL OR f.client_id = ANY(${param(scope.clients)}::int[]))` : 'f.client_id IS NULL');
  }
  if (scope.reportTypes !== 'all') {
    parts.push(scope.reportTypes.length
      ? `(f.file_type <> 'report' OR f.report_type_id IS NULL OR f.report_type_id = ANY(${param(scope.reportTypes)}::int[]))`
      : "(f.file_type <> 'report' OR f.report_type_id IS NULL)");
  }
  return parts.length ? parts.join(' AND ') : null;
}

/**
 * Deleting (docs/api/authorization.md): never a Client user; Admin any file; other staff the files they can
 * see, but a firm document only if they uploaded it. Visibility is checked before this.
 */
export function assertMayDelete(t: TenantRequest, file: { fileType: FileType; uploadedById: number }): void {
  if (t.scope.isClient) throw new Forbidden(FILE_MESSAGES.clientCannotDelete);
  if (t.scope.isAdmin) return;
  if (file.fileType === 'firm_document' && file.uploadedById !== actorId(t.claims)) {
    throw new Forbidden(FILE_MESSAGES.firmDocumentDelete);
  }
}
