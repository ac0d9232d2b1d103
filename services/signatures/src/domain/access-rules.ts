import { canReadClient, canReadReportType, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { SIGNATURE_MESSAGES, type SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';

/**
 * Who reaches which signature requests (docs/api/authorization.md). Admin and DTA: all of
 * the firm's. CPA and custom roles: those of a client and a report type in their lists
 * (like document requests). Client users: only requests they are a signer of, once sent.
 * Anything else answers as missing (404): existence is not revealed.
 */
export function requireStaff(scope: AccessScope): void {
  if (scope.isClient) throw new Forbidden(SIGNATURE_MESSAGES.clientsCannotManage);
}

export function reaches(scope: AccessScope, userId: number, r: Pick<SignatureRequest, 'clientId' | 'reportTypeId' | 'status' | 'signers'>): boolean {
  if (!canReadClient(scope, r.clientId)) return false;
  if (scope.isClient) return r.status !== 'draft' && r.signers.some((s) => s.userId === userId);
  return canReadReportType(scope, r.reportTypeId);
}

export function assertReach(scope: AccessScope, userId: number, r: Pick<SignatureRequest, 'clientId' | 'reportTypeId' | 'status' | 'signers'>): void {
  if (!reaches(scope, userId, r)) throw new NotFound(SIGNATURE_MESSAGES.notFound);
}
