import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { reminderTimeOn } from '@ledgerline/kit/scheduler/reminder-time.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { BillingFirm } from './invoice.service.ts';
import type { InvoiceNotices, ReminderPhase } from './invoice-notices.ts';
import type { InvoiceStore, SettingsRow } from './invoice.store.ts';

export const INVOICE_REMINDER_JOB = 'invoice.reminder';
export const invoiceReminderKey = (invoiceId: number) => `invoice-reminder:${invoiceId}`;

/** The invoice, and the day (firm's zone) the reminder was meant for. */
interface ReminderPayload { invoiceId: number; date?: string }

type Cadence = Pick<SettingsRow, 'remindersEnabled' | 'reminderDaysBefore' | 'reminderEveryDaysAfter'>;

/**
 * The next reminder of a balance due on `dueDate`, after `now`: `reminderDaysBefore` days
 * before it (0: none), on it, then every `reminderEveryDaysAfter` days (0: none after), each
 * at 09:00 in the firm's zone. Null when reminders are off or none is left to send.
 */
export function nextReminder(dueDate: string, cadence: Cadence, timeZone: string, now: Date): { date: string; runAt: Date; phase: ReminderPhase } | null {
  if (!cadence.remindersEnabled) return null;
  const at = (date: string) => reminderTimeOn(date, timeZone);
  const candidates: { date: string; phase: ReminderPhase }[] = [];
  if (cadence.reminderDaysBefore > 0) candidates.push({ date: addDays(dueDate, -cadence.reminderDaysBefore), phase: 'before' });
  candidates.push({ date: dueDate, phase: 'due' });
  for (const c of candidates) if (at(c.date) > now) return { ...c, runAt: at(c.date) };
  const every = cadence.reminderEveryDaysAfter;
  if (every <= 0) return null;
  // The first step after both now and the due date (whole days in the firm's zone).
  const today = todayIn(timeZone, now);
  const daysPast = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${dueDate}T00:00:00Z`)) / 86_400_000);
  let steps = Math.max(1, Math.floor(daysPast / every));
  while (at(addDays(dueDate, steps * every)) <= now) steps++;
  const date = addDays(dueDate, steps * every);
  return { date, runAt: at(date), phase: 'overdue' };
}

/**
 * Reminders of unpaid invoices on kit's durable scheduler (one job per open invoice, keyed by
 * it, so each goes once across replicas and restarts): armed when the invoice is sent,
 * re-armed for the next step after each one runs, dropped when it is paid or voided (and a
 * reminder that comes round for an invoice no longer open sends nothing).
 */
export class InvoiceReminders {
  readonly #store: InvoiceStore;
  readonly #jobs: JobQueue;
  readonly #notices: InvoiceNotices;
  readonly #firm: (shortName: string) => Promise<BillingFirm>;
  readonly #onlinePayments: boolean;

  constructor(deps: { store: InvoiceStore; jobs: JobQueue; notices: InvoiceNotices; firm: (shortName: string) => Promise<BillingFirm>; onlinePayments: boolean }) {
    this.#store = deps.store;
    this.#jobs = deps.jobs;
    this.#notices = deps.notices;
    this.#firm = deps.firm;
    this.#onlinePayments = deps.onlinePayments;
  }

  handlers(): Record<string, JobHandler> {
    return { [INVOICE_REMINDER_JOB]: (tx, job, tenant) => this.#remind(tx, tenant.shortName, job.payload as ReminderPayload) };
  }

  /** Schedules the invoice's next reminder after `now` (or none, by the firm's cadence). */
  async arm(tx: Queryable, firm: BillingFirm, invoice: { id: number; dueDate: string }, now = new Date()): Promise<void> {
    const next = nextReminder(invoice.dueDate, await this.#store.settings(tx), firm.timeZone, now);
    await this.#jobs.cancel(tx, invoiceReminderKey(invoice.id));
    if (next) await this.#jobs.schedule(tx, { kind: INVOICE_REMINDER_JOB, key: invoiceReminderKey(invoice.id), runAt: next.runAt, payload: { invoiceId: invoice.id, date: next.date } satisfies ReminderPayload });
  }

  async disarm(tx: Queryable, invoiceId: number): Promise<void> {
    await this.#jobs.cancel(tx, invoiceReminderKey(invoiceId));
  }

  async #remind(tx: Queryable, shortName: string, job: ReminderPayload): Promise<void> {
    const invoice = await this.#store.get(tx, job.invoiceId, PLATFORM_ADMIN_SCOPE, true);
    if (!invoice || (invoice.status !== 'sent' && invoice.status !== 'partially_paid') || invoice.balance <= 0 || !invoice.dueDate) return;
    const f = await this.#firm(shortName);
    const settings = await this.#store.settings(tx);
    if (!settings.remindersEnabled) return;
    // The day it was meant for, or today when it runs late (the service was down): what the mail says of the due date.
    const today = todayIn(f.timeZone);
    const day = job.date && job.date > today ? job.date : today;
    const phase: ReminderPhase = day < invoice.dueDate ? 'before' : day === invoice.dueDate ? 'due' : 'overdue';
    await this.#notices.reminder(tx, { ...f, shortName }, invoice, phase, { onlinePayments: this.#onlinePayments, bankDetails: settings.bankDetails });
    // The next step comes after this one's time (never this one again), counted from now if later.
    // The scheduler deletes the row it ran by id after this: the next reminder is a new row.
    const after = job.date ? reminderTimeOn(job.date, f.timeZone).getTime() + 1 : 0;
    await this.arm(tx, f, { id: invoice.id, dueDate: invoice.dueDate }, new Date(Math.max(Date.now(), after)));
  }
}
