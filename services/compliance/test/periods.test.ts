import { describe, expect, it } from '@jest/globals';
import { PRESETS } from '../src/presets/preset.catalog.ts';
import { daysInMonth, periodsOf } from '../src/schedules/periods.ts';

describe('periods of a schedule', () => {
  it('knows month lengths, leap years included (2000 and 2024 are, 1900 and 2100 are not)', () => {
    expect([2000, 2024, 1900, 2100, 2027].map((y) => daysInMonth(y, 2))).toEqual([29, 29, 28, 28, 28]);
    expect([1, 4, 6, 9, 11, 12].map((m) => daysInMonth(2027, m))).toEqual([31, 30, 30, 30, 30, 31]);
  });

  it('clamps the due day to each month\'s end', () => {
    const monthly = periodsOf({ frequency: 'monthly', dueDayOfMonth: 30, dueMonths: [] }, 2027);
    expect(monthly.map((p) => p.dueDate.slice(5))).toEqual(['01-30', '02-28', '03-30', '04-30', '05-30', '06-30', '07-30', '08-30', '09-30', '10-30', '11-30', '12-30']);
    expect(new Set(monthly.map((p) => p.key)).size).toBe(12);
  });

  it('labels: month, calendar quarter of the due month, FY', () => {
    expect(periodsOf({ frequency: 'quarterly', dueDayOfMonth: 15, dueMonths: ['1', '4', '6', '9'] }, 2027).map((p) => p.label)).toEqual(['Q1 2027', 'Q2 2027', 'Q2 2027', 'Q3 2027']);
    expect(periodsOf({ frequency: 'yearly', dueDayOfMonth: 15, dueMonths: ['4'] }, 2027)).toEqual([{ key: '2027-04', label: 'FY 2027', start: '2027-01-01', end: '2027-12-31', dueDate: '2027-04-15' }]);
  });
});

describe('statutory presets', () => {
  it('one file per jurisdiction, every entry valid for the schedule rules (§5)', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['india', 'us', 'uk', 'australia']);
    for (const entry of PRESETS.flatMap((p) => p.entries)) {
      const months = entry.dueMonths.length;
      expect(entry.frequency === 'monthly' ? months === 0 : entry.frequency === 'yearly' ? months === 1 : months >= 1).toBe(true);
    }
    const names = PRESETS.flatMap((p) => p.entries.map((e) => e.reportTypeName.toLowerCase()));
    expect(new Set(names).size).toBe(names.length);
  });
});
