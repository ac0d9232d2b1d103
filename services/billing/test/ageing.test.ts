import { describe, expect, it } from '@jest/globals';
import { ageingBucket } from '../src/invoices/invoice.service.ts';

describe('receivables ageing buckets (days past the due date, calendar days)', () => {
  it.each([
    ['2026-03-10', 'current'], ['2026-03-11', 'current'], ['2026-03-12', 'days1to30'], ['2026-04-10', 'days1to30'], ['2026-04-11', 'days31to60'],
    ['2026-05-10', 'days31to60'], ['2026-05-11', 'days61to90'], ['2026-06-09', 'days61to90'], ['2026-06-10', 'over90'],
  ] as const)('due 2026-03-11, seen on %s: %s', (today, bucket) => {
    expect(ageingBucket('2026-03-11', today)).toBe(bucket);
  });

  it('counts calendar days, a leap day included', () => {
    expect(ageingBucket('2028-02-28', '2028-03-29')).toBe('days1to30'); // 30 days, 29 February included
    expect(ageingBucket('2028-02-28', '2028-03-30')).toBe('days31to60');
  });
});
