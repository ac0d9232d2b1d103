import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type {
  BillingService, BillingServiceInput, Invoice, InvoiceLine, InvoiceStatus, Payment, PaymentMethod, TaxTreatment,
} from '@ledgerline/contracts/billing.contracts.ts';
import type { InvoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import { isoInstantOrNull as iso } from '@ledgerline/kit/db/instants.ts';

/** bigint columns arrive as text (node-postgres) or bigint (PGlite); amounts stay within safe integers. */
const amount = (v: unknown): number => Number(v);
const day = (v: Date | string | null): string | null => (v === null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));

export interface SettingsRow {
  invoicePrefix: string; address: string | null; taxRegistration: string | null; state: string | null; salesTaxRatePercent: number;
  paymentTermsDays: number; bankDetails: string | null;
  remindersEnabled: boolean; reminderDaysBefore: number; reminderEveryDaysAfter: number;
}

interface InvoiceRow {
  id: number; number: string | null; client_id: number; client_name: string; client_address: string | null; client_state: string | null;
  client_registration: string | null; status: InvoiceStatus; issue_date: string | Date | null; due_date: string | Date | null; currency: string; country: string;
  lines: InvoiceLine[]; tax_summary: Invoice['taxSummary']; subtotal: unknown; tax: unknown; total: unknown; amount_paid: unknown; notes: string | null;
  links: Invoice['links']; sent_at: Date | null; voided_at: Date | null; created_at: Date; updated_at: Date;
}

/** An invoice as stored, with what the PDF needs beyond the API's shape. */
export interface StoredInvoice extends Invoice { clientAddress: string | null; clientRegistration: string | null }

const invoiceOf = (r: InvoiceRow, payments: Payment[]): StoredInvoice => {
  const total = amount(r.total);
  const paid = amount(r.amount_paid);
  return {
    id: r.id, number: r.number, clientId: r.client_id, clientName: r.client_name, clientState: r.client_state, status: r.status,
    issueDate: day(r.issue_date), dueDate: day(r.due_date), currency: r.currency, country: r.country, lines: r.lines,
    subtotal: amount(r.subtotal), tax: amount(r.tax), total, amountPaid: paid, balance: r.status === 'void' ? 0 : total - paid,
    taxSummary: r.tax_summary, notes: r.notes, links: r.links, payments,
    sentAt: iso(r.sent_at), voidedAt: iso(r.voided_at), createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
    clientAddress: r.client_address, clientRegistration: r.client_registration,
  };
};

/** What a draft or a sent invoice is written with. */
export interface InvoiceValues {
  clientId: number; clientName: string; clientAddress: string | null; clientState: string | null; clientRegistration: string | null;
  issueDate: string | null; dueDate: string | null; currency: string; country: string; totals: InvoiceTotals; notes: string | null; links: Invoice['links'];
}

/**
 * The caller's reach as SQL on `invoices` aliased `i`: staff see their clients' invoices,
 * a Client user only their own client's, and never a draft.
 */
function reachable(scope: AccessScope, p: SqlParams): string {
  const conditions: string[] = [];
  if (scope.clients !== 'all') conditions.push(`i.client_id = ANY(${p.add([...scope.clients])}::int[])`);
  if (scope.isClient) conditions.push(`i.status <> 'draft'`);
  return conditions.length ? conditions.join(' AND ') : 'true';
}

/** SQL of the billing service's own tables (billing.migrations.ts). */
export class InvoiceStore {
  // Settings

  async settings(db: Queryable, lock = false): Promise<SettingsRow & { nextSequence: number }> {
    const r = await db.query<{ invoice_prefix: string; address: string | null; tax_registration: string | null; state: string | null; sales_tax_rate_percent: string | number; payment_terms_days: number; bank_details: string | null; next_invoice_sequence: number;
      reminders_enabled: boolean; reminder_days_before: number; reminder_every_days_after: number }>(
      `SELECT * FROM billing_settings WHERE id = 1${lock ? ' FOR UPDATE' : ''}`);
    const s = r.rows[0]!;
    return {
      invoicePrefix: s.invoice_prefix, address: s.address, taxRegistration: s.tax_registration, state: s.state,
      salesTaxRatePercent: Number(s.sales_tax_rate_percent), paymentTermsDays: s.payment_terms_days, bankDetails: s.bank_details,
      remindersEnabled: s.reminders_enabled, reminderDaysBefore: s.reminder_days_before, reminderEveryDaysAfter: s.reminder_every_days_after,
      nextSequence: s.next_invoice_sequence,
    };
  }

