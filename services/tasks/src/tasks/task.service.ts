import { DELETED_USER, type UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { calendarDateOf } from '@ledgerline/contracts/firm-time-zone.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
import { TASK_MESSAGES, type TaskInput, type TaskStatus, type TaskUpdate } from '@ledgerline/contracts/tasks.contracts.ts';
import { taskActionUrl } from '@ledgerline/contracts/tasks.constants.ts';
import { canReachClient, taskReach, type TaskReach } from '../access-rules.ts';
import type { ReminderService } from '../reminders/reminder.service.ts';
import { occurrenceDate, withinEnd } from './recurrence.ts';
import type { TaskFields, TaskRow, TaskStore } from './task.store.ts';

const CLOSED: readonly TaskStatus[] = ['completed', 'cancelled'];
const STATUS_LABEL: Record<TaskStatus, string> = { pending: 'Pending', in_progress: 'In Progress', completed: 'Completed', cancelled: 'Cancelled' };

/**
 * Task changes (spec 001 §4, §5; docs/api/tasks.md): each one commits with its client status
 * rows, its reminders, the next occurrence of a recurring series, and the notifications it
 * causes (notification.requested through the outbox), or none of them.
 */
export class TaskService {
  readonly #tasks: TaskStore;
  readonly #reminders: ReminderService;
  readonly #users: UserAccessReadModel;
  readonly #directory: DirectoryLookup;

  constructor(deps: { tasks: TaskStore; reminders: ReminderService; users: UserAccessReadModel; directory: DirectoryLookup }) {
    this.#tasks = deps.tasks;
    this.#reminders = deps.reminders;
    this.#users = deps.users;
    this.#directory = deps.directory;
  }

  reach(t: TenantRequest): TaskReach {
    return taskReach(t, actorId(t.claims));
  }

  /** The task, or 404 'Task not found' when it is missing or out of the caller's reach. */
  async find(t: TenantRequest, id: number, tx: Queryable = t.db, lock = false): Promise<TaskRow> {
    const task = await this.#tasks.getReachable(tx, this.reach(t), id, lock);
    if (!task) throw new NotFound(TASK_MESSAGES.taskNotFound);
    return task;
  }

  async create(t: TenantRequest, input: TaskInput): Promise<TaskRow> {
    this.reach(t);
    await this.#checkReferences(t, input.clientIds, input.assignedToId, input.reportTypeId);
    const dueDate = dateIn(t, input.dueDate);
    const fields: TaskFields = {
      title: input.title, description: input.description, priority: input.priority, status: input.status,
      dueDate, assignedToId: input.assignedToId, createdById: actorId(t.claims), clientIds: input.clientIds,
      reportTypeId: input.reportTypeId, completedAt: input.status === 'completed' ? new Date() : null,
      ...recurrenceFields(input.isRecurring, input.recurringPattern, dateIn(t, input.recurringEndDate), dueDate),
    };
    return t.db.transaction(async (tx) => {
      let task = await this.#tasks.insert(tx, fields);
      if (task.isRecurring) task = await this.#tasks.update(tx, task.id, { seriesId: task.id, seriesOrigin: task.dueDate, originOccurrence: 0 });
      await this.#tasks.syncClients(tx, task.id, task.clientIds);
      await this.#reminders.sync(tx, task, t.timeZone);
      await this.#notify(tx, t, assignmentNotice(t, task, null));
      return task;
    });
  }

  /** PATCH: only the fields the body carried change. */
  async update(t: TenantRequest, id: number, input: TaskUpdate): Promise<TaskRow> {
    const before = await this.find(t, id);
    const clientIds = input.clientIds ?? before.clientIds;
    const added = clientIds.filter((c) => !before.clientIds.includes(c));
    // A CPA may keep clients outside their list that others put on the task, but not add any.
    await this.#checkReferences(t, added, input.assignedToId !== undefined && input.assignedToId !== before.assignedToId ? input.assignedToId : null,
      input.reportTypeId !== undefined && input.reportTypeId !== before.reportTypeId ? input.reportTypeId : null);
    const dueDate = input.dueDate !== undefined ? dateIn(t, input.dueDate) : before.dueDate;
    const isRecurring = input.isRecurring ?? before.isRecurring;
    const fields: TaskFields = {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.priority !== undefined && { priority: input.priority }),
      ...(input.dueDate !== undefined && { dueDate }),
      ...(input.assignedToId !== undefined && { assignedToId: input.assignedToId }),
      ...(input.clientIds !== undefined && { clientIds }),
      ...(input.reportTypeId !== undefined && { reportTypeId: input.reportTypeId }),
      ...recurrenceFields(isRecurring, input.recurringPattern !== undefined ? input.recurringPattern : before.recurringPattern,
        input.recurringEndDate !== undefined ? dateIn(t, input.recurringEndDate) : before.recurringEndDate, dueDate),
    };
    if (fields.isRecurring && (!before.seriesId || dueDate !== before.dueDate)) {
      // Becoming recurring starts a series here; a moved due date re-anchors it.
      Object.assign(fields, { seriesId: before.seriesId ?? before.id, seriesOrigin: dueDate, originOccurrence: before.occurrence });
    }
    return t.db.transaction(async (tx) => {
      await this.find(t, id, tx, true);
      let task = await this.#tasks.update(tx, id, fields);
      if (input.clientIds !== undefined) await this.#tasks.syncClients(tx, id, task.clientIds);
      if (input.status !== undefined && input.status !== before.status) task = await this.#changeStatus(tx, t, task, before.status, input.status, undefined);
      await this.#reminders.sync(tx, task, t.timeZone);
      await this.#notify(tx, t, assignmentNotice(t, task, before.assignedToId));
      return task;
    });
  }

  /** The quick actions (§4): completed stamps completedAt (the one sent, else now); reopening clears it. */
  async setStatus(t: TenantRequest, id: number, status: TaskStatus, completedAt: string | null | undefined): Promise<TaskRow> {
    return t.db.transaction(async (tx) => {
      const before = await this.find(t, id, tx, true);
      const task = await this.#changeStatus(tx, t, before, before.status, status, completedAt);
      await this.#reminders.sync(tx, task, t.timeZone);
      return task;
    });
  }

  async remove(t: TenantRequest, id: number): Promise<void> {
    await t.db.transaction(async (tx) => {
      await this.find(t, id, tx, true);
      await this.#reminders.disarm(tx, id);
      await this.#tasks.remove(tx, id);
    });
  }

  async setClientStatus(t: TenantRequest, taskId: number, clientId: number, status: TaskStatus, comments: string | null): Promise<void> {
    const reach = this.reach(t);
    await this.find(t, taskId);
    if (!canReachClient(reach, clientId)) throw new NotFound(TASK_MESSAGES.clientNotFound);
    const changed = await this.#tasks.setClientStatus(t.db, taskId, clientId, { status, comments, updatedById: actorId(t.claims), updatedByName: actorName(t.claims) });
    if (!changed) throw new NotFound(TASK_MESSAGES.clientNotOnTask);
  }

  async #changeStatus(tx: Queryable, t: TenantRequest, task: TaskRow, from: TaskStatus, to: TaskStatus, completedAt: string | null | undefined): Promise<TaskRow> {
    const stamped = to === 'completed' ? (completedAt ? new Date(completedAt) : task.completedAt ?? new Date()) : null;
    const updated = await this.#tasks.update(tx, task.id, { status: to, completedAt: stamped });
    if (from === to) return updated;
    if (CLOSED.includes(to)) await this.#nextOccurrence(tx, t, updated);
    const actor = actorId(t.claims);
    if (updated.createdById > 0 && updated.createdById !== actor) {
      await this.#notify(tx, t, [{
        userId: updated.createdById, title: 'Task status changed', message: `${actorName(t.claims)} set "${updated.title}" to ${STATUS_LABEL[to]}.`,
        type: to === 'completed' ? 'success' : 'info', category: 'task', taskId: updated.id, taskTitle: updated.title, actionUrl: taskActionUrl(updated.id),
      }]);
    }
    return updated;
  }

  /**
   * Closing an occurrence of a recurring series creates the next one, with fresh client
   * statuses and reminders, until the end date. The unique (series, occurrence) pair makes
   * it happen once, whoever closes it, however often, on whichever replica.
   */
  async #nextOccurrence(tx: Queryable, t: TenantRequest, task: TaskRow): Promise<void> {
    if (!task.isRecurring || !task.recurringPattern || !task.seriesOrigin || !task.seriesId) return;
    const due = occurrenceDate(task.seriesOrigin, task.recurringPattern, task.occurrence + 1 - task.originOccurrence);
    if (!withinEnd(due, task.recurringEndDate)) return;
    const next = await this.#tasks.insertOccurrence(tx, {
      title: task.title, description: task.description, priority: task.priority, status: 'pending', dueDate: due,
      assignedToId: task.assignedToId, createdById: task.createdById, clientIds: task.clientIds, reportTypeId: task.reportTypeId,
      isRecurring: true, recurringPattern: task.recurringPattern, recurringEndDate: task.recurringEndDate,
      seriesId: task.seriesId, occurrence: task.occurrence + 1, seriesOrigin: task.seriesOrigin, originOccurrence: task.originOccurrence,
    });
    if (!next) return;
    await this.#tasks.syncClients(tx, next.id, next.clientIds);
    await this.#reminders.sync(tx, next, t.timeZone);
    await this.#notify(tx, t, assignmentNotice(t, next, null));
  }

  /** Clients and a report type the caller may use (else 404 as missing), and a staff assignee. */
  async #checkReferences(t: TenantRequest, clientIds: readonly number[], assignedToId: number | null | undefined, reportTypeId: number | null | undefined): Promise<void> {
    for (const id of clientIds) await this.#directory.client(t, id);
    if (reportTypeId) await this.#directory.reportType(t, reportTypeId);
    if (!assignedToId) return;
    const assignee = await this.#users.lookup(t.db, assignedToId);
    if (!assignee || assignee === DELETED_USER || roleIs(assignee.role, ROLES.client)) throw new Invalid(TASK_MESSAGES.assigneeNotStaff);
  }

  async #notify(tx: Queryable, t: TenantRequest, requests: NotificationRequest[]): Promise<void> {
    if (requests.length) await requestNotifications(tx, t.shortName, requests);
  }
}

