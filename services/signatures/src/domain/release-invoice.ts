import { NotFound, Conflict, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import { SIGNATURE_MESSAGES } from '@ledgerline/contracts/signatures.contracts.ts';

/**
 * The invoice a signed document is released on payment of (issue 43), asked of the billing
 * service with the caller's own token (DESIGN §2: billing owns invoices): it must be a sent
 * invoice of the request's client with something still to pay. The hold itself is the files
 * service's, placed when the signed PDF is filed.
 */
export class ReleaseInvoices {
  readonly #billingUrl: () => string;

  constructor(billingUrl: () => string) {
    this.#billingUrl = billingUrl;
  }

  async check(t: TenantRequest, clientId: number, invoiceId: number): Promise<{ invoiceId: number; invoiceNumber: string }> {
    let r: Response;
    try {
      r = await fetch(`${this.#billingUrl()}/api/invoices/${invoiceId}`, { headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new Unavailable('The billing service is unavailable. Please try again.');
    }
    if (r.status === 404 || r.status === 403) throw new NotFound(SIGNATURE_MESSAGES.releaseInvoiceNotFound);
    if (!r.ok) throw new Unavailable(`The billing service answered ${r.status}. Please try again.`);
    const invoice = (await r.json()) as Invoice;
    if (invoice.clientId !== clientId || invoice.status === 'draft' || invoice.number === null) throw new NotFound(SIGNATURE_MESSAGES.releaseInvoiceNotFound);
    if (invoice.status === 'paid') throw new Conflict(SIGNATURE_MESSAGES.releaseInvoicePaid);
    if (invoice.status === 'void') throw new Conflict(SIGNATURE_MESSAGES.releaseInvoiceVoid);
    return { invoiceId: invoice.id, invoiceNumber: invoice.number };
  }
}
