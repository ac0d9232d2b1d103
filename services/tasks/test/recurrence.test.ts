import { describe, expect, it } from '@jest/globals';
import { occurrenceDate, withinEnd } from '../src/tasks/recurrence.ts';

const series = (origin: string, pattern: Parameters<typeof occurrenceDate>[1], n: number) =>
  Array.from({ length: n }, (_, i) => occurrenceDate(origin, pattern, i + 1));

describe('task recurrence (due dates are calendar dates)', () => {
  it('clamps month ends to the month and returns to the anchor day: 31 Jan → 28/29 Feb → 31 Mar', () => {
    expect(series('2025-01-31', 'monthly', 4)).toEqual(['2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']);
    expect(series('2024-01-31', 'monthly', 2)).toEqual(['2024-02-29', '2024-03-31']);
  });

  it('counts quarters and years from the origin: 29 Feb yearly is 28 Feb until the next leap year', () => {
    expect(series('2024-02-29', 'yearly', 4)).toEqual(['2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
    expect(series('2025-11-30', 'quarterly', 3)).toEqual(['2026-02-28', '2026-05-30', '2026-08-30']);
  });

  it('adds days and weeks across month and year ends, and across summer-time changes', () => {
    expect(series('2025-12-30', 'daily', 3)).toEqual(['2025-12-31', '2026-01-01', '2026-01-02']);
    expect(series('2024-02-22', 'weekly', 2)).toEqual(['2024-02-29', '2024-03-07']);
    expect(series('2026-03-07', 'daily', 2)).toEqual(['2026-03-08', '2026-03-09']);
  });

  it('ends on the end date, that day included', () => {
    expect(withinEnd('2025-03-31', '2025-03-31')).toBe(true);
    expect(withinEnd('2025-04-01', '2025-03-31')).toBe(false);
    expect(withinEnd('2099-01-01', null)).toBe(true);
    expect(withinEnd(occurrenceDate('9999-12-31', 'daily', 1), null)).toBe(false);
  });
});
