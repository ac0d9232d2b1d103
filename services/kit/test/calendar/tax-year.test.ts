import { describe, expect, it } from '@jest/globals';
import { coveredPeriod } from '../../src/calendar/covered-period.ts';
import { taxYearOf, taxYearOfPeriod } from '../../src/calendar/tax-year.ts';

describe('the tax year of a date', () => {
  it.each([
    ['2026-01-01', 'US', { label: '2026', start: '2026-01-01', end: '2026-12-31' }],
    ['2025-12-31', 'CA', { label: '2025', start: '2025-01-01', end: '2025-12-31' }],
    // The UK tax year turns on 6 April.
    ['2026-04-05', 'UK', { label: '2025-26', start: '2025-04-06', end: '2026-04-05' }],
    ['2026-04-06', 'UK', { label: '2026-27', start: '2026-04-06', end: '2027-04-05' }],
    ['2026-03-31', 'IN', { label: '2025-26', start: '2025-04-01', end: '2026-03-31' }],
    ['2026-04-01', 'IN', { label: '2026-27', start: '2026-04-01', end: '2027-03-31' }],
    ['2026-06-30', 'AU', { label: '2025-26', start: '2025-07-01', end: '2026-06-30' }],
    ['2026-07-01', 'AU', { label: '2026-27', start: '2026-07-01', end: '2027-06-30' }],
    ['2099-07-01', 'AU', { label: '2099-00', start: '2099-07-01', end: '2100-06-30' }],
  ] as const)('%s in %s', (date, jurisdiction, year) => {
    expect(taxYearOf(date, jurisdiction)).toEqual(year);
  });
});

describe('the tax year of a covered period', () => {
  it('is the year of the period itself for the jurisdiction\'s years and quarters', () => {
    const form1040 = coveredPeriod({ dueDate: '2026-04-15', frequency: 'yearly', periodLagMonths: 4, jurisdiction: 'US' });
    expect(taxYearOfPeriod(form1040, 'US').label).toBe('2025');
    const gstr3bMarch = coveredPeriod({ dueDate: '2026-04-20', frequency: 'monthly', periodLagMonths: 1, jurisdiction: 'IN' });
    expect(taxYearOfPeriod(gstr3bMarch, 'IN').label).toBe('2025-26');
    const basQ4 = coveredPeriod({ dueDate: '2026-07-28', frequency: 'quarterly', periodLagMonths: 1, jurisdiction: 'AU', dueMonths: ['1', '4', '7', '10'] });
    expect(taxYearOfPeriod(basQ4, 'AU').label).toBe('2025-26');
    const selfAssessment = coveredPeriod({ dueDate: '2027-01-31', frequency: 'yearly', periodLagMonths: 10, jurisdiction: 'UK' });
    expect(taxYearOfPeriod(selfAssessment, 'UK')).toEqual({ label: '2025-26', start: '2025-04-06', end: '2026-04-05' });
  });

  it('is the year holding most of a period that straddles two', () => {
    // A calendar month of April in the UK: 5 days in one year, 25 in the next.
    expect(taxYearOfPeriod({ start: '2026-04-01', end: '2026-04-30' }, 'UK').label).toBe('2026-27');
    // A US fiscal year February–January: the year it starts in.
    expect(taxYearOfPeriod({ start: '2026-02-01', end: '2027-01-31' }, 'US').label).toBe('2026');
  });
});
