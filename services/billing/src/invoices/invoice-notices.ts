import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { usersReaching } from '@ledgerline/kit/access/users-reaching.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { queueMails } from '@ledgerline/kit/mail/mail-job.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import type { Mail } from '@ledgerline/kit/mail/mailer.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { INVOICE_CHANGED, type Invoice, type InvoiceAction, type InvoiceChanged, type PaymentMethod } from '@ledgerline/contracts/billing.contracts.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import type { BillingFirm } from './invoice.service.ts';

/** Who did it: a signed-in user, or the System (the provider's webhook, the scheduler). */
export interface InvoiceActor { id: number; name: string }

const METHOD_NAMES: Record<PaymentMethod, string> = { cheque: 'cheque', cash: 'cash', bank_transfer: 'bank transfer', card: 'card', bank_debit: 'bank debit' };

/** What a reminder says of the due date, by where today is against it. */
export type ReminderPhase = 'before' | 'due' | 'overdue';

/**
 * What billing tells the world when an invoice moves, inside the transaction that moves it:
 * the outbox event (activity entries and pushes follow it, once, whichever replica) and the
 * e-mails to the client's users through kit's one mailer (queued: sent only if it commits).
 * Invoices, receipts and reminders are about money owed or paid, not notifications: no
 * e-mail preference turns them off (docs/using/billing.md).
 */
export class InvoiceNotices {
  readonly #jobs: JobQueue;
  readonly #userAccess: UserAccessReadModel;
  readonly #invoiceUrl: (shortName: string, invoiceId: number) => string;

  constructor(deps: { jobs: JobQueue; userAccess: UserAccessReadModel; invoiceUrl: (shortName: string, invoiceId: number) => string }) {
    this.#jobs = deps.jobs;
    this.#userAccess = deps.userAccess;
    this.#invoiceUrl = deps.invoiceUrl;
  }

  /** The outbox event of a change; `payment` for paid / partially_paid. */
  async changed(tx: Queryable, shortName: string, invoice: Invoice, action: InvoiceAction, actor: InvoiceActor, payment?: { amount: number; method: PaymentMethod }): Promise<void> {
    const change: InvoiceChanged = {
      invoiceId: invoice.id, number: invoice.number ?? '', clientId: invoice.clientId, clientName: invoice.clientName, action, status: invoice.status,
      currency: invoice.currency, total: invoice.total, amountPaid: invoice.amountPaid, balance: invoice.balance,
      ...(payment ? { payment } : {}), actorId: actor.id, actorName: actor.name,
    };
    await enqueueEvents(tx, [newEvent<InvoiceChanged>(INVOICE_CHANGED, shortName, change)]);
  }

  /** The invoice e-mail on sending: what is owed, by when, and a link that opens it in the portal. */
  async sent(tx: Queryable, firm: BillingFirm & { shortName: string }, invoice: Invoice, how: { onlinePayments: boolean; bankDetails: string | null }): Promise<void> {
    const money = (n: number) => formatMinorUnits(n, invoice.currency);
    await this.#mail(tx, firm, invoice, {
      subject: `Invoice ${invoice.number} from ${firm.name}`,
      paragraphs: [
        `${firm.name} has sent ${invoice.clientName} invoice ${invoice.number} for ${money(invoice.total)}, due ${clientDate(invoice.dueDate!, firm.country)}.`,
        ...this.#howToPay(invoice, how),
      ],
      label: 'View invoice',
    });
  }

  /** A receipt for a payment recorded (by staff, or the provider's webhook). */
  async receipt(tx: Queryable, firm: BillingFirm & { shortName: string }, invoice: Invoice, payment: { amount: number; method: PaymentMethod; receivedOn: string }): Promise<void> {
    const money = (n: number) => formatMinorUnits(n, invoice.currency);
    await this.#mail(tx, firm, invoice, {
      subject: `Receipt: ${money(payment.amount)} paid on invoice ${invoice.number}`,
      paragraphs: [
        `${firm.name} received ${money(payment.amount)} by ${METHOD_NAMES[payment.method]} on ${clientDate(payment.receivedOn, firm.country)} for invoice ${invoice.number}. Thank you.`,
        invoice.balance > 0 ? `${money(invoice.balance)} of ${money(invoice.total)} is still to pay, due ${clientDate(invoice.dueDate!, firm.country)}.` : `Invoice ${invoice.number} (${money(invoice.total)}) is paid in full.`,
      ],
      label: 'View invoice',
    });
  }

  /** A reminder of an unpaid balance. */
  async reminder(tx: Queryable, firm: BillingFirm & { shortName: string }, invoice: Invoice, phase: ReminderPhase, how: { onlinePayments: boolean; bankDetails: string | null }): Promise<void> {
    const money = formatMinorUnits(invoice.balance, invoice.currency);
    const due = clientDate(invoice.dueDate!, firm.country);
    const subject = {
      before: `Reminder: invoice ${invoice.number} is due ${due}`,
      due: `Invoice ${invoice.number} is due today`,
      overdue: `Overdue: invoice ${invoice.number} was due ${due}`,
    }[phase];
    await this.#mail(tx, firm, invoice, {
      subject,
      paragraphs: [`${money} is still to pay on invoice ${invoice.number} from ${firm.name} to ${invoice.clientName}, due ${due}.`, ...this.#howToPay(invoice, how)],
      label: 'View invoice',
      footer: 'Reminders stop once the invoice is paid. If you have paid already, thank you: the payment may not be recorded yet.',
    });
  }

  #howToPay(invoice: Invoice, how: { onlinePayments: boolean; bankDetails: string | null }): string[] {
    if (how.onlinePayments) return ['Open the invoice to pay it by card (or bank debit where offered), or to download its PDF.'];
    return [how.bankDetails ? `Please pay by bank transfer to: ${how.bankDetails.replace(/\s*\n\s*/g, ', ')}, quoting ${invoice.number}.` : `Please pay quoting ${invoice.number}.`];
  }

  /** One mail to each of the client's own users with an address; staff are not mailed. */
  async #mail(tx: Queryable, firm: BillingFirm & { shortName: string }, invoice: Invoice, m: { subject: string; paragraphs: string[]; label: string; footer?: string }): Promise<void> {
    const clientUsers = (await usersReaching(tx, this.#userAccess.table, invoice.clientId)).filter((u) => u.isClient);
    const mails: Mail[] = [];
    for (const user of clientUsers) {
      const to = (await this.#userAccess.mailbox(tx, user.userId))?.to;
      if (!to) continue;
      mails.push(firmMail({
        to, firmName: firm.name, subject: m.subject, paragraphs: m.paragraphs,
        link: { label: m.label, url: this.#invoiceUrl(firm.shortName, invoice.id) },
        footer: m.footer ?? `You receive this as a portal user of ${invoice.clientName} with ${firm.name}.`,
      }));
    }
    await queueMails(this.#jobs, tx, mails);
  }
}
