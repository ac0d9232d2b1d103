import { describe, expect, it } from '@jest/globals';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import {
  daysLabel, effectiveDueDate, firstFew, generationStart, generationYears, isCalendarOverdue, itemDateRows, itemsByDay, monthNames, movedDueNote, QUARTER_PATTERNS, shiftView, shortName,
  todayView, trackerDate, viewMonths, viewRange, viewTitle, weekdayDate,
} from '../src/compliance-view.ts';

/** The firm's today (ui/firm-today.ts). */
const TODAY = '2027-03-10';
const item = (dueDate: string, status: ComplianceItem['status'] = 'pending', extendedDueDate: string | null = null) => ({ dueDate, status, extendedDueDate });

describe('compliance view', () => {
  it('Days: N overdue, Today, N days; warned at 7 or fewer', () => {
    expect(daysLabel(item('2027-03-07'), TODAY)).toEqual({ text: '3 overdue', tone: 'danger' });
    expect(daysLabel(item('2027-03-10'), TODAY)).toEqual({ text: 'Today', tone: 'warning' });
    expect(daysLabel(item('2027-03-17'), TODAY)).toEqual({ text: '7 days', tone: 'warning' });
    expect(daysLabel(item('2027-03-18'), TODAY)).toEqual({ text: '8 days', tone: 'normal' });
    expect(daysLabel(item('2027-03-01', 'extended', '2027-04-30'), TODAY)).toEqual({ text: '51 days', tone: 'normal' });
  });

  it('calendar overdue: past due and neither filed nor extended', () => {
    expect(isCalendarOverdue(item('2027-03-09'), TODAY)).toBe(true);
    expect(isCalendarOverdue(item('2027-03-09', 'delayed'), TODAY)).toBe(true);
    expect(isCalendarOverdue(item('2027-03-09', 'filed'), TODAY)).toBe(false);
    expect(isCalendarOverdue(item('2027-03-09', 'extended'), TODAY)).toBe(false);
    expect(isCalendarOverdue(item('2027-03-10'), TODAY)).toBe(false);
    // An extension holds until its date; past it, the item is overdue again (issue 39).
    expect(isCalendarOverdue(item('2027-03-01', 'extended', '2027-03-15'), TODAY)).toBe(false);
    expect(isCalendarOverdue(item('2027-02-01', 'extended', '2027-03-09'), TODAY)).toBe(true);
  });

  it('cuts client names to 15 characters and shows three items and how many more', () => {
    expect(shortName('Bayview Bakery')).toBe('Bayview Bakery');
    expect(shortName('Harbour & Pine Trading')).toBe('Harbour & Pine ...');
    expect(firstFew([1, 2, 3, 4, 5])).toEqual({ shown: [1, 2, 3], more: 2 });
    expect(firstFew([1])).toEqual({ shown: [1], more: 0 });
    // A panel receives its first three items and the count of all of them from the server.
    expect(firstFew([1, 2, 3], 40)).toEqual({ shown: [1, 2, 3], more: 37 });
    const byDay = itemsByDay([{ id: 1, dueDate: '2027-03-11' }, { id: 2, dueDate: '2027-03-11' }, { id: 3, dueDate: '2027-03-20' }] as ComplianceItem[]);
    expect(byDay.get('2027-03-11')?.map((i) => i.id)).toEqual([1, 2]);
    // An extended item sits on its extended due date.
    const extended = itemsByDay([{ id: 4, dueDate: '2027-03-15', extendedDueDate: '2027-09-15' }] as ComplianceItem[]);
    expect([...extended.keys()]).toEqual(['2027-09-15']);
  });

  it('month and quarter views: titles, the range asked for, previous/next by 1 or 3 months, Today', () => {
    const month = todayView('month', TODAY);
    expect(viewTitle(month)).toBe('March 2027');
    expect(viewRange(month)).toEqual({ startDate: '2027-03-01', endDate: '2027-03-31' });
    expect(viewTitle(shiftView({ mode: 'month', year: 2027, month: 0 }, -1))).toBe('December 2026');
    const quarter = todayView('quarter', '2027-11-05');
    expect(viewTitle(quarter)).toBe('Q4 2027 (Oct – Dec)');
    expect(viewRange(quarter)).toEqual({ startDate: '2027-10-01', endDate: '2027-12-31' });
    expect(viewMonths(shiftView(quarter, 1))).toEqual([{ year: 2028, month: 0 }, { year: 2028, month: 1 }, { year: 2028, month: 2 }]);
    expect(viewRange({ mode: 'month', year: 2028, month: 1 }).endDate).toBe('2028-02-29');
  });

  it('dates and months as the screen shows them', () => {
    expect(trackerDate('2027-03-07')).toBe('Mar 07, 2027');
    expect(trackerDate(null)).toBe('');
    expect(monthNames(['3', '6', '9', '12'])).toBe('Mar, Jun, Sep, Dec');
  });
});

