import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { reminderTimeOn } from '@ledgerline/kit/scheduler/reminder-time.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import { queueMails } from '@ledgerline/kit/mail/mail-job.ts';
import type { Mail } from '@ledgerline/kit/mail/mailer.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { BatchJobHandler, JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
import type { DocumentRequestSummary } from '@ledgerline/contracts/requests.contracts.ts';
import { clientDate, type ClientDateCountry } from '@ledgerline/contracts/client-date.ts';
import type { RequestLinkMaker } from './request-links.ts';
import type { ChaseTarget, RequestStore } from './request.store.ts';
import { progressOf, reachesItemOf, reachesRequestOf } from '../access-rules.ts';

export const REMINDER_JOB = 'request.reminder';
export const OVERDUE_JOB = 'request.overdue';
const reminderKey = (id: number) => `request-reminder:${id}`;
const overdueKey = (id: number) => `request-overdue:${id}`;
const requestIdOf = (payload: unknown) => (payload as { requestId: number }).requestId;

/** What the service knows of a firm from the tenant registry; country decides how its clients read dates (client-date.ts). */
export interface Firm { shortName: string; name: string; timeZone: string; country: ClientDateCountry }


/**
 * Chasing the client (issue 27 "Reminders"), on kit's durable scheduler so each reminder and
 * notice goes once across replicas and restarts: while a request is open and a required
 * item is outstanding, every reminderEveryDays at 09:00 in the firm's zone; the day after
 * the due date, one overdue notice to the reviewer. Nothing after completion or cancellation.
 */
export class RequestReminders {
  readonly #store: RequestStore;
  readonly #jobs: JobQueue;
  readonly #firm: (shortName: string) => Promise<Firm>;
  readonly #links: RequestLinkMaker;

  constructor(deps: { store: RequestStore; jobs: JobQueue; firm: (shortName: string) => Promise<Firm>; links: RequestLinkMaker }) {
    this.#store = deps.store;
    this.#links = deps.links;
    this.#jobs = deps.jobs;
    this.#firm = deps.firm;
  }

