import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { reminderTimeOn } from '@ledgerline/kit/scheduler/reminder-time.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { SignatureStore } from '../store/signature.store.ts';
import { expireRequest } from './signing.service.ts';
import type { SignerNotices } from './signer-notices.ts';

export const SIGNATURE_REMINDER_JOB = 'signature.reminder';
export const SIGNATURE_OVERDUE_JOB = 'signature.overdue';
const reminderKey = (id: number) => `signature-reminder:${id}`;
const overdueKey = (id: number) => `signature-overdue:${id}`;
const requestIdOf = (payload: unknown) => (payload as { requestId: number }).requestId;

/** What reminders need of a firm: its name for the e-mails and its zone for 09:00. */
export interface ReminderFirm { name: string; timeZone: string }

/** Drops a request's pending reminder and overdue notice (it completed, was declined or voided, or expired). */
export async function disarmSignatureReminders(jobs: JobQueue, tx: Queryable, requestId: number): Promise<void> {
  await jobs.cancelMany(tx, [reminderKey(requestId), overdueKey(requestId)]);
}

/**
 * Chasing signers like document requests (DESIGN §9: one cadence for requests, organizers,
 * signatures and invoices), on kit's durable scheduler so each goes once across replicas and
 * restarts: while a request waits, every reminderEveryDays at 09:00 in the firm's zone the
 * signers whose turn it is and who have not signed are e-mailed again (a link signer with a
 * new link); the day after the due date, at 09:00, the request expires (its links end) and
 * the staff member who sent it gets one overdue notice naming who has not signed. Nothing
 * once it is completed, declined, voided or expired: the jobs are dropped then, and a job
 * that still comes round finds the request no longer waiting and stops.
 */
export class SignatureReminders {
  readonly #store: SignatureStore;
  readonly #jobs: JobQueue;
  readonly #notices: SignerNotices;
  readonly #users: UserAccessReadModel;
  readonly #firm: (shortName: string) => Promise<ReminderFirm>;

  constructor(deps: { store: SignatureStore; jobs: JobQueue; notices: SignerNotices; users: UserAccessReadModel; firm: (shortName: string) => Promise<ReminderFirm> }) {
    this.#store = deps.store;
    this.#jobs = deps.jobs;
    this.#notices = deps.notices;
    this.#users = deps.users;
    this.#firm = deps.firm;
  }

  handlers(): Record<string, JobHandler> {
    return {
      [SIGNATURE_REMINDER_JOB]: (tx, job, tenant) => this.#remind(tx, tenant.shortName, requestIdOf(job.payload)),
      [SIGNATURE_OVERDUE_JOB]: (tx, job, tenant) => this.#overdue(tx, tenant.shortName, requestIdOf(job.payload)),
    };
  }

  /** On sending: the first reminder reminderEveryDays from `from` (none without a cadence), the overdue notice the day after the due date (none without one). */
  async arm(tx: Queryable, firm: ReminderFirm, r: { id: number; dueDate: string | null; reminderEveryDays: number | null }, from = Date.now()): Promise<void> {
    await this.#jobs.scheduleMany(tx, [
      ...(r.reminderEveryDays ? [{ kind: SIGNATURE_REMINDER_JOB, key: reminderKey(r.id), runAt: nextReminder(firm.timeZone, r.reminderEveryDays, from), payload: { requestId: r.id } }] : []),
      ...(r.dueDate ? [{ kind: SIGNATURE_OVERDUE_JOB, key: overdueKey(r.id), runAt: reminderTimeOn(addDays(r.dueDate, 1), firm.timeZone), payload: { requestId: r.id } }] : []),
    ]);
  }

  disarm(tx: Queryable, requestId: number): Promise<void> {
    return disarmSignatureReminders(this.#jobs, tx, requestId);
  }

  async #remind(tx: Queryable, shortName: string, requestId: number): Promise<void> {
    const request = await this.#store.find(tx, requestId);
    if (!request || request.status !== 'sent' || !request.reminderEveryDays) return;
    const firm = await this.#firm(shortName);
    await this.#store.event(tx, requestId, { action: 'reminded', actor: 'system', detail: `every ${request.reminderEveryDays} days` });
    await this.#notices.notifyDue(tx, shortName, requestId, true, firm.name);
    // The scheduler deletes the row it ran by id: the next reminder is a new row, not this one moved.
    await this.#jobs.cancel(tx, reminderKey(requestId));
    await this.#jobs.schedule(tx, { kind: SIGNATURE_REMINDER_JOB, key: reminderKey(requestId), runAt: nextReminder(firm.timeZone, request.reminderEveryDays, Date.now()), payload: { requestId } });
  }

  async #overdue(tx: Queryable, shortName: string, requestId: number): Promise<void> {
    const request = await this.#store.find(tx, requestId);
    if (!request || request.status !== 'sent') return;
    const firm = await this.#firm(shortName);
    await disarmSignatureReminders(this.#jobs, tx, requestId);
    await expireRequest(tx, shortName, this.#store, request);
    const waiting = request.signers.filter((s) => s.status === 'pending').map((s) => `${s.name} (${s.role})`);
    const creator = await this.#users.mailbox(tx, request.createdById);
    if (!creator?.to) return;
    await queueMail(this.#jobs, tx, firmMail({
      to: creator.to, firmName: firm.name, subject: `Not signed by the due date: ${request.title}`,
      paragraphs: [
        `"${request.title}" for ${request.clientName} was due on ${request.dueDate} and has not been signed by ${waiting.join(', ') || 'every signer'}.`,
        'The request has expired and its links no longer work. Send a new request to ask again.',
      ],
      footer: 'You received this because you sent this signature request.',
    }));
  }
}

const nextReminder = (timeZone: string, everyDays: number, from: number): Date =>
  reminderTimeOn(addDays(todayIn(timeZone, new Date(from)), everyDays), timeZone);
