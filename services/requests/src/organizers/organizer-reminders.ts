import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { reminderTimeOn } from '@ledgerline/kit/scheduler/reminder-time.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { Firm } from '../requests/request-reminders.ts';
import type { RequestStore } from '../requests/request.store.ts';
import type { OrganizerStore } from './organizer.store.ts';

export const ORGANIZER_REMINDER_JOB = 'organizer.reminder';
const reminderKey = (id: number) => `organizer-reminder:${id}`;

/**
 * Chasing an organizer's answers with the document requests' cadence (request-reminders.ts):
 * on kit's durable scheduler, every reminderEveryDays at 09:00 in the firm's zone while it is
 * sent or in progress; nothing once submitted.
 */
export class OrganizerReminders {
  readonly #store: OrganizerStore;
  readonly #requests: RequestStore;
  readonly #jobs: JobQueue;
  readonly #firm: (shortName: string) => Promise<Firm>;

  constructor(deps: { store: OrganizerStore; requests: RequestStore; jobs: JobQueue; firm: (shortName: string) => Promise<Firm> }) {
    this.#store = deps.store;
    this.#requests = deps.requests;
    this.#jobs = deps.jobs;
    this.#firm = deps.firm;
  }

  handlers(): Record<string, JobHandler> {
    return { [ORGANIZER_REMINDER_JOB]: (tx, job, tenant) => this.#remind(tx, tenant.shortName, (job.payload as { organizerId: number }).organizerId) };
  }

  async arm(tx: Queryable, firm: Firm, o: { id: number; reminderEveryDays: number }, from = Date.now()): Promise<void> {
    await this.#jobs.scheduleMany(tx, [{ kind: ORGANIZER_REMINDER_JOB, key: reminderKey(o.id), runAt: nextReminder(firm, o.reminderEveryDays, from), payload: { organizerId: o.id } }]);
  }

  async disarm(tx: Queryable, id: number): Promise<void> {
    await this.#jobs.cancelMany(tx, [reminderKey(id)]);
  }

  /** Tells the client's users (in the portal and by e-mail) that the organizer waits for them. */
  async notify(tx: Queryable, firm: Firm, o: { id: number; clientId: number; clientName: string; title: string; dueDate: string }, why: 'sent' | 'reminder'): Promise<void> {
    const due = clientDate(o.dueDate, firm.country);
    const title = why === 'sent' ? `${firm.name} has questions for your return: ${o.title}` : `Reminder: please answer ${o.title} by ${due}`;
    const users = await this.#requests.clientUserIds(tx, o.clientId);
    await requestNotifications(tx, firm.shortName, users.map((userId) => ({
      userId, title: title.slice(0, 200), message: `Please answer the questions by ${due}. Your answers are saved as you type.`, type: 'info' as const,
      category: 'reminder' as const, clientId: o.clientId, clientName: o.clientName, actionUrl: `/organizers/${o.id}`, email: true, emailKind: 'requests',
    })));
  }

  async #remind(tx: Queryable, shortName: string, id: number): Promise<void> {
    const o = await this.#store.find(tx, id);
    if (!o || (o.status !== 'sent' && o.status !== 'in_progress')) return;
    const firm = await this.#firm(shortName);
    await this.notify(tx, firm, o, 'reminder');
    // The scheduler deletes the row it ran by id: the next reminder is a new row.
    await this.disarm(tx, id);
    await this.arm(tx, firm, o);
  }
}

const nextReminder = (firm: Firm, everyDays: number, from: number): Date =>
  reminderTimeOn(addDays(todayIn(firm.timeZone, new Date(from)), everyDays), firm.timeZone);
