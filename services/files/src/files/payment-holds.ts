import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { INVOICE_CHANGED, type InvoiceChanged } from '@ledgerline/contracts/billing.contracts.ts';
import { PAYMENT_HOLD_MESSAGES } from '@ledgerline/contracts/files.contracts.ts';
import type { PortalFile, ReportTypePaymentHold } from '@ledgerline/contracts/files.contracts.ts';

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

/** The invoice a hold waits for. */
export interface HeldFor { invoiceId: number; invoiceNumber: string }

/**
 * Documents released on payment (issue 43): staff hold a client's file, or a report type of a
 * client (every file of it, those there and those filed while it holds), until one of that
 * client's invoices is paid; a signed document can be filed held. One mechanism: a report
 * type's hold is written down as a hold of each of its files (`by_report_type`), so lists,
 * downloads and the release on payment read one table. The files service knows invoices
 * only from billing's invoice.changed events (file_invoices, newest event wins); the event
 * saying "paid" releases every file and report type waiting for it, in the consumer's transaction.
 */
export class PaymentHolds {
  async hold(tx: Queryable, file: PortalFile, invoiceId: number, byId: number): Promise<HeldFor> {
    if (file.clientId === null) throw new Conflict(PAYMENT_HOLD_MESSAGES.clientFileOnly);
    const invoiceNumber = await this.#openInvoice(tx, invoiceId, file.clientId, PAYMENT_HOLD_MESSAGES.invoiceNotFound);
    await this.#holdFile(tx, file.id, { invoiceId, invoiceNumber }, byId);
    return { invoiceId, invoiceNumber };
  }

  /** Staff release a waiting file by hand. */
  async release(tx: Queryable, fileId: number, byId: number): Promise<void> {
    const r = await tx.query(`UPDATE file_payment_holds SET released_at = now(), released_by = $2 WHERE file_id = $1 AND released_at IS NULL`, [fileId, String(byId)]);
    if ((r.rowCount ?? 0) === 0) throw new NotFound(PAYMENT_HOLD_MESSAGES.noHold);
  }

  /**
   * Holds a report type of a client: its files there now wait for the invoice (a file already
   * waiting for an invoice of its own keeps that one), and so does every one filed until the
   * invoice is paid or the hold is released. Holding again with another invoice moves the
   * report type's files to it.
   */
  async holdReportType(tx: Queryable, clientId: number, reportTypeId: number, invoiceId: number, byId: number): Promise<ReportTypePaymentHold> {
    const invoiceNumber = await this.#openInvoice(tx, invoiceId, clientId, PAYMENT_HOLD_MESSAGES.clientInvoiceNotFound);
    await tx.query(
      `INSERT INTO file_report_type_holds (client_id, report_type_id, invoice_id, invoice_number, created_by_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (client_id, report_type_id) DO UPDATE SET invoice_id = EXCLUDED.invoice_id, invoice_number = EXCLUDED.invoice_number,
         created_by_id = EXCLUDED.created_by_id, created_at = now(), released_at = NULL, released_by = NULL`,
      [clientId, reportTypeId, invoiceId, invoiceNumber, byId]);
    await tx.query(
      `INSERT INTO file_payment_holds (file_id, invoice_id, invoice_number, created_by_id, by_report_type)
       SELECT f.id, $3, $4, $5, true FROM files f WHERE f.client_id = $1 AND f.report_type_id = $2
       ON CONFLICT (file_id) DO UPDATE SET invoice_id = EXCLUDED.invoice_id, invoice_number = EXCLUDED.invoice_number, created_by_id = EXCLUDED.created_by_id,
         created_at = now(), released_at = NULL, released_by = NULL, by_report_type = true
       WHERE file_payment_holds.released_at IS NOT NULL OR file_payment_holds.by_report_type`,
      [clientId, reportTypeId, invoiceId, invoiceNumber, byId]);
    return (await this.reportTypeHolds(tx, clientId)).find((h) => h.reportTypeId === reportTypeId)!;
  }

  /** Staff release a report type of a client by hand: it and the files it held. */
  async releaseReportType(tx: Queryable, clientId: number, reportTypeId: number, byId: number): Promise<void> {
    const r = await tx.query<{ invoice_id: number }>(
      `UPDATE file_report_type_holds SET released_at = now(), released_by = $3 WHERE client_id = $1 AND report_type_id = $2 AND released_at IS NULL RETURNING invoice_id`,
      [clientId, reportTypeId, String(byId)]);
    if (!r.rows[0]) throw new NotFound(PAYMENT_HOLD_MESSAGES.noReportTypeHold);
    await tx.query(
      `UPDATE file_payment_holds h SET released_at = now(), released_by = $4 FROM files f
       WHERE f.id = h.file_id AND f.client_id = $1 AND f.report_type_id = $2 AND h.by_report_type AND h.invoice_id = $3 AND h.released_at IS NULL`,
      [clientId, reportTypeId, r.rows[0].invoice_id, String(byId)]);
  }

