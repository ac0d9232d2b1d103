import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { TrackerStore } from '../tracker/tracker.store.ts';

export const DUE_SOON_JOB = 'compliance-due-soon';
export const OVERDUE_JOB = 'compliance-overdue';
type Kind = typeof DUE_SOON_JOB | typeof OVERDUE_JOB;
const DAY_MS = 86_400_000;
type ArmedItem = Pick<ComplianceItem, 'id' | 'scheduleId' | 'dueDate'>;
const startOfDay = (isoDay: string) => new Date(`${isoDay}T00:00:00Z`).getTime();

/**
 * A tracker item's two notices (spec 001 §3 reminderDays; docs/api/compliance.md): at the start
 * (UTC) of the day `reminderDays` before it is due, unless it is filed by then; and at the start
 * of the day after its due date, if it is still pending (§4's list-view overdue). They go to the
 * assignee, or to the firm's Admins when nobody is assigned, as notification.requested events
 * the tasks service turns into notifications.
 *
 * Each is a job of kit's durable scheduler, claimed by one replica and run in the transaction
 * that removes it; the item's `reminded_at` / `overdue_notified_at` stamp makes it once even if a
 * generation arms it again. An item generated already past due is shown as overdue but not
 * announced (nothing "became" overdue); one generated inside its reminder window is reminded at once.
 */
export class ComplianceReminders {
  readonly #jobs: JobQueue;
  readonly #items: TrackerStore;
  readonly #users: UserAccessReadModel;

  constructor(deps: { jobs: JobQueue; items: TrackerStore; users: UserAccessReadModel }) {
    this.#jobs = deps.jobs;
    this.#items = deps.items;
    this.#users = deps.users;
  }

  /** Arms new items' notices; `reminderDays` of each item's schedule. */
  async arm(tx: Queryable, items: readonly ArmedItem[], reminderDays: (item: ArmedItem) => number, now = Date.now()): Promise<void> {
    const today = startOfDay(new Date(now).toISOString().slice(0, 10));
    const future = items.filter((i) => startOfDay(i.dueDate) >= today);
    await this.#jobs.scheduleMany(tx, future.flatMap((i) => [
      { kind: DUE_SOON_JOB, key: `${DUE_SOON_JOB}:${i.id}`, runAt: new Date(Math.max(now, startOfDay(i.dueDate) - reminderDays(i) * DAY_MS)), payload: { itemId: i.id } },
      { kind: OVERDUE_JOB, key: `${OVERDUE_JOB}:${i.id}`, runAt: new Date(startOfDay(i.dueDate) + DAY_MS), payload: { itemId: i.id } },
    ]));
  }

  /**
   * An item extended (issue 39): its notices are said again for the extended day (the stamps
   * cleared, the jobs moved, same keys).
   */
  async rearm(tx: Queryable, item: { id: number; scheduleId: number; dueDate: string }, reminderDays: number, now = Date.now()): Promise<void> {
    await tx.query('UPDATE compliance_items SET reminded_at = NULL, overdue_notified_at = NULL WHERE id = $1', [item.id]);
    await this.arm(tx, [item], () => reminderDays, now);
  }

  handlers(): Record<Kind, JobHandler> {
    return { [DUE_SOON_JOB]: this.#handler(DUE_SOON_JOB), [OVERDUE_JOB]: this.#handler(OVERDUE_JOB) };
  }

  #handler(kind: Kind): JobHandler {
    return async (tx, job, tenant) => {
      const { itemId } = job.payload as { itemId: number };
      const item = (await this.#items.byIds(tx, [itemId]))[0];
      // Removed with its client, filed meanwhile, or (overdue) neither pending nor extended: nothing to say.
      if (!item || item.status === 'filed' || (kind === OVERDUE_JOB && item.status !== 'pending' && item.status !== 'extended')) return;
      // The day it is due in effect: an extension moved it (and re-armed the notices for that day).
      const due = item.status === 'extended' && item.extendedDueDate ? item.extendedDueDate : item.dueDate;
      if (kind === OVERDUE_JOB && job.runAt && new Date(job.runAt).getTime() < startOfDay(due) + DAY_MS) return;
      if (!await this.#items.markNotified(tx, item.id, kind === DUE_SOON_JOB ? 'reminded_at' : 'overdue_notified_at')) return;
      const recipients = item.assignedToId ? [item.assignedToId] : await this.#admins(tx);
      const what = `${item.reportTypeName} (${item.period}) for ${item.clientName}`;
      await requestNotifications(tx, tenant.shortName, recipients.map((userId) => ({
        userId,
        title: kind === DUE_SOON_JOB ? `Compliance due soon: ${item.reportTypeName}` : `Compliance overdue: ${item.reportTypeName}`,
        message: kind === DUE_SOON_JOB ? `${what} is due ${due}.` : `${what} was due ${due} and is not filed.`,
        type: kind === DUE_SOON_JOB ? 'warning' as const : 'error' as const,
        category: 'compliance' as const,
        clientId: item.clientId,
        clientName: item.clientName || null,
        actionUrl: '/compliance',
        metadata: { complianceItemId: item.id, kind: kind === DUE_SOON_JOB ? 'due_soon' : 'overdue' },
        email: true,
      })));
    };
  }

  async #admins(tx: Queryable): Promise<number[]> {
    const { rows } = await tx.query<{ user_id: number }>(
      `SELECT user_id FROM ${this.#users.table} WHERE lower(role) = lower($1) AND NOT deleted ORDER BY user_id`, [ROLES.admin],
    );
    return rows.map((r) => r.user_id);
  }
}