/** The assignee hears of a task given to them (not of one they gave themselves). */
function assignmentNotice(t: TenantRequest, task: TaskRow, previousAssignee: number | null): NotificationRequest[] {
  if (!task.assignedToId || task.assignedToId === previousAssignee || task.assignedToId === actorId(t.claims)) return [];
  const due = task.dueDate ? ` (due ${task.dueDate})` : '';
  return [{
    userId: task.assignedToId, title: 'New task assigned', message: `${actorName(t.claims)} assigned you "${task.title}"${due}.`,
    type: 'info', category: 'task', taskId: task.id, taskTitle: task.title, clientId: task.clientIds[0] ?? null, actionUrl: taskActionUrl(task.id),
  }];
}

/** The recurrence columns as the rules allow them: a pattern and a due date, an end not before the due date. */
function recurrenceFields(isRecurring: boolean, pattern: TaskRow['recurringPattern'], end: string | null, due: string | null): TaskFields {
  if (!isRecurring) return { isRecurring: false, recurringPattern: null, recurringEndDate: null };
  if (!pattern) throw new Invalid(TASK_MESSAGES.patternRequired);
  if (!due) throw new Invalid(TASK_MESSAGES.dueDateRequired);
  if (end && !withinEnd(due, end)) throw new Invalid(TASK_MESSAGES.endBeforeDue);
  return { isRecurring: true, recurringPattern: pattern, recurringEndDate: end };
}

/** A date the API was given (a date, or an instant older clients send) as the calendar date it means in the firm. */
function dateIn(t: TenantRequest, value: string | null): string | null {
  return value ? calendarDateOf(value, t.timeZone) : null;
}
