import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { BILLING_MESSAGES } from '@ledgerline/contracts/billing.contracts.ts';

/**
 * Who does what with billing (docs/api/authorization.md). The role model has no per-right
 * grants, so managing billing (price list, settings, invoices, payments) is the Admin's.
 * Staff read the invoices of the clients they reach (DTA: all; CPA and custom roles: their
 * list) and the receivables of those; a Client user reads their own client's invoices once
 * sent, never a draft. Out of reach answers as missing (404), in the store's SQL.
 */
export function requireBillingAdmin(scope: AccessScope): void {
  if (!scope.isAdmin) throw new Forbidden(BILLING_MESSAGES.adminsOnly);
}

export function requireStaff(scope: AccessScope): void {
  if (scope.isClient) throw new Forbidden(BILLING_MESSAGES.staffOnly);
}
