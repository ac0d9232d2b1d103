import type { Task, TaskClientStatus, TaskPriority, TaskStats } from '@ledgerline/contracts/tasks.contracts.ts';
import { addDays } from '@ledgerline/contracts/firm-time-zone.ts';
import { compareCalendarDates, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import type { TaskFilters } from './tasks.api.ts';

/** What the screen derives from tasks (spec 001 §2, §4, §9); pure, so it is unit-tested. */

export const PRIORITY_LABELS: Record<TaskPriority, string> = { urgent: 'Urgent', high: 'High', medium: 'Medium', low: 'Low' };
/**
 * What Mark Complete asks first when some of the task's clients are not done ('1 of 2
 * clients is not done yet: Harbor Foods. …'); null when every client is done.
 */
export function clientsNotDoneQuestion(statuses: readonly Pick<TaskClientStatus, 'status' | 'clientName'>[]): string | null {
  const open = statuses.filter((s) => s.status !== 'completed' && s.status !== 'cancelled');
  if (open.length === 0) return null;
  const names = open.map((s) => s.clientName ?? 'a client').join(', ');
  return `${open.length} of ${statuses.length} client${statuses.length === 1 ? '' : 's'} ${open.length === 1 ? 'is' : 'are'} not done yet: ${names}. Mark the task complete anyway?`;
}

/** How a recurring task repeats, as the list shows it ('Repeats monthly'); null for a one-off task. */
export const recurrenceLabel = (t: Pick<Task, 'isRecurring' | 'recurringPattern'>): string | null =>
  t.isRecurring && t.recurringPattern ? `Repeats ${t.recurringPattern}` : null;
/** The list's per-client progress ('1 of 2 clients done'); null for a task without clients in the caller's reach. */
export const clientProgressLabel = ({ clientProgress: { done, total } }: Pick<Task, 'clientProgress'>): string | null =>
  total ? `${done} of ${total} client${total === 1 ? '' : 's'} done` : null;
export const STATUS_LABELS = { pending: 'Pending', in_progress: 'In Progress', completed: 'Completed', cancelled: 'Cancelled' } as const;
/** Calendar dots: at most 3 per day, plus a grey one for more (§2, §9). */
export const MAX_DAY_DOTS = 3;

const isOpen = (t: Task) => t.status !== 'completed' && t.status !== 'cancelled';

/**
 * §4: overdue means the due date (a calendar date) is before today (open tasks only). `today`
 * is the firm's ('YYYY-MM-DD', ui/firm-today.ts), the day the server counts overdue by.
 */
export const isOverdue = (t: Task, today: string): boolean => !!t.dueDate && isOpen(t) && t.dueDate < today;

/** The calendar's key of a local day, 'YYYY-MM-DD' (what due dates are). */
export const dayKey = toCalendarDate;

/** §4: 'Today' means the same day. */
export const isDueToday = (t: Task, today: string): boolean => t.dueDate === today;

/** Quick Stats: completion rate as a rounded percent. */
export const completionRate = (s: TaskStats): number => (s.total ? Math.round((s.completed / s.total) * 100) : 0);

/** The filter badge counts the filters that are set. */
export const activeFilterCount = (f: TaskFilters): number => Object.values(f).filter((v) => v !== undefined && v !== null).length;

/** Open tasks due within the next `days` days from the firm's `today`, soonest first (side card and 'Upcoming This Week'). */
export function dueWithin(tasks: readonly Task[], days: number, today: string): Task[] {
  const end = addDays(today, days);
  return tasks
    .filter((t) => t.dueDate && isOpen(t) && t.dueDate >= today && t.dueDate <= end)
    .sort((a, b) => compareCalendarDates(a.dueDate!, b.dueDate!));
}

/** Tasks per due date, for the calendar. */
export function tasksByDay(tasks: readonly Task[]): Map<string, Task[]> {
  const byDay = new Map<string, Task[]>();
  for (const t of tasks) {
    if (!t.dueDate) continue;
    byDay.set(t.dueDate, [...(byDay.get(t.dueDate) ?? []), t]);
  }
  return byDay;
}

/** A day's dots: the first three tasks' priorities, and whether a grey 'more' dot follows. */
export function dayDots(tasks: readonly Task[]): { priorities: TaskPriority[]; more: boolean } {
  return { priorities: tasks.slice(0, MAX_DAY_DOTS).map((t) => t.priority), more: tasks.length > MAX_DAY_DOTS };
}
