import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { TAX_JURISDICTIONS } from '@ledgerline/contracts/billing-tax.ts';
import {
  AGEING_BUCKETS, BILLING_MESSAGES, invoiceInputSchema, invoiceListQuerySchema, invoiceUpdateSchema, paymentInputSchema,
  type AgeingBucket, type Invoice, type InvoiceLineValues, type Receivables, type ReceivablesRow,
} from '@ledgerline/contracts/billing.contracts.ts';
import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { invoiceTotals, type InvoiceLineInput, type InvoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import type { z } from 'zod';
import { requireBillingAdmin, requireStaff } from '../access-rules.ts';
import type { InvoiceStore, InvoiceValues, SettingsRow, StoredInvoice } from './invoice.store.ts';
import type { InvoiceActor, InvoiceNotices } from './invoice-notices.ts';
import type { InvoiceReminders } from './invoice-reminders.ts';

/** What billing needs of the firm (identity's firm list: name, country, zone). */
export interface BillingFirm { name: string; country: FirmCountry; currency: string; timeZone: string }

type Input = z.output<typeof invoiceInputSchema>;
type Update = z.output<typeof invoiceUpdateSchema>;

/** Invoices: drafts, sending (numbering), voiding, payments, ageing (issue 43). */
export class InvoiceService {
  readonly #store: InvoiceStore;
  readonly #firm: (shortName: string) => Promise<BillingFirm>;
  readonly #directory: DirectoryLookup;
  readonly #notices: InvoiceNotices;
  readonly #reminders: InvoiceReminders;
  readonly #onlinePayments: boolean;

  constructor(deps: {
    store: InvoiceStore; firm: (shortName: string) => Promise<BillingFirm>; directory: DirectoryLookup;
    notices: InvoiceNotices; reminders: InvoiceReminders; onlinePayments: boolean;
  }) {
    this.#store = deps.store;
    this.#firm = deps.firm;
    this.#directory = deps.directory;
    this.#notices = deps.notices;
    this.#reminders = deps.reminders;
    this.#onlinePayments = deps.onlinePayments;
  }

  static actorOf(t: TenantRequest): InvoiceActor {
    return { id: actorId(t.claims), name: actorName(t.claims) };
  }

  async list(t: TenantRequest, q: z.output<typeof invoiceListQuerySchema>): Promise<Invoice[]> {
    return this.#store.list(t.db, t.scope, q);
  }

  async get(t: TenantRequest, id: number): Promise<StoredInvoice> {
    const invoice = await this.#store.get(t.db, id, t.scope);
    if (!invoice) throw new NotFound(BILLING_MESSAGES.invoiceNotFound);
    return invoice;
  }

  /** The API's shape: what only the PDF prints stays out. */
  static shown(i: StoredInvoice): Invoice {
    const { clientAddress: _a, clientRegistration: _r, ...invoice } = i;
    return invoice;
  }

  async create(t: TenantRequest, body: Input): Promise<Invoice> {
    requireBillingAdmin(t.scope);
    const values = await this.#values(t, body.clientId, body);
    const id = await this.#store.insert(t.db, values, t.claims.platformAdmin ? null : Number(t.claims.sub));
    return InvoiceService.shown(await this.get(t, id));
  }

  async update(t: TenantRequest, id: number, body: Update): Promise<Invoice> {
    requireBillingAdmin(t.scope);
    const current = await this.#draft(t, id);
    const values = await this.#values(t, current.clientId, {
      lines: body.lines ?? current.lines, issueDate: body.issueDate !== undefined ? body.issueDate : current.issueDate,
      dueDate: body.dueDate !== undefined ? body.dueDate : current.dueDate, notes: body.notes !== undefined ? body.notes : current.notes,
      links: body.links ?? current.links,
    });
    await this.#store.update(t.db, id, values);
    return InvoiceService.shown(await this.get(t, id));
  }

  /**
   * The invoice as a draft with these values would print (the editor's live preview): the
   * same values create/update would store, computed the same way, but nothing is written and
   * no number is taken. India's recipient GSTIN is read from the client's tax IDs only on
   * sending (each read is a security event; a preview refreshed per keystroke would flood them).
   */
  async preview(t: TenantRequest, body: Input): Promise<StoredInvoice> {
    requireBillingAdmin(t.scope);
    const v = await this.#values(t, body.clientId, body);
    const now = new Date().toISOString();
    return {
      id: 0, number: null, status: 'draft', clientId: v.clientId, clientName: v.clientName, clientState: v.clientState, clientAddress: v.clientAddress,
      clientRegistration: v.country === 'IN' ? 'read from the client\'s tax IDs when sent' : null,
      issueDate: v.issueDate, dueDate: v.dueDate, currency: v.currency, country: v.country, lines: v.totals.lines.map((l) => ({ ...l, sacCode: l.sacCode ?? null })),
      subtotal: v.totals.subtotal, tax: v.totals.tax, total: v.totals.total, amountPaid: 0, balance: v.totals.total, taxSummary: v.totals.taxSummary,
      notes: v.notes, links: v.links, payments: [], sentAt: null, voidedAt: null, createdAt: now, updatedAt: now,
    };
  }

  async delete(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireBillingAdmin(t.scope);
    await this.#draft(t, id);
    await this.#store.delete(t.db, id);
    return { message: BILLING_MESSAGES.deleted };
  }

  /**
   * Sends a draft: the client's details are copied as they are now (their address, their
   * State: the place of supply), the totals recomputed with them, dates filled in, and the
   * next number taken, all in one transaction.
   */
  async send(t: TenantRequest, id: number): Promise<Invoice> {
    const { firm, values, settings } = await this.#readyToIssue(t, id);
    const issueDate = values.issueDate ?? todayIn(firm.timeZone);
    const dueDate = values.dueDate ?? addDays(issueDate, settings.paymentTermsDays);
    if (dueDate < issueDate) throw new Invalid('dueDate cannot be before issueDate');
    // Dates are years 1–9999 (the database's); the terms added to a far issue date could leave them.
    if (!/^\d{4}-/.test(dueDate)) throw new Invalid('dueDate must be a valid date (YYYY-MM-DD)');
    await t.db.transaction(async (tx) => {
      // The draft is re-read under a lock: two sends of one draft number it once.
      const locked = await this.#store.get(tx, id, t.scope, true);
      if (locked?.status !== 'draft') throw new Conflict(BILLING_MESSAGES.notSendable);
      await this.#store.update(tx, id, { ...values, issueDate, dueDate });
      await this.issue(tx, { ...firm, shortName: t.shortName }, id, InvoiceService.actorOf(t));
    });
    return InvoiceService.shown(await this.get(t, id));
  }

  /**
   * Numbers a locked draft whose dates are set and sends it, in the caller's transaction: the
   * event, the invoice e-mail and the first reminder exist only if it commits. Staff's send and
   * a recurring schedule's issue both come here.
   */
  async issue(tx: Queryable, firm: BillingFirm & { shortName: string }, id: number, actor: InvoiceActor): Promise<Invoice> {
    const { sequence, prefix } = await this.#store.takeNextSequence(tx);
    await this.#store.markSent(tx, id, { sequence, text: `${prefix}${String(sequence).padStart(4, '0')}` });
    const sent = (await this.#store.get(tx, id, PLATFORM_ADMIN_SCOPE))!;
    const settings = await this.#store.settings(tx);
    await this.#notices.changed(tx, firm.shortName, sent, 'sent', actor);
    await this.#notices.sent(tx, firm, sent, { onlinePayments: this.#onlinePayments, bankDetails: settings.bankDetails });
    await this.#reminders.arm(tx, firm, { id, dueDate: sent.dueDate! });
    return sent;
  }

  /**
   * Makes a draft ready to be a recurring invoice's template (Admin): it needs lines, the
   * client's details are copied as they are now (the scheduler has no user to ask the
   * directory with, so each issue copies them from here), and a tax invoice needs the firm's
   * registration, as for sending.
   */
  async prepareTemplate(t: TenantRequest, id: number): Promise<StoredInvoice> {
    const { values } = await this.#readyToIssue(t, id);
    await this.#store.update(t.db, id, values);
    return this.get(t, id);
  }

  async void(t: TenantRequest, id: number): Promise<Invoice> {
    requireBillingAdmin(t.scope);
    await t.db.transaction(async (tx) => {
      const invoice = await this.#store.get(tx, id, t.scope, true);
      if (!invoice) throw new NotFound(BILLING_MESSAGES.invoiceNotFound);
      if (invoice.status !== 'sent' && invoice.status !== 'partially_paid') throw new Conflict(invoice.status === 'draft' ? 'A draft is deleted, not voided' : BILLING_MESSAGES.notVoidable);
      await this.#store.setStatus(tx, id, 'void');
      await this.#reminders.disarm(tx, id);
      await this.#notices.changed(tx, t.shortName, (await this.#store.get(tx, id, t.scope))!, 'voided', InvoiceService.actorOf(t));
    });
    return InvoiceService.shown(await this.get(t, id));
  }

  async recordPayment(t: TenantRequest, id: number, body: z.output<typeof paymentInputSchema>): Promise<Invoice> {
    requireBillingAdmin(t.scope);
    const firm = await this.#firm(t.shortName);
    await this.applyPayment(t.db, t.shortName, id, t.scope, {
      amount: body.amount, method: body.method, receivedOn: body.receivedOn ?? todayIn(firm.timeZone), reference: body.reference,
      providerEventId: null, recordedById: t.claims.platformAdmin ? null : Number(t.claims.sub),
    }, InvoiceService.actorOf(t));
    return InvoiceService.shown(await this.get(t, id));
  }

  /**
   * A payment against an open invoice (staff's, or the provider's webhook): partial leaves it
   * partially_paid, the whole balance paid. Staff may not record more than the balance, nor on
   * an invoice that is not open. Money the provider took is recorded whatever happened since
   * (a cheque recorded meanwhile, a void): it was paid, and refusing would only make the
   * provider retry. False when that provider payment was recorded before (a replayed event,
   * or another event of the same checkout). A recorded payment is announced (event, receipt to
   * the client's users) in its transaction; once nothing is owed, reminders stop.
   */
  async applyPayment(db: TenantRequest['db'], shortName: string, id: number, scope: TenantRequest['scope'], p: Parameters<InvoiceStore['addPayment']>[2], actor: InvoiceActor): Promise<boolean> {
    const fromProvider = p.providerEventId !== null;
    const firm = await this.#firm(shortName);
    return db.transaction(async (tx) => {
      const invoice = await this.#store.get(tx, id, scope, true);
      if (!invoice) throw new NotFound(BILLING_MESSAGES.invoiceNotFound);
      const open = invoice.status === 'sent' || invoice.status === 'partially_paid';
      if (!fromProvider && !open) throw new Conflict(BILLING_MESSAGES.notPayable);
      if (!fromProvider && p.amount > invoice.balance) throw new Invalid(BILLING_MESSAGES.overpayment);
      if (fromProvider && p.reference && await this.#store.hasProviderPayment(tx, p.reference)) return false;
      if (!await this.#store.addPayment(tx, id, p)) return false;
      if (open) await this.#store.setStatus(tx, id, p.amount >= invoice.balance ? 'paid' : 'partially_paid');
      const after = (await this.#store.get(tx, id, scope))!;
      if (after.balance <= 0 || !open) await this.#reminders.disarm(tx, id);
      await this.#notices.changed(tx, shortName, after, after.balance <= 0 ? 'paid' : 'partially_paid', actor, { amount: p.amount, method: p.method });
      await this.#notices.receipt(tx, { ...firm, shortName }, after, p);
      return true;
    });
  }

  /** Open balances per client by days past due, in the firm's zone: current (not yet due), 1–30, 31–60, 61–90, over 90. */
  async receivables(t: TenantRequest): Promise<Receivables> {
    requireStaff(t.scope);
    const firm = await this.#firm(t.shortName);
    const today = todayIn(firm.timeZone);
    const empty = (): Record<AgeingBucket, number> => Object.fromEntries(AGEING_BUCKETS.map((b) => [b, 0])) as Record<AgeingBucket, number>;
    const rows = new Map<number, ReceivablesRow>();
    const totals = { ...empty(), total: 0 };
    for (const open of await this.#store.openBalances(t.db, t.scope)) {
      const bucket = ageingBucket(open.dueDate, today);
      const row = rows.get(open.clientId) ?? { clientId: open.clientId, clientName: open.clientName, currency: open.currency, buckets: empty(), total: 0 };
      row.buckets[bucket] += open.balance;
      row.total += open.balance;
      totals[bucket] += open.balance;
      totals.total += open.balance;
      rows.set(open.clientId, row);
    }
    return { asOf: today, currency: firm.currency, clients: [...rows.values()], totals };
  }

  /**
   * What sending a draft and making it a recurring template both check (Admin): the draft has
   * lines, its values recomputed with the client's details as they are now, and a tax invoice
   * has the firm's registration.
   */
  async #readyToIssue(t: TenantRequest, id: number): Promise<{ firm: BillingFirm; values: InvoiceValues; settings: SettingsRow }> {
    requireBillingAdmin(t.scope);
    const draft = await this.#draft(t, id);
    if (draft.lines.length === 0) throw new Invalid(BILLING_MESSAGES.noLines);
    const firm = await this.#firm(t.shortName);
    const values = await this.#values(t, draft.clientId, draft, { withRegistration: true });
    const rule = TAX_JURISDICTIONS[firm.country];
    const settings = await this.#store.settings(t.db);
    if (values.totals.tax > 0 && rule.registration && !settings.taxRegistration) throw new Invalid(BILLING_MESSAGES.registrationMissing(rule.registration.label));
    return { firm, values, settings };
  }

  async #draft(t: TenantRequest, id: number): Promise<StoredInvoice> {
    const invoice = await this.get(t, id);
    if (invoice.status !== 'draft') throw new Conflict(BILLING_MESSAGES.draftOnly);
    return invoice;
  }

  /** An invoice's values from its input: lines completed from the price list, taxed for the client's place. */
  async #values(t: TenantRequest, clientId: number, body: { lines: readonly (InvoiceLineValues | InvoiceLineInput)[]; issueDate: string | null; dueDate: string | null; notes: string | null; links: Invoice['links'] }, options: { withRegistration?: boolean } = {}): Promise<InvoiceValues> {
    const firm = await this.#firm(t.shortName);
    const settings = await this.#store.settings(t.db);
    const client = await this.#directory.clientRecord(t, clientId);
    const clientState = client.state ?? null;
    const lines: InvoiceLineInput[] = [];
    for (const line of body.lines) lines.push(await this.#line(t, line, firm.country, settings, clientState));
    let totals: InvoiceTotals;
    try {
      totals = invoiceTotals(lines, { country: firm.country, firmState: settings.state, clientState });
    } catch (e) {
      throw new Invalid(e instanceof Error ? e.message : String(e));
    }
    if (body.issueDate && body.dueDate && body.dueDate < body.issueDate) throw new Invalid('dueDate cannot be before issueDate');
    // India: the recipient's GSTIN, when registered, is printed on the tax invoice (CGST Rules r 46(e)).
    const clientRegistration = options.withRegistration && firm.country === 'IN'
      ? (await this.#directory.clientTaxIds(t, clientId)).find((x) => x.type === 'gstin')?.value ?? null
      : null;
    return {
      clientId, clientName: client.name, clientAddress: client.address || null, clientState, clientRegistration,
      issueDate: body.issueDate, dueDate: body.dueDate, currency: firm.currency, country: firm.country, totals, notes: body.notes, links: body.links,
    };
  }

  async #line(t: TenantRequest, line: InvoiceLineValues | InvoiceLineInput, country: FirmCountry, settings: SettingsRow, clientState: string | null): Promise<InvoiceLineInput> {
    // The price list fills only what the line leaves out: a written line keeps its values even after its service is removed.
    const needsService = line.unitPrice === undefined || line.taxRate === undefined || !('sacCode' in line);
    const service = line.serviceId && needsService ? await this.#store.service(t.db, line.serviceId) : null;
    if (line.serviceId && needsService && !service) throw new Invalid(BILLING_MESSAGES.serviceNotFound);
    // A firm not registered for VAT/GST charges none (and issues no tax invoice); the US has no registration here, only the rate it sets.
    const registered = !TAX_JURISDICTIONS[country].registration || !!settings.taxRegistration;
    const standard = country === 'US' ? settings.salesTaxRatePercent : registered ? TAX_JURISDICTIONS[country].standardRatePercent(clientState, settings.state) : 0;
    const taxRate = line.taxRate ?? (service && service.taxTreatment !== 'standard' ? 0 : standard);
    return {
      description: line.description, serviceId: line.serviceId ?? null, quantity: line.quantity ?? 1,
      unitPrice: line.unitPrice ?? service?.defaultPrice ?? 0, taxRate,
      sacCode: ('sacCode' in line ? line.sacCode : null) ?? service?.sacCode ?? null,
    };
  }
}

/** The ageing bucket of a balance due on `dueDate`, seen on `today` (both YYYY-MM-DD). */
export function ageingBucket(dueDate: string, today: string): AgeingBucket {
  const daysPast = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${dueDate}T00:00:00Z`)) / 86_400_000);
  if (daysPast <= 0) return 'current';
  if (daysPast <= 30) return 'days1to30';
  if (daysPast <= 60) return 'days31to60';
  if (daysPast <= 90) return 'days61to90';
  return 'over90';
}
