import { describe, expect, it } from '@jest/globals';
import { compareCalendarDates, parseCalendarDate, toCalendarDate, todayCalendarDate } from '@ledgerline/ui/calendar-date.ts';

describe('calendar dates', () => {
  it('writes the local day of a Date as YYYY-MM-DD', () => {
    expect(toCalendarDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(toCalendarDate(new Date(2024, 11, 31, 0, 0))).toBe('2024-12-31');
    expect(todayCalendarDate(new Date(2025, 6, 4, 12))).toBe('2025-07-04');
  });

  it('reads YYYY-MM-DD (or the date part of a timestamp) as local midnight', () => {
    expect(parseCalendarDate('2024-03-01')).toEqual(new Date(2024, 2, 1));
    expect(parseCalendarDate('2024-03-01T00:00:00.000Z')).toEqual(new Date(2024, 2, 1));
    expect(toCalendarDate(parseCalendarDate('1999-12-31')!)).toBe('1999-12-31');
  });

  it('gives null for empty or unreadable values', () => {
    expect(parseCalendarDate('')).toBeNull();
    expect(parseCalendarDate(null)).toBeNull();
    expect(parseCalendarDate('03/01/2024')).toBeNull();
  });

  it('orders calendar dates earliest first', () => {
    expect(['2026-12-01', '2025-12-31', '2026-01-15', '2026-01-15', '2026-01-02'].sort(compareCalendarDates)).toEqual(['2025-12-31', '2026-01-02', '2026-01-15', '2026-01-15', '2026-12-01']);
    expect(compareCalendarDates('2026-01-15', '2026-01-15')).toBe(0);
  });
});
