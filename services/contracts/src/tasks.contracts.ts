import { z } from 'zod';
import { idSchema, intSchema, isoInstantSchema, textSchema } from './scalars.ts';

/*
 * Tasks (spec 001 §2 Tasks screen, §3 Task / Task client status / Task stats / Reminder,
 * §4 task quick actions, §5 task rules, §7 "Tasks", §8 tasks messages, §9 constants).
 */

export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const RECURRING_PATTERNS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type RecurringPattern = (typeof RECURRING_PATTERNS)[number];

/** §9: upcoming window and side-card length. */
export const TASK_UPCOMING_DAYS = 7;
export const TASK_SIDE_CARD_ITEMS = 5;

export const TASK_MESSAGES = {
  titleRequired: 'Title is required',
  priority: `Priority must be one of ${TASK_PRIORITIES.join(', ')}`,
  status: `Status must be one of ${TASK_STATUSES.join(', ')}`,
  pattern: `Recurring pattern must be one of ${RECURRING_PATTERNS.join(', ')}`,
  patternRequired: 'A recurring task needs a recurring pattern',
  dueDateRequired: 'A recurring task needs a due date',
  endBeforeDue: 'The recurring end date must not be before the due date',
  /** The form's rule (§5): past dates cannot be chosen. */
  dueDatePast: 'The due date cannot be in the past',
  endDatePast: 'The recurring end date cannot be in the past',
  clientIds: 'clientIds must be a list of client ids',
  clientNotFound: 'Client not found',
  assigneeNotStaff: 'Tasks can only be assigned to staff users of this firm',
  taskNotFound: 'Task not found',
  clientNotOnTask: 'This client is not part of the task',
  clientsDenied: 'Access denied. Client users cannot use tasks.',
  statusUpdated: 'Client status has been updated successfully.',
} as const;

const priority = z.enum(TASK_PRIORITIES, { error: TASK_MESSAGES.priority });
const status = z.enum(TASK_STATUSES, { error: TASK_MESSAGES.status });
const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));
/** The form sends '' or null for "none"; assignedToId 0 means unassigned (§5). */
const optionalId = (field: string) => z.union([z.literal(0), z.literal(''), z.null(), idSchema(field)]).optional()
  .transform((v) => (v === 0 || v === '' || v === null ? null : v));
const instant = (field: string) => z.union([z.literal(''), z.null(), isoInstantSchema(field)]).optional().transform((v) => (v ? v : null));

/**
 * POST /tasks and PATCH /tasks/{id} (§7 Task payload). `createdById` is accepted and
 * ignored: the creator is the caller (DESIGN §7). On PATCH every field is optional.
 */
export const taskInputSchema = z.object({
  title: z.string({ error: TASK_MESSAGES.titleRequired }).pipe(textSchema('Title', 500)).transform((v) => v.trim()).refine((v) => v.length > 0, TASK_MESSAGES.titleRequired),
  description: optionalText('Description', 10_000),
  priority: priority.default('medium'),
  status: status.default('pending'),
  /** A calendar date; an instant (older clients) is read as its date in the firm's time zone. */
  dueDate: instant('dueDate'),
  assignedToId: optionalId('assignedToId'),
  createdById: z.unknown().optional(),
  clientIds: z.array(idSchema('clientId', TASK_MESSAGES.clientIds), { error: TASK_MESSAGES.clientIds }).max(500).nullish()
    .transform((v) => [...new Set(v ?? [])]),
  reportTypeId: optionalId('reportTypeId'),
  isRecurring: z.boolean({ error: 'isRecurring must be true or false' }).default(false),
  recurringPattern: z.preprocess((v) => (v === '' ? null : v), z.enum(RECURRING_PATTERNS, { error: TASK_MESSAGES.pattern }).nullish()).transform((v) => v ?? null),
  recurringEndDate: instant('recurringEndDate'),
});
export type TaskInput = z.output<typeof taskInputSchema>;
export const taskUpdateSchema = taskInputSchema.partial();
export type TaskUpdate = z.output<typeof taskUpdateSchema>;

/** The quick actions (§4): status, and completedAt (a timestamp, or null when reopened). */
export const taskStatusSchema = z.object({
  status,
  completedAt: z.union([z.null(), isoInstantSchema('completedAt')]).optional(),
});

export const taskListQuerySchema = z.object({
  assignedToId: idSchema('assignedToId').optional(),
  clientId: idSchema('clientId').optional(),
  status: status.optional(),
  priority: priority.optional(),
  limit: intSchema('limit', 1, 1000).default(500),
  offset: intSchema('offset', 0, 1_000_000).default(0),
});
export type TaskListQuery = z.output<typeof taskListQuerySchema>;

export const upcomingQuerySchema = z.object({ days: intSchema('days', 1, 366).default(TASK_UPCOMING_DAYS) });
export const clientStatusQuerySchema = z.object({ statusFilter: status.optional() });
export const clientStatusInputSchema = z.object({ status, comments: optionalText('Comments', 5000) });

/** Spec 001 §3 "Task". dueDate and recurringEndDate are calendar dates (YYYY-MM-DD); the rest ISO timestamps. */
export interface Task {
  id: number;
  title: string;
  description: string | null;
  priority: TaskPriority;
  status: TaskStatus;
  dueDate: string | null;
  assignedToId: number | null;
  assignedToName: string | null;
  createdById: number;
  clientIds: number[];
  /** The task's clients' names, comma-separated (null without clients). */
  clientName: string | null;
  reportTypeId: number | null;
  isRecurring: boolean;
  recurringPattern: RecurringPattern | null;
  recurringEndDate: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Beyond §3: how many of the task's clients (those the caller reaches) are completed, for "1 of 2 clients done". */
  clientProgress: { done: number; total: number };
  /** Beyond §3: the newest comment on one of those clients' statuses, or null when none has one. */
  latestClientComment: TaskClientComment | null;
}

export interface TaskClientComment {
  clientId: number;
  clientName: string | null;
  comments: string;
  updatedByName: string | null;
  updatedAt: string;
}

/** Spec 001 §3 "Task client status". */
export interface TaskClientStatus {
  id: number;
  taskId: number;
  clientId: number;
  clientName: string | null;
  status: TaskStatus;
  comments: string | null;
  updatedById: number | null;
  updatedByName: string | null;
  updatedAt: string;
}

/** Spec 001 §3 "Task stats" (plus overdue, which the screen's fourth card shows). */
export interface TaskStats {
  total: number;
  pending: number;
  in_progress: number;
  completed: number;
  overdue: number;
  thisMonth: number;
}