describe('business-day due dates and extensions (issue 39)', () => {
  const moved = {
    period: 'Q4 2026', periodStart: '2026-10-01', periodEnd: '2026-12-31', statutoryDueDate: '2027-01-31', dueDate: '2027-02-01',
    dueDateReason: '31 Jan 2027 is a Sunday', holidayCalendar: 'US federal (IRC §7503)', extendedDueDate: null,
  };

  it('says why a due date moved, and nothing when it did not', () => {
    expect(weekdayDate('2027-02-01')).toBe('Mon 1 Feb 2027');
    expect(movedDueNote(moved)).toBe('Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday');
    expect(movedDueNote({ ...moved, statutoryDueDate: '2027-02-01', dueDateReason: null })).toBeNull();
    // A move the server gave no reason for still says where from.
    expect(movedDueNote({ ...moved, dueDateReason: null })).toBe('Due Mon 1 Feb 2027 — moved from Sun 31 Jan 2027');
  });

  it('counts to the extended due date once there is one', () => {
    expect(effectiveDueDate({ dueDate: '2027-03-15', extendedDueDate: '2027-09-15' })).toBe('2027-09-15');
    expect(effectiveDueDate({ dueDate: '2027-03-15', extendedDueDate: null })).toBe('2027-03-15');
    expect(daysLabel(item('2027-03-01', 'extended', '2027-04-30'), TODAY)).toEqual({ text: '51 days', tone: 'normal' });
  });

  it("lists an item's dates for its dialogs: the period's days, statutory, adjusted and extended due dates", () => {
    expect(itemDateRows({ ...moved, extendedDueDate: '2027-04-30' })).toEqual([
      ['Period', 'Q4 2026'], ['Period Start', 'Oct 01, 2026'], ['Period End', 'Dec 31, 2026'],
      ['Statutory Due Date', 'Sun 31 Jan 2027'], ['Due Date', 'Mon 1 Feb 2027 (31 Jan 2027 is a Sunday)'],
      ['Business Days', 'US federal (IRC §7503)'], ['Extended Due Date', 'Fri 30 Apr 2027'],
    ]);
    expect(itemDateRows({ ...moved, statutoryDueDate: '2027-02-01', dueDateReason: null, holidayCalendar: null })).toEqual([
      ['Period', 'Q4 2026'], ['Period Start', 'Oct 01, 2026'], ['Period End', 'Dec 31, 2026'], ['Due Date', 'Mon 1 Feb 2027'],
    ]);
  });
});

describe('generation on the Schedules tab', () => {
  it('offers next year from October on', () => {
    expect(generationYears('2026-09-30')).toEqual([2026]);
    expect(generationYears('2026-10-01')).toEqual([2026, 2027]);
    expect(generationYears('2026-11-26')).toEqual([2026, 2027]);
  });

  it('starts by default on the day the (earliest) schedule was made, whichever year is generated', () => {
    const made = (day: string) => ({ createdAt: new Date(`${day}T12:00:00`).toISOString() });
    expect(generationStart([made('2026-11-26')])).toBe('2026-11-26');
    expect(generationStart([made('2026-11-26'), made('2026-03-02')])).toBe('2026-03-02');
    expect(generationStart([])).toBeUndefined();
  });

  it('names the three-month patterns by their months', () => {
    expect(QUARTER_PATTERNS).toEqual([
      { label: 'Jan / Apr / Jul / Oct', months: ['1', '4', '7', '10'] },
      { label: 'Feb / May / Aug / Nov', months: ['2', '5', '8', '11'] },
      { label: 'Mar / Jun / Sep / Dec', months: ['3', '6', '9', '12'] },
    ]);
  });
});