  /** Overdue notices, one job each. */
  handlers(): Record<string, JobHandler> {
    return { [OVERDUE_JOB]: (tx, job, tenant) => this.#overdue(tx, tenant.shortName, requestIdOf(job.payload)) };
  }

  /** Reminders, as a set: a morning when thousands come round costs a few statements per claimed batch, not a few per request. */
  batchHandlers(): Record<string, BatchJobHandler> {
    return { [REMINDER_JOB]: (tx, jobs, tenant) => this.#remind(tx, tenant.shortName, jobs.map((j) => requestIdOf(j.payload))) };
  }

  /** (Re)schedules an open request's next reminder, counted from `from`, and its overdue notice. */
  async arm(tx: Queryable, firm: Firm, r: { id: number; dueDate: string; reminderEveryDays: number }, from = Date.now()): Promise<void> {
    await this.#jobs.scheduleMany(tx, [
      { kind: REMINDER_JOB, key: reminderKey(r.id), runAt: this.#nextReminder(firm, r.reminderEveryDays, from), payload: { requestId: r.id } },
      { kind: OVERDUE_JOB, key: overdueKey(r.id), runAt: reminderTimeOn(addDays(r.dueDate, 1), firm.timeZone), payload: { requestId: r.id } },
    ]);
  }

  async disarm(tx: Queryable, id: number): Promise<void> {
    await this.#jobs.cancelMany(tx, [reminderKey(id), overdueKey(id)]);
  }

  /**
   * Tells the client what is still needed: their users in the portal (and by e-mail), and the
   * links' recipients by e-mail, each with a fresh link of their own. False, and nothing
   * sent, when nothing required is still needed.
   */
  async chase(tx: Queryable, firm: Firm, id: number, why: 'sent' | 'reminder'): Promise<boolean> {
    const [target] = await this.#store.chaseTargets(tx, [id]);
    if (!target?.missing.length) return false;
    await this.#send(tx, firm, [target], why);
    return true;
  }

  async #send(tx: Queryable, firm: Firm, targets: readonly ChaseTarget[], why: 'sent' | 'reminder'): Promise<void> {
    const notices: NotificationRequest[] = [];
    const mails: Mail[] = [];
    for (const request of targets) {
      const due = clientDate(request.dueDate, firm.country);
      const list = `Still needed: ${request.missing.join(', ')}.`;
      const title = why === 'sent' ? `${firm.name} asks for documents: ${request.title}` : `Reminder: documents due ${due} — ${request.title}`;
      notices.push(...this.#clientNotices(request, request.clientUserIds, title, `${list} Due ${due}.`));
      for (const to of request.recipients) {
        // A fresh link in every e-mail: the one sent first may have expired or been lost.
        const link = await this.#links.mint(tx, firm, request, to);
        mails.push(firmMail({
          to, firmName: firm.name, subject: title,
          paragraphs: [`${firm.name} needs documents from ${request.clientName} by ${due}.`, list, 'Open the link to upload them; no account is needed.'],
          link: { label: 'Upload documents', url: link.url },
          footer: `This link works until ${clientDate(link.expiresAt.toISOString(), firm.country)}. Reminders stop when everything is in.`,
        }));
      }
    }
    await requestNotifications(tx, firm.shortName, notices);
    await queueMails(this.#jobs, tx, mails);
  }

  /** A returned item: the client's users in the portal and by e-mail, the links' recipients by e-mail with a fresh link, each with the firm's reason. */
  async returned(tx: Queryable, firm: Firm, request: DocumentRequestSummary & { createdById: number }, itemTitle: string, reason: string): Promise<void> {
    const title = `Please look again: ${itemTitle}`;
    await this.notifyClient(tx, firm, request, title, `${itemTitle} (${request.title}) was returned: ${reason}`);
    const [target] = await this.#store.chaseTargets(tx, [request.id]);
    const mails: Mail[] = [];
    for (const to of target?.recipients ?? []) {
      const link = await this.#links.mint(tx, firm, request, to);
      mails.push(firmMail({
        to, firmName: firm.name, subject: `${title} — ${request.title}`,
        paragraphs: [`${firm.name} returned "${itemTitle}" for ${request.clientName}. The reason: ${reason}`, `Please upload it again by ${clientDate(request.dueDate, firm.country)}.`],
        link: { label: 'Upload documents', url: link.url },
        footer: `This link works until ${clientDate(link.expiresAt.toISOString(), firm.country)}.`,
      }));
    }
    await queueMails(this.#jobs, tx, mails);
  }

  async notifyClient(tx: Queryable, firm: Firm, request: DocumentRequestSummary, title: string, message: string): Promise<void> {
    await requestNotifications(tx, firm.shortName, this.#clientNotices(request, await this.#store.clientUserIds(tx, request.clientId), title, message));
  }

  #clientNotices(request: { id: number; clientId: number; clientName: string }, users: readonly number[], title: string, message: string): NotificationRequest[] {
    return users.map((userId) => ({
      userId, title: title.slice(0, 200), message: message.slice(0, 2000), type: 'info' as const, category: 'reminder' as const,
      clientId: request.clientId, clientName: request.clientName, actionUrl: `/requests/${request.id}`, email: true, emailKind: 'requests',
    }));
  }

  /** The due reminders of `requestIds`: those still open with a required item outstanding are chased and armed again; for the rest the chase is over. */
  async #remind(tx: Queryable, shortName: string, requestIds: readonly number[]): Promise<void> {
    const due = (await this.#store.chaseTargets(tx, requestIds)).filter((r) => r.missing.length);
    if (!due.length) return;
    const firm = await this.#firm(shortName);
    await this.#send(tx, firm, due, 'reminder');
    // The scheduler deletes the rows it ran by id: the next reminders must be new rows, not these moved.
    await this.#jobs.cancelMany(tx, due.map((r) => reminderKey(r.id)));
    await this.#jobs.scheduleMany(tx, due.map((r) => ({
      kind: REMINDER_JOB, key: reminderKey(r.id), runAt: this.#nextReminder(firm, r.reminderEveryDays, Date.now()), payload: { requestId: r.id },
    })));
  }

  async #overdue(tx: Queryable, shortName: string, requestId: number): Promise<void> {
    const request = await this.#store.summary(tx, requestId, true);
    if (!request || request.status !== 'open' || request.assignedToId < 1) return;
    if (!await this.#store.claimOverdueNotice(tx, requestId, request.dueDate)) return;
    // The reviewer is told only of what they reach (access-rules.ts): a reviewer who lost the
    // client, or reaches none of its items, gets nothing; a CPA counts their report types' items.
    const reviewer = (await this.#store.usersReaching(tx, request)).find((u) => u.userId === request.assignedToId);
    const items = await this.#store.items(tx, requestId);
    if (!reviewer || !reachesRequestOf(reviewer.reportTypes, { reportTypeId: request.reportTypeId, items })) return;
    const { done, required } = progressOf(items.filter((i) => reachesItemOf(reviewer.reportTypes, i.reportTypeId)));
    await requestNotifications(tx, shortName, [{
      userId: request.assignedToId, title: `Documents overdue: ${request.title}`,
      message: `${request.clientName} has not sent everything for "${request.title}" (due ${clientDate(request.dueDate, (await this.#firm(shortName)).country)}): ${done} of ${required} required items are in.`,
      type: 'warning', category: 'deadline', clientId: request.clientId, clientName: request.clientName, actionUrl: `/requests/${request.id}`, email: true, emailKind: 'requests',
    }]);
  }

  #nextReminder(firm: Firm, everyDays: number, from: number): Date {
    return reminderTimeOn(addDays(todayIn(firm.timeZone, new Date(from)), everyDays), firm.timeZone);
  }
}