  /** The report types of a client waiting for payment, with how many of their files wait. */
  async reportTypeHolds(db: Queryable, clientId: number): Promise<ReportTypePaymentHold[]> {
    const r = await db.query<{ report_type_id: number; invoice_id: number; invoice_number: string; files_waiting: number }>(
      `SELECT t.report_type_id, t.invoice_id, t.invoice_number,
         (SELECT count(*)::int FROM file_payment_holds h JOIN files f ON f.id = h.file_id
           WHERE f.client_id = t.client_id AND f.report_type_id = t.report_type_id AND h.by_report_type AND h.invoice_id = t.invoice_id AND h.released_at IS NULL) AS files_waiting
       FROM file_report_type_holds t WHERE t.client_id = $1 AND t.released_at IS NULL ORDER BY t.report_type_id`, [clientId]);
    return r.rows.map((row) => ({ clientId, reportTypeId: row.report_type_id, invoiceId: row.invoice_id, invoiceNumber: row.invoice_number, filesWaiting: row.files_waiting }));
  }

  /**
   * A file just filed (in its upload's transaction): it waits if its client's report type is
   * held, and a signed document filed "released on payment" waits for its invoice (the
   * signatures service checked the invoice with billing; when this service has heard it is
   * paid or void already, there is nothing to wait for).
   */
  async fileFiled(tx: Queryable, file: PortalFile, byId: number, releaseOnPaymentOf?: HeldFor): Promise<boolean> {
    if (file.clientId === null) return false;
    let held = false;
    if (file.reportTypeId !== null) {
      const r = await tx.query(
        `INSERT INTO file_payment_holds (file_id, invoice_id, invoice_number, created_by_id, by_report_type)
         SELECT $1, t.invoice_id, t.invoice_number, t.created_by_id, true FROM file_report_type_holds t
         WHERE t.client_id = $2 AND t.report_type_id = $3 AND t.released_at IS NULL
         ON CONFLICT (file_id) DO NOTHING`,
        [file.id, file.clientId, file.reportTypeId]);
      held = (r.rowCount ?? 0) > 0;
    }
    if (releaseOnPaymentOf) {
      const known = await tx.query<{ number: string; status: string; client_id: number }>('SELECT number, status, client_id FROM file_invoices WHERE invoice_id = $1', [releaseOnPaymentOf.invoiceId]);
      const invoice = known.rows[0];
      if (invoice && (invoice.status === 'paid' || invoice.status === 'void' || invoice.client_id !== file.clientId)) return held;
      await this.#holdFile(tx, file.id, { invoiceId: releaseOnPaymentOf.invoiceId, invoiceNumber: invoice?.number ?? releaseOnPaymentOf.invoiceNumber }, byId);
      held = true;
    }
    return held;
  }

  /** A file's own hold; it replaces whatever held the file before. */
  async #holdFile(tx: Queryable, fileId: number, invoice: HeldFor, byId: number): Promise<void> {
    await tx.query(
      `INSERT INTO file_payment_holds (file_id, invoice_id, invoice_number, created_by_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (file_id) DO UPDATE SET invoice_id = EXCLUDED.invoice_id, invoice_number = EXCLUDED.invoice_number, created_by_id = EXCLUDED.created_by_id,
         created_at = now(), released_at = NULL, released_by = NULL, by_report_type = false`,
      [fileId, invoice.invoiceId, invoice.invoiceNumber, byId]);
  }

  /** The number of a sent invoice of the client that is still to be paid; 404 / 409 otherwise. */
  async #openInvoice(tx: Queryable, invoiceId: number, clientId: number, notFound: string): Promise<string> {
    const r = await tx.query<{ number: string; status: string }>('SELECT number, status FROM file_invoices WHERE invoice_id = $1 AND client_id = $2', [invoiceId, clientId]);
    const invoice = r.rows[0];
    if (!invoice || invoice.status === 'draft') throw new NotFound(notFound);
    if (invoice.status === 'paid') throw new Conflict(PAYMENT_HOLD_MESSAGES.paidAlready);
    if (invoice.status === 'void') throw new Conflict(PAYMENT_HOLD_MESSAGES.voidInvoice);
    return invoice.number;
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
      await tx.query(`UPDATE file_report_type_holds SET released_at = $2, released_by = 'payment' WHERE invoice_id = $1 AND released_at IS NULL`, [c.invoiceId, event.occurredAt]);
    }
  });
}
