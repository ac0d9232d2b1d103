import { describe, expect, it } from '@jest/globals';
import { coveredPeriod, periodLagFor, type CoveredPeriodInput } from '../../src/calendar/covered-period.ts';

const of = (dueDate: string, frequency: CoveredPeriodInput['frequency'], periodLagMonths: number, jurisdiction: CoveredPeriodInput['jurisdiction'], dueMonths?: string[]) =>
  coveredPeriod({ dueDate, frequency, periodLagMonths, jurisdiction, dueMonths });

describe('the period a due date covers', () => {
  it('monthly: the month `lag` months before the due month, across a year end', () => {
    expect(of('2026-11-20', 'monthly', 1, 'IN')).toEqual({ label: 'Oct 2026', start: '2026-10-01', end: '2026-10-31' });
    expect(of('2027-01-11', 'monthly', 1, 'IN')).toEqual({ label: 'Dec 2026', start: '2026-12-01', end: '2026-12-31' });
    expect(of('2028-03-07', 'monthly', 1, 'US')).toEqual({ label: 'Feb 2028', start: '2028-02-01', end: '2028-02-29' });
    expect(of('2026-11-15', 'monthly', 0, 'US').label).toBe('Nov 2026');
  });

  it('quarters are numbered in each jurisdiction\'s year; the UK names their months', () => {
    expect(of('2026-10-31', 'quarterly', 1, 'IN', ['1', '4', '7', '10'])).toEqual({ label: 'Q2 FY 2026-27', start: '2026-07-01', end: '2026-09-30' });
    expect(of('2027-01-31', 'quarterly', 1, 'IN', ['1', '4', '7', '10']).label).toBe('Q3 FY 2026-27');
    expect(of('2027-04-30', 'quarterly', 1, 'IN', ['1', '4', '7', '10']).label).toBe('Q4 FY 2026-27');
    expect(of('2027-01-31', 'quarterly', 1, 'US', ['1', '4', '7', '10'])).toEqual({ label: 'Q4 2026', start: '2026-10-01', end: '2026-12-31' });
    expect(of('2026-10-28', 'quarterly', 1, 'AU', ['1', '4', '7', '10'])).toEqual({ label: 'Q1 FY2027', start: '2026-07-01', end: '2026-09-30' });
    expect(of('2027-02-07', 'quarterly', 2, 'UK', ['2', '5', '8', '11'])).toEqual({ label: 'Oct–Dec 2026', start: '2026-10-01', end: '2026-12-31' });
  });

  it('an even pattern off the quarter grid keeps its own months (a UK VAT stagger)', () => {
    expect(of('2027-03-07', 'quarterly', 2, 'UK', ['3', '6', '9', '12'])).toEqual({ label: 'Nov 2026–Jan 2027', start: '2026-11-01', end: '2027-01-31' });
    expect(of('2026-06-15', 'quarterly', 1, 'US', ['3', '6', '9', '12'])).toEqual({ label: 'Mar–May 2026', start: '2026-03-01', end: '2026-05-31' });
  });

  it('an uneven pattern snaps to the latest standard quarter ending `lag` months before (India\'s TDS return due 31 May)', () => {
    expect(of('2027-05-31', 'quarterly', 1, 'IN', ['1', '5', '7', '10'])).toEqual({ label: 'Q4 FY 2026-27', start: '2027-01-01', end: '2027-03-31' });
    expect(of('2027-07-31', 'quarterly', 1, 'IN', ['1', '5', '7', '10']).label).toBe('Q1 FY 2027-28');
  });

  it('years: India April–March, the UK 6 April–5 April, Australia July–June, the US calendar year', () => {
    expect(of('2027-07-31', 'yearly', 4, 'IN')).toEqual({ label: 'FY 2026-27', start: '2026-04-01', end: '2027-03-31' });
    expect(of('2027-01-31', 'yearly', 10, 'UK')).toEqual({ label: '2025-26', start: '2025-04-06', end: '2026-04-05' });
    expect(of('2026-10-31', 'yearly', 4, 'AU')).toEqual({ label: 'FY2026', start: '2025-07-01', end: '2026-06-30' });
    expect(of('2027-04-15', 'yearly', 4, 'US')).toEqual({ label: '2026', start: '2026-01-01', end: '2026-12-31' });
    expect(of('2027-04-30', 'yearly', 4, 'CA').label).toBe('2026');
  });

  it('a year that is not the jurisdiction\'s names its months; a negative lag is a year still running', () => {
    expect(of('2026-12-31', 'yearly', 12, 'UK')).toEqual({ label: 'Jan–Dec 2025', start: '2025-01-01', end: '2025-12-31' });
    expect(of('2027-09-15', 'yearly', 3, 'US')).toEqual({ label: 'Jul 2026–Jun 2027', start: '2026-07-01', end: '2027-06-30' });
    expect(of('2027-01-31', 'yearly', -2, 'UK')).toEqual({ label: '2026-27', start: '2026-04-06', end: '2027-04-05' });
  });
});

describe('the lag of "the period of the due date" and "the period before it"', () => {
  const label = (choice: 'due' | 'before', frequency: CoveredPeriodInput['frequency'], dueDate: string, dueMonths: string[], jurisdiction: CoveredPeriodInput['jurisdiction']) =>
    of(dueDate, frequency, periodLagFor(choice, frequency, dueMonths, jurisdiction), jurisdiction, dueMonths).label;

  it.each([
    ['due', 'monthly', '2026-11-20', [], 'IN', 'Nov 2026'],
    ['before', 'monthly', '2026-11-20', [], 'IN', 'Oct 2026'],
    ['due', 'quarterly', '2027-01-15', ['1', '4', '7', '10'], 'US', 'Q1 2027'],
    ['before', 'quarterly', '2027-01-15', ['1', '4', '7', '10'], 'US', 'Q4 2026'],
    ['due', 'quarterly', '2027-03-15', ['3', '6', '9', '12'], 'US', 'Q1 2027'],
    ['before', 'quarterly', '2027-03-15', ['3', '6', '9', '12'], 'US', 'Q4 2026'],
    ['before', 'quarterly', '2027-02-07', ['2', '5', '8', '11'], 'IN', 'Q3 FY 2026-27'],
    ['due', 'yearly', '2027-05-15', ['5'], 'US', '2027'],
    ['before', 'yearly', '2027-05-15', ['5'], 'US', '2026'],
    ['before', 'yearly', '2027-07-31', ['7'], 'IN', 'FY 2026-27'],
    ['due', 'yearly', '2027-07-31', ['7'], 'IN', 'FY 2027-28'],
    ['before', 'yearly', '2027-01-31', ['1'], 'UK', '2025-26'],
    ['before', 'yearly', '2026-10-31', ['10'], 'AU', 'FY2026'],
    ['due', 'yearly', '2026-12-31', ['12'], 'US', '2026'],
  ] as const)('%s, %s, due %s → %s', (choice, frequency, dueDate, months, jurisdiction, expected) => {
    expect(label(choice, frequency, dueDate, [...months], jurisdiction)).toBe(expected);
  });
});