  async saveSettings(db: Queryable, s: SettingsRow): Promise<void> {
    await db.query(
      `UPDATE billing_settings SET invoice_prefix = $1, address = $2, tax_registration = $3, state = $4, sales_tax_rate_percent = $5,
        payment_terms_days = $6, bank_details = $7, reminders_enabled = $8, reminder_days_before = $9, reminder_every_days_after = $10, updated_at = now() WHERE id = 1`,
      [s.invoicePrefix, s.address, s.taxRegistration, s.state, s.salesTaxRatePercent, s.paymentTermsDays, s.bankDetails, s.remindersEnabled, s.reminderDaysBefore, s.reminderEveryDaysAfter]);
  }

  /**
   * Takes the next number in the caller's transaction: the settings row stays locked until it
   * commits, so concurrent sends queue here and a rolled-back send gives its number back.
   */
  async takeNextSequence(tx: Queryable): Promise<{ sequence: number; prefix: string }> {
    const r = await tx.query<{ sequence: number; invoice_prefix: string }>(
      'UPDATE billing_settings SET next_invoice_sequence = next_invoice_sequence + 1 WHERE id = 1 RETURNING next_invoice_sequence - 1 AS sequence, invoice_prefix');
    return { sequence: r.rows[0]!.sequence, prefix: r.rows[0]!.invoice_prefix };
  }

  // The price list

  async services(db: Queryable): Promise<BillingService[]> {
    const r = await db.query<{ id: number; name: string; description: string | null; default_price: unknown; tax_treatment: TaxTreatment; sac_code: string | null; created_at: Date; updated_at: Date }>(
      'SELECT * FROM billing_services ORDER BY name, id');
    return r.rows.map((s) => ({
      id: s.id, name: s.name, description: s.description, defaultPrice: amount(s.default_price), taxTreatment: s.tax_treatment, sacCode: s.sac_code,
      createdAt: iso(s.created_at)!, updatedAt: iso(s.updated_at)!,
    }));
  }

  async service(db: Queryable, id: number): Promise<BillingService | null> {
    return (await this.services(db)).find((s) => s.id === id) ?? null;
  }

  async saveService(db: Queryable, s: Required<Omit<BillingServiceInput, 'description' | 'sacCode'>> & { description: string | null; sacCode: string | null }, id?: number): Promise<number | null> {
    const values = [s.name, s.description, s.defaultPrice, s.taxTreatment, s.sacCode];
    const r = id === undefined
      ? await db.query<{ id: number }>('INSERT INTO billing_services (name, description, default_price, tax_treatment, sac_code) VALUES ($1, $2, $3, $4, $5) RETURNING id', values)
      : await db.query<{ id: number }>('UPDATE billing_services SET name = $1, description = $2, default_price = $3, tax_treatment = $4, sac_code = $5, updated_at = now() WHERE id = $6 RETURNING id', [...values, id]);
    return r.rows[0]?.id ?? null;
  }

