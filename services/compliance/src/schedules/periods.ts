import { coveredPeriod } from '@ledgerline/kit/calendar/covered-period.ts';
import type { ComplianceFrequency } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';

/** One tracker item a schedule yields for a year. Dates are calendar days, 'YYYY-MM-DD'. */
export interface Period {
  /** Unique per schedule: the due month, 'YYYY-MM'. */
  key: string;
  /** The covered period's label in the schedule's jurisdiction: 'Oct 2026', 'Q2 FY 2026-27', '2025-26', 'FY2026'. */
  label: string;
  /** The covered period's first and last day. */
  start: string;
  end: string;
  /** The day it is due, after the next-business-day rule where the jurisdiction has one. */
  dueDate: string;
  /** The statute's day (absent: dueDate), and why they differ. */
  statutoryDueDate?: string;
  dueDateReason?: string | null;
  holidayCalendar?: string | null;
}

/** What of a schedule decides its periods. */
export interface PeriodRule {
  frequency: ComplianceFrequency;
  dueDayOfMonth: number;
  dueMonths: readonly string[];
  periodLagMonths: number;
  jurisdiction: ClientJurisdiction;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Days in `month` (1–12) of `year`, leap years included. */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The due date of an item due in `month` of `year`: the due day, clamped to the month's last day (31 in June → 30 June). */
export const dueDateIn = (rule: Pick<PeriodRule, 'dueDayOfMonth'>, year: number, month: number): string =>
  `${year}-${pad(month)}-${pad(Math.min(rule.dueDayOfMonth, daysInMonth(year, month)))}`;

/**
 * The items a schedule has due in one year (spec 001 §3, §5): monthly twelve, quarterly and
 * yearly one per due month. Each names the period it covers (kit calendar/covered-period.ts):
 * GSTR-1 due 11 Nov 2026 covers October 2026. `from` (YYYY-MM-DD) leaves out those whose covered
 * period ended before it (a firm onboarding mid-year does not get last spring's returns).
 */
export function periodsOf(rule: PeriodRule, year: number, from?: string): Period[] {
  const months = rule.frequency === 'monthly' ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : rule.dueMonths.map(Number);
  return months.map((month) => {
    const dueDate = dueDateIn(rule, year, month);
    const covered = coveredPeriod({ dueDate, frequency: rule.frequency, periodLagMonths: rule.periodLagMonths, jurisdiction: rule.jurisdiction, dueMonths: rule.dueMonths });
    return { key: `${year}-${pad(month)}`, label: covered.label, start: covered.start, end: covered.end, dueDate };
  }).filter((p) => !from || p.end >= from);
}
