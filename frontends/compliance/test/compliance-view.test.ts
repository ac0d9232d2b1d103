import { describe, expect, it } from '@jest/globals';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import {
  daysLabel, firstFew, generationStart, generationYears, isCalendarOverdue, itemsByDay, monthNames, QUARTER_PATTERNS, shiftView, shortName, todayView, trackerDate, viewMonths, viewRange, viewTitle,
} from '../src/compliance-view.ts';

/** The firm's today (ui/firm-today.ts). */
const TODAY = '2027-03-10';
const item = (dueDate: string, status: ComplianceItem['status'] = 'pending', extensionDate: string | null = null) => ({ dueDate, status, extensionDate });

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
