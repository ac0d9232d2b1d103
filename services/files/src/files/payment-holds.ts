import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { INVOICE_CHANGED, type InvoiceChanged } from '@ledgerline/contracts/billing.contracts.ts';
import { PAYMENT_HOLD_MESSAGES } from '@ledgerline/contracts/files.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';

const CONSUMER = 'files.invoice-payments';

/** The invoice a file waits for, while it waits. */
export async function waitingFor(db: Queryable, fileId: number): Promise<{ invoiceId: number; invoiceNumber: string } | null> {
  const r = await db.query<{ invoice_id: number; invoice_number: string }>(
    'SELECT invoice_id, invoice_number FROM file_payment_holds WHERE file_id = $1 AND released_at IS NULL', [fileId]);
  return r.rows[0] ? { invoiceId: r.rows[0].invoice_id, invoiceNumber: r.rows[0].invoice_number } : null;
}

/** A Client user cannot open (download, link, read the text of) a file that waits for payment; staff can. */
export async function assertReleasedFor(db: Queryable, scope: AccessScope, fileId: number): Promise<void> {
  if (!scope.isClient) return;
  const waiting = await waitingFor(db, fileId);
  if (waiting) throw new Forbidden(PAYMENT_HOLD_MESSAGES.waiting(waiting.invoiceNumber));
}

/**
 * Documents released on payment (issue 43): staff hold a client's file until one of that
 * client's invoices is paid. The files service knows invoices only from billing's
 * invoice.changed events (file_invoices, newest event wins); the event saying "paid" releases
 * every file waiting for it, in the consumer's transaction.
 */
export class PaymentHolds {
  async hold(tx: Queryable, file: PortalFile, invoiceId: number, byId: number): Promise<{ invoiceId: number; invoiceNumber: string }> {
    if (file.clientId === null) throw new Conflict(PAYMENT_HOLD_MESSAGES.clientFileOnly);
    const r = await tx.query<{ number: string; status: string }>('SELECT number, status FROM file_invoices WHERE invoice_id = $1 AND client_id = $2', [invoiceId, file.clientId]);
    const invoice = r.rows[0];
    if (!invoice || invoice.status === 'draft') throw new NotFound(PAYMENT_HOLD_MESSAGES.invoiceNotFound);
    if (invoice.status === 'paid') throw new Conflict(PAYMENT_HOLD_MESSAGES.paidAlready);
    await tx.query(
      `INSERT INTO file_payment_holds (file_id, invoice_id, invoice_number, created_by_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (file_id) DO UPDATE SET invoice_id = EXCLUDED.invoice_id, invoice_number = EXCLUDED.invoice_number, created_by_id = EXCLUDED.created_by_id,
         created_at = now(), released_at = NULL, released_by = NULL`,
      [file.id, invoiceId, invoice.number, byId]);
    return { invoiceId, invoiceNumber: invoice.number };
  }

  /** Staff release a waiting file by hand. */
  async release(tx: Queryable, fileId: number, byId: number): Promise<void> {
    const r = await tx.query(`UPDATE file_payment_holds SET released_at = now(), released_by = $2 WHERE file_id = $1 AND released_at IS NULL`, [fileId, String(byId)]);
    if ((r.rowCount ?? 0) === 0) throw new NotFound(PAYMENT_HOLD_MESSAGES.noHold);
  }
}

export function followInvoicePayments(deps: TenantConsumerDeps): Promise<Subscription> {
  return consumeTenantEvents(deps, CONSUMER, [INVOICE_CHANGED], async (tx, event) => {
    const c = event.payload as InvoiceChanged;
    await tx.query(
      `INSERT INTO file_invoices (invoice_id, client_id, number, status, version) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (invoice_id) DO UPDATE SET number = EXCLUDED.number, status = EXCLUDED.status, version = EXCLUDED.version
       WHERE file_invoices.version <= EXCLUDED.version`,
      [c.invoiceId, c.clientId, c.number, c.status, event.occurredAt]);
    // Paid is final (a paid invoice is never voided): whatever order events arrive in, "paid" releases.
    if (c.status === 'paid') {
      await tx.query(`UPDATE file_payment_holds SET released_at = $2, released_by = 'payment' WHERE invoice_id = $1 AND released_at IS NULL`, [c.invoiceId, event.occurredAt]);
    }
  });
}
