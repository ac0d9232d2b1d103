import { describe, expect, it } from '@jest/globals';
import type { Task, TaskPriority, TaskStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { activeFilterCount, clientProgressLabel, clientsNotDoneQuestion, completionRate, dayDots, dayKey, dueWithin, isDueToday, isOverdue, recurrenceLabel, tasksByDay } from '../src/task-view.ts';
import { monthGrid } from '@ledgerline/ui/calendar-date.ts';

const NOW = new Date(2025, 2, 10, 12, 0, 0);
/** The firm's day. */
const TODAY = '2025-03-10';
let nextId = 1;
const task = (fields: { dueDate?: string | null; status?: TaskStatus; priority?: TaskPriority } = {}): Task => ({
  id: nextId++, title: `Task ${nextId}`, description: null, priority: fields.priority ?? 'medium', status: fields.status ?? 'pending',
  dueDate: fields.dueDate ?? null, assignedToId: null, assignedToName: null, createdById: 1,
  clientIds: [], clientName: null, reportTypeId: null, isRecurring: false, recurringPattern: null, recurringEndDate: null, completedAt: null,
  createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), clientProgress: { done: 0, total: 0 }, latestClientComment: null,
});
/** A due date in March 2025 (due dates are calendar dates). */
const at = (day: number) => `2025-03-${String(day).padStart(2, '0')}`;

describe('task view helpers', () => {
  it('per-client progress reads "1 of 2 clients done", and nothing without clients', () => {
    expect(clientProgressLabel({ clientProgress: { done: 1, total: 2 } })).toBe('1 of 2 clients done');
    expect(clientProgressLabel({ clientProgress: { done: 0, total: 1 } })).toBe('0 of 1 client done');
    expect(clientProgressLabel({ clientProgress: { done: 0, total: 0 } })).toBeNull();
  });

  it('overdue means due before today and still open; a task due today is not overdue yet', () => {
    expect(isOverdue(task({ dueDate: at(9) }), TODAY)).toBe(true);
    expect(isOverdue(task({ dueDate: at(9), status: 'completed' }), TODAY)).toBe(false);
    expect(isOverdue(task({ dueDate: at(10) }), TODAY)).toBe(false);
    expect(isOverdue(task(), TODAY)).toBe(false);
    expect(isDueToday(task({ dueDate: at(10) }), TODAY)).toBe(true);
    expect(isDueToday(task({ dueDate: at(11) }), TODAY)).toBe(false);
    // The firm's day, not the browser's: in Kolkata it is already the 11th.
    expect(isOverdue(task({ dueDate: at(10) }), '2025-03-11')).toBe(true);
  });

  it('completion rate is a rounded percent, 0 without tasks', () => {
    expect(completionRate({ total: 3, pending: 1, in_progress: 0, completed: 2, overdue: 0, thisMonth: 3 })).toBe(67);
    expect(completionRate({ total: 0, pending: 0, in_progress: 0, completed: 0, overdue: 0, thisMonth: 0 })).toBe(0);
  });

  it('counts the filters that are set', () => {
    expect(activeFilterCount({})).toBe(0);
    expect(activeFilterCount({ status: 'pending', clientId: 4, priority: undefined })).toBe(2);
  });

  it('lists open tasks due within the window, soonest first', () => {
    const later = task({ dueDate: at(15) });
    const sooner = task({ dueDate: at(12) });
    const tooFar = task({ dueDate: at(20) });
    const done = task({ dueDate: at(11), status: 'completed' });
    const past = task({ dueDate: at(9) });
    expect(dueWithin([later, sooner, tooFar, done, past], 7, TODAY).map((t) => t.id)).toEqual([sooner.id, later.id]);
    // Across a month's end, from the firm's day.
    expect(dueWithin([task({ dueDate: '2025-04-03' }), task({ dueDate: '2025-04-08' })], 7, '2025-03-31').map((t) => t.dueDate)).toEqual(['2025-04-03']);
  });

  it('shows at most three priority dots a day, and a grey one for more', () => {
    const day = [task({ priority: 'urgent', dueDate: at(3) }), task({ priority: 'low', dueDate: at(3) }), task({ priority: 'high', dueDate: at(3) }), task({ priority: 'medium', dueDate: at(3) })];
    expect(dayDots(day)).toEqual({ priorities: ['urgent', 'low', 'high'], more: true });
    expect(dayDots(day.slice(0, 3)).more).toBe(false);
    expect(tasksByDay([...day, task()]).get(at(3))).toHaveLength(4);
  });

  it('lays a month out in Sunday-first weeks', () => {
    const weeks = monthGrid(2025, 2); // March 2025 starts on a Saturday
    expect(weeks[0]!.map((d) => d.getDate())).toEqual([23, 24, 25, 26, 27, 28, 1]);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(dayKey(weeks.at(-1)!.at(-1)!) >= '2025-03-31').toBe(true);
    expect(monthGrid(2026, 1)).toHaveLength(4); // February 2026: exactly four weeks
  });

  it("says how a recurring task repeats, and nothing for a one-off", () => {
    expect(recurrenceLabel({ isRecurring: true, recurringPattern: 'monthly' })).toBe('Repeats monthly');
    expect(recurrenceLabel({ isRecurring: false, recurringPattern: null })).toBeNull();
  });
  it('asks before completing a task whose clients are not all done', () => {
    expect(clientsNotDoneQuestion([{ status: 'completed', clientName: 'Acme' }, { status: 'cancelled', clientName: 'Beta' }])).toBeNull();
    expect(clientsNotDoneQuestion([{ status: 'completed', clientName: 'Acme' }, { status: 'pending', clientName: 'Bayview Bakery' }]))
      .toBe('1 of 2 clients is not done yet: Bayview Bakery. Mark the task complete anyway?');
    expect(clientsNotDoneQuestion([{ status: 'in_progress', clientName: 'Acme' }])).toBe('1 of 1 client is not done yet: Acme. Mark the task complete anyway?');
  });
});
