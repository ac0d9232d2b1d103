import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { NotFound, Invalid } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import {
  RECURRING_MESSAGES, type InvoiceFrequency, type InvoiceSchedule, type invoiceScheduleInputSchema,
} from '@ledgerline/contracts/billing.contracts.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import { invoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import type { z } from 'zod';
import { requireBillingAdmin, requireStaff } from '../access-rules.ts';
import type { BillingFirm, InvoiceService } from './invoice.service.ts';
import type { InvoiceStore } from './invoice.store.ts';

export const RECURRING_JOB = 'invoice.recurring';
const ISSUE_TIME = '09:00';
export const recurringKey = (templateId: number) => `invoice-recurring:${templateId}`;
const MONTHS: Record<InvoiceFrequency, number> = { monthly: 1, quarterly: 3 };

/**
 * The issue date after `date`, `frequency` later, on the anchor day (the first issue's day of
 * the month), or the month's last day when it has fewer: 31 Jan, 28 Feb, 31 Mar.
 */
export function nextIssueDate(date: string, frequency: InvoiceFrequency, anchorDay: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const months = y * 12 + (m - 1) + MONTHS[frequency];
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(anchorDay, lastDay)).padStart(2, '0')}`;
}

interface ScheduleRow {
  template_id: number; frequency: InvoiceFrequency; next_issue_date: string | Date; anchor_day: number; due_in_days: number | null; active: boolean;
  paused_reason: string | null; last_invoice_id: number | null; last_issued_on: string | Date | null; created_at: Date; updated_at: Date;
}
const day = (v: string | Date | null) => (v === null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const scheduleOf = (r: ScheduleRow): InvoiceSchedule => ({
  templateId: r.template_id, frequency: r.frequency, nextIssueDate: day(r.next_issue_date)!, dueInDays: r.due_in_days, active: r.active, pausedReason: r.paused_reason,
  lastInvoiceId: r.last_invoice_id, lastIssuedOn: day(r.last_issued_on), createdAt: new Date(r.created_at).toISOString(), updatedAt: new Date(r.updated_at).toISOString(),
});

/**
 * Recurring invoices (monthly or quarterly bookkeeping): a schedule on a draft, which stays a
 * draft and is the template. On kit's durable scheduler, at 09:00 in the firm's zone on each
 * issue date, a copy is numbered and sent like any invoice (its e-mail, event and reminders),
 * once across replicas and restarts: the job, the copy and the schedule's next date commit
 * together. Sending or deleting the template stops it.
 */
export class RecurringInvoices {
  readonly #store: InvoiceStore;
  readonly #service: InvoiceService;
  readonly #jobs: JobQueue;
  readonly #firm: (shortName: string) => Promise<BillingFirm>;
  readonly #logger: Logger;

  constructor(deps: { store: InvoiceStore; service: InvoiceService; jobs: JobQueue; firm: (shortName: string) => Promise<BillingFirm>; logger: Logger }) {
    this.#store = deps.store;
    this.#service = deps.service;
    this.#jobs = deps.jobs;
    this.#firm = deps.firm;
    this.#logger = deps.logger;
  }

  handlers(): Record<string, JobHandler> {
    return { [RECURRING_JOB]: (tx, job, tenant) => this.#issue(tx, tenant.shortName, job.payload as { templateId: number; issueDate: string }) };
  }

  async get(t: TenantRequest, templateId: number): Promise<InvoiceSchedule> {
    requireStaff(t.scope);
    await this.#service.get(t, templateId);
    const row = await this.#row(t.db, templateId);
    if (!row) throw new NotFound(RECURRING_MESSAGES.notFound);
    return scheduleOf(row);
  }

  /** Sets (or replaces) the draft's schedule and arms its next issue (Admin). */
  async set(t: TenantRequest, templateId: number, body: z.output<typeof invoiceScheduleInputSchema>): Promise<InvoiceSchedule> {
    requireBillingAdmin(t.scope);
    const firm = await this.#firm(t.shortName);
    if (body.nextIssueDate < todayIn(firm.timeZone)) throw new Invalid(RECURRING_MESSAGES.pastDate);
    await this.#service.prepareTemplate(t, templateId);
    await t.db.transaction((tx) => this.save(tx, firm, templateId, body, t.claims.platformAdmin ? null : Number(t.claims.sub)));
    return this.get(t, templateId);
  }

  /** Stores the schedule of a prepared template and arms its next issue, in the caller's transaction. */
  async save(tx: Queryable, firm: BillingFirm, templateId: number, body: z.output<typeof invoiceScheduleInputSchema>, createdById: number | null): Promise<void> {
    await tx.query(
      `INSERT INTO invoice_schedules (template_id, frequency, next_issue_date, anchor_day, due_in_days, created_by_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (template_id) DO UPDATE SET frequency = EXCLUDED.frequency, next_issue_date = EXCLUDED.next_issue_date, anchor_day = EXCLUDED.anchor_day,
         due_in_days = EXCLUDED.due_in_days, active = true, paused_reason = NULL, updated_at = now()`,
      [templateId, body.frequency, body.nextIssueDate, Number(body.nextIssueDate.slice(8, 10)), body.dueInDays, createdById]);
    await this.#arm(tx, firm, templateId, body.nextIssueDate);
  }

  /** The schedule as stored (tests and the handler). */
  async schedule(db: Queryable, templateId: number): Promise<InvoiceSchedule | null> {
    const row = await this.#row(db, templateId);
    return row ? scheduleOf(row) : null;
  }

  /** Stops the schedule (Admin); the template stays a draft, and invoices issued stay. */
  async stop(t: TenantRequest, templateId: number): Promise<{ message: string }> {
    requireBillingAdmin(t.scope);
    await this.#service.get(t, templateId);
    await t.db.transaction(async (tx) => {
      const r = await tx.query('DELETE FROM invoice_schedules WHERE template_id = $1', [templateId]);
      if ((r.rowCount ?? 0) === 0) throw new NotFound(RECURRING_MESSAGES.notFound);
      await this.#jobs.cancel(tx, recurringKey(templateId));
    });
    return { message: RECURRING_MESSAGES.stopped };
  }

  async #row(db: Queryable, templateId: number, lock = false): Promise<ScheduleRow | null> {
    return (await db.query<ScheduleRow>(`SELECT * FROM invoice_schedules WHERE template_id = $1${lock ? ' FOR UPDATE' : ''}`, [templateId])).rows[0] ?? null;
  }

  async #arm(tx: Queryable, firm: BillingFirm, templateId: number, issueDate: string): Promise<void> {
    await this.#jobs.cancel(tx, recurringKey(templateId));
    await this.#jobs.schedule(tx, { kind: RECURRING_JOB, key: recurringKey(templateId), runAt: instantAt(issueDate, ISSUE_TIME, firm.timeZone), payload: { templateId, issueDate } });
  }

  /** One issue: a copy of the template, dated `issueDate`, sent; then the next is armed. */
  async #issue(tx: Queryable, shortName: string, job: { templateId: number; issueDate: string }): Promise<void> {
    const schedule = await this.#row(tx, job.templateId, true);
    // Stopped, or moved to another date since this job was armed: nothing to do here.
    if (!schedule?.active || day(schedule.next_issue_date) !== job.issueDate) return;
    const template = await this.#store.get(tx, job.templateId, PLATFORM_ADMIN_SCOPE, true);
    if (template?.status !== 'draft' || template.lines.length === 0) {
      await tx.query('UPDATE invoice_schedules SET active = false, paused_reason = $2, updated_at = now() WHERE template_id = $1', [job.templateId, RECURRING_MESSAGES.templateSent]);
      return;
    }
    const firm = await this.#firm(shortName);
    const settings = await this.#store.settings(tx);
    const dueDate = addDays(job.issueDate, schedule.due_in_days ?? settings.paymentTermsDays);
    const totals = invoiceTotals(template.lines, { country: firm.country, firmState: settings.state, clientState: template.clientState });
    const id = await this.#store.insert(tx, {
      clientId: template.clientId, clientName: template.clientName, clientAddress: template.clientAddress, clientState: template.clientState,
      clientRegistration: template.clientRegistration, issueDate: job.issueDate, dueDate, currency: template.currency, country: template.country,
      totals, notes: template.notes, links: template.links,
    }, null);
    const sent = await this.#service.issue(tx, { ...firm, shortName }, id, SYSTEM_ACTOR);
    const next = nextIssueDate(job.issueDate, schedule.frequency, schedule.anchor_day);
    await tx.query(
      'UPDATE invoice_schedules SET next_issue_date = $2, last_invoice_id = $3, last_issued_on = $4, updated_at = now() WHERE template_id = $1',
      [job.templateId, next, id, job.issueDate]);
    await this.#arm(tx, firm, job.templateId, next);
    this.#logger.info({ tenant: shortName, templateId: job.templateId, invoiceId: id, number: sent.number }, 'recurring invoice issued');
  }
}

