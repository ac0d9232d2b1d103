import { describe, expect, it } from '@jest/globals';
import { occurrenceDate, withinEnd } from '../src/tasks/recurrence.ts';

const at = (iso: string) => new Date(iso);
const series = (origin: string, pattern: Parameters<typeof occurrenceDate>[1], n: number) =>
  Array.from({ length: n }, (_, i) => occurrenceDate(at(origin), pattern, i + 1).toISOString().slice(0, 10));

describe('task recurrence', () => {
  it('clamps month ends to the month and returns to the anchor day: 31 Jan → 28/29 Feb → 31 Mar', () => {
    expect(series('2025-01-31T09:00:00Z', 'monthly', 4)).toEqual(['2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']);
    expect(series('2024-01-31T09:00:00Z', 'monthly', 2)).toEqual(['2024-02-29', '2024-03-31']);
  });

  it('keeps the time of day', () => {
    expect(occurrenceDate(at('2025-01-31T17:45:00Z'), 'monthly', 1).toISOString()).toBe('2025-02-28T17:45:00.000Z');
  });

  it('counts quarters and years from the origin: 29 Feb yearly is 28 Feb until the next leap year', () => {
    expect(series('2024-02-29T00:00:00Z', 'yearly', 4)).toEqual(['2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
    expect(series('2025-11-30T00:00:00Z', 'quarterly', 3)).toEqual(['2026-02-28', '2026-05-30', '2026-08-30']);
  });

  it('adds days and weeks across month and year ends', () => {
    expect(series('2025-12-30T08:00:00Z', 'daily', 3)).toEqual(['2025-12-31', '2026-01-01', '2026-01-02']);
    expect(series('2024-02-22T08:00:00Z', 'weekly', 2)).toEqual(['2024-02-29', '2024-03-07']);
  });

  it('ends on the end date, that day included', () => {
    const end = at('2025-03-31T00:00:00Z');
    expect(withinEnd(at('2025-03-31T23:00:00Z'), end)).toBe(true);
    expect(withinEnd(at('2025-04-01T00:00:00Z'), end)).toBe(false);
    expect(withinEnd(at('2099-01-01T00:00:00Z'), null)).toBe(true);
    expect(withinEnd(occurrenceDate(at('9999-12-31T00:00:00Z'), 'daily', 1), null)).toBe(false);
  });
});