  async deleteService(db: Queryable, id: number): Promise<boolean> {
    return ((await db.query('DELETE FROM billing_services WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  // Invoices

  async insert(db: Queryable, v: InvoiceValues, createdById: number | null): Promise<number> {
    const r = await db.query<{ id: number }>(
      `INSERT INTO invoices (client_id, client_name, client_address, client_state, client_registration, issue_date, due_date, currency, country, lines, tax_summary,
        subtotal, tax, total, notes, links, created_by_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $16::jsonb, $17) RETURNING id`,
      [...this.#values(v), createdById]);
    return r.rows[0]!.id;
  }

  async update(db: Queryable, id: number, v: InvoiceValues): Promise<void> {
    await db.query(
      `UPDATE invoices SET client_id = $1, client_name = $2, client_address = $3, client_state = $4, client_registration = $5, issue_date = $6, due_date = $7,
        currency = $8, country = $9, lines = $10::jsonb, tax_summary = $11::jsonb, subtotal = $12, tax = $13, total = $14, notes = $15, links = $16::jsonb, updated_at = now()
       WHERE id = $17`,
      [...this.#values(v), id]);
  }

  #values(v: InvoiceValues): unknown[] {
    const { totals } = v;
    return [v.clientId, v.clientName, v.clientAddress, v.clientState, v.clientRegistration, v.issueDate, v.dueDate, v.currency, v.country,
      JSON.stringify(totals.lines), JSON.stringify(totals.taxSummary), totals.subtotal, totals.tax, totals.total, v.notes, JSON.stringify(v.links)];
  }

  async markSent(tx: Queryable, id: number, number: { sequence: number; text: string }): Promise<void> {
    await tx.query(`UPDATE invoices SET status = 'sent', sequence = $1, number = $2, sent_at = now(), updated_at = now() WHERE id = $3`, [number.sequence, number.text, id]);
  }

  async setStatus(tx: Queryable, id: number, status: InvoiceStatus): Promise<void> {
    await tx.query(`UPDATE invoices SET status = $1, voided_at = CASE WHEN $1 = 'void' THEN now() ELSE voided_at END, updated_at = now() WHERE id = $2`, [status, id]);
  }

  async delete(db: Queryable, id: number): Promise<void> {
    await db.query(`DELETE FROM invoices WHERE id = $1 AND status = 'draft'`, [id]);
  }

  /** One invoice, or null (missing or out of the caller's reach); `lock` holds it for the caller's transaction. */
  async get(db: Queryable, id: number, scope: AccessScope, lock = false): Promise<StoredInvoice | null> {
    const p = new SqlParams();
    const r = await db.query<InvoiceRow>(`SELECT i.* FROM invoices i WHERE i.id = ${p.add(id)} AND ${reachable(scope, p)}${lock ? ' FOR UPDATE' : ''}`, p.values);
    const row = r.rows[0];
    return row ? invoiceOf(row, await this.payments(db, id)) : null;
  }

  async list(db: Queryable, scope: AccessScope, q: { status?: InvoiceStatus; clientId?: number; limit: number; offset: number }): Promise<Invoice[]> {
    const p = new SqlParams();
    const where = [reachable(scope, p)];
    if (q.status) where.push(`i.status = ${p.add(q.status)}`);
    if (q.clientId) where.push(`i.client_id = ${p.add(q.clientId)}`);
    const r = await db.query<InvoiceRow>(
      `SELECT i.* FROM invoices i WHERE ${where.join(' AND ')} ORDER BY i.created_at DESC, i.id DESC LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`, p.values);
    // The list carries no payments (GET one invoice has them).
    return r.rows.map((row) => { const { clientAddress: _a, clientRegistration: _r, ...invoice } = invoiceOf(row, []); return invoice; });
  }

  /** Open balances the caller reaches, for the ageing. */
  async openBalances(db: Queryable, scope: AccessScope): Promise<{ clientId: number; clientName: string; currency: string; dueDate: string; balance: number }[]> {
    const p = new SqlParams();
    const r = await db.query<{ client_id: number; client_name: string; currency: string; due_date: string | Date; balance: unknown }>(
      `SELECT i.client_id, i.client_name, i.currency, i.due_date, i.total - i.amount_paid AS balance FROM invoices i
       WHERE i.status IN ('sent', 'partially_paid') AND ${reachable(scope, p)} ORDER BY i.client_name, i.client_id`, p.values);
    return r.rows.map((row) => ({ clientId: row.client_id, clientName: row.client_name, currency: row.currency, dueDate: day(row.due_date)!, balance: amount(row.balance) }));
  }

  // Payments

  async payments(db: Queryable, invoiceId: number): Promise<Payment[]> {
    const r = await db.query<{ id: number; amount: unknown; method: PaymentMethod; received_on: string | Date; reference: string | null; recorded_at: Date }>(
      'SELECT * FROM invoice_payments WHERE invoice_id = $1 ORDER BY id', [invoiceId]);
    return r.rows.map((x) => ({ id: x.id, amount: amount(x.amount), method: x.method, receivedOn: day(x.received_on)!, reference: x.reference, recordedAt: iso(x.recorded_at)! }));
  }

  /** Whether a provider payment with this reference (a Checkout Session) is recorded. */
  async hasProviderPayment(tx: Queryable, reference: string): Promise<boolean> {
    return (await tx.query(`SELECT 1 FROM invoice_payments WHERE reference = $1 AND provider_event_id IS NOT NULL`, [reference])).rows.length > 0;
  }

  /** Records a payment; false when a provider event with this id was already recorded (a replayed webhook). */
  async addPayment(tx: Queryable, invoiceId: number, p: { amount: number; method: PaymentMethod; receivedOn: string; reference: string | null; providerEventId: string | null; recordedById: number | null }): Promise<boolean> {
    const r = await tx.query(
      `INSERT INTO invoice_payments (invoice_id, amount, method, received_on, reference, provider_event_id, recorded_by_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (provider_event_id) DO NOTHING`,
      [invoiceId, p.amount, p.method, p.receivedOn, p.reference, p.providerEventId, p.recordedById]);
    if ((r.rowCount ?? 0) === 0) return false;
    await tx.query('UPDATE invoices SET amount_paid = amount_paid + $1, updated_at = now() WHERE id = $2', [p.amount, invoiceId]);
    return true;
  }
}
