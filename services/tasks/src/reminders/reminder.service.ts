import { addDays, instantAt } from '@ledgerline/contracts/firm-time-zone.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { TaskRow, TaskStore } from '../tasks/task.store.ts';
import { taskActionUrl } from '@ledgerline/contracts/tasks.constants.ts';

export const REMINDER_JOB = 'task-reminder';
type ReminderKind = 'due_soon' | 'overdue';
const jobKey = (id: number) => `reminder:${id}`;
const isOpen = (t: TaskRow) => t.status !== 'completed' && t.status !== 'cancelled';
/** Reminders speak at the start of the firm's working day, not at midnight. */
const REMINDER_TIME = '09:00';

/**
 * A task's two reminders (spec 001 §3 Reminder): its assignee (else its creator) is told
 * `leadSeconds` before 09:00 of the due date, and once at 09:00 of the day after it (the
 * first morning it is overdue), both on the firm's clocks. Each is a row and a scheduler
 * job; moving the due date moves both and arms them again; closing or deleting the task
 * disarms them. Firing notifies through notification.requested in the job's transaction,
 * and marks the reminder spent, so each fires once.
 */
export class ReminderService {
  readonly #jobs: JobQueue;
  readonly #tasks: TaskStore;
  readonly #leadSeconds: number;

  constructor(deps: { jobs: JobQueue; tasks: TaskStore; leadSeconds: number }) {
    this.#jobs = deps.jobs;
    this.#tasks = deps.tasks;
    this.#leadSeconds = deps.leadSeconds;
  }

  /** After any change of the task: the reminders it should have, armed; or none. */
  async sync(tx: Queryable, task: TaskRow, timeZone: string): Promise<void> {
    const recipient = task.assignedToId ?? (task.createdById > 0 ? task.createdById : null);
    if (!task.dueDate || !recipient || !isOpen(task)) return this.disarm(tx, task.id);
    const dueMorning = instantAt(task.dueDate, REMINDER_TIME, timeZone);
    await this.#arm(tx, task, recipient, 'due_soon', new Date(dueMorning.getTime() - this.#leadSeconds * 1000));
    await this.#arm(tx, task, recipient, 'overdue', instantAt(addDays(task.dueDate, 1), REMINDER_TIME, timeZone));
  }

  async disarm(tx: Queryable, taskId: number): Promise<void> {
    const { rows } = await tx.query<{ id: number }>('UPDATE reminders SET is_active = false WHERE task_id = $1 AND is_active RETURNING id', [taskId]);
    for (const r of rows) await this.#jobs.cancel(tx, jobKey(r.id));
  }

  async #arm(tx: Queryable, task: TaskRow, userId: number, kind: ReminderKind, at: Date): Promise<void> {
    const title = kind === 'due_soon' ? `Task due soon: ${task.title}` : `Task overdue: ${task.title}`;
    const message = kind === 'due_soon' ? `"${task.title}" is due ${task.dueDate}.` : `"${task.title}" was due ${task.dueDate} and is not completed.`;
    // A spent reminder stays spent unless its date or recipient changed: overdue is said once.
    const { rows } = await tx.query<{ id: number; is_active: boolean }>(
      `INSERT INTO reminders (kind, title, message, type, reminder_date, user_id, task_id, client_id, reminder_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '${REMINDER_TIME}')
       ON CONFLICT (task_id, kind) DO UPDATE SET title = EXCLUDED.title, message = EXCLUDED.message,
         is_active = reminders.is_active OR reminders.reminder_date <> EXCLUDED.reminder_date OR reminders.user_id <> EXCLUDED.user_id,
         reminder_date = EXCLUDED.reminder_date, user_id = EXCLUDED.user_id
       RETURNING id, is_active`,
      [kind, title, message, kind === 'due_soon' ? 'warning' : 'error', at.toISOString(), userId, task.id, task.clientIds[0] ?? null],
    );
    const r = rows[0]!;
    if (r.is_active) await this.#jobs.schedule(tx, { kind: REMINDER_JOB, key: jobKey(r.id), runAt: at, payload: { reminderId: r.id } });
  }

  /** The scheduler's handler: notify once, unless the reminder or its task was closed meanwhile. */
  job(): JobHandler {
    return async (tx, job, tenant) => {
      const { reminderId } = job.payload as { reminderId: number };
      const { rows } = await tx.query<{ id: number; kind: ReminderKind; title: string; message: string; type: string; user_id: number; task_id: number; is_active: boolean }>(
        'SELECT id, kind, title, message, type, user_id, task_id, is_active FROM reminders WHERE id = $1 FOR UPDATE', [reminderId],
      );
      const r = rows[0];
      if (!r?.is_active) return;
      await tx.query('UPDATE reminders SET is_active = false WHERE id = $1', [r.id]);
      const task = await this.#tasks.get(tx, r.task_id);
      if (!task || !isOpen(task)) return;
      await requestNotifications(tx, tenant.shortName, [{
        userId: r.user_id, title: r.title, message: r.message, type: r.type === 'error' ? 'error' : 'warning',
        category: r.kind === 'due_soon' ? 'reminder' : 'deadline', taskId: task.id, taskTitle: task.title, reminderId: r.id,
        actionUrl: taskActionUrl(task.id), email: true, emailKind: 'tasks',
      }]);
    };
  }
}
