import type { ComplianceFrequency } from '@ledgerline/contracts/compliance.contracts.ts';

/** One tracker item a schedule yields for a year. Dates are calendar days, 'YYYY-MM-DD'. */
export interface Period {
  /** Unique per schedule: the due month, 'YYYY-MM'. */
  key: string;
  /** 'Mar 2027' (monthly), 'Q1 2027' (quarterly), 'FY 2027' (yearly). */
  label: string;
  start: string;
  end: string;
  dueDate: string;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const day = (year: number, month: number, d: number) => `${year}-${pad(month)}-${pad(d)}`;
/** Days in `month` (1–12) of `year`, leap years included. */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The periods of one year of a schedule (spec 001 §3, §5): monthly twelve, quarterly one per
 * due month, yearly one. The due day clamps to the month's last day (31 in June → 30 June;
 * 29–31 in February → 28 or 29). A label names the month, calendar quarter or year the item
 * is due in; the model has no "period covered" offset, so that is what it can say truthfully.
 */
export function periodsOf(schedule: { frequency: ComplianceFrequency; dueDayOfMonth: number; dueMonths: readonly string[] }, year: number): Period[] {
  const months = schedule.frequency === 'monthly' ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : schedule.dueMonths.map(Number);
  return months.map((month) => {
    const dueDate = day(year, month, Math.min(schedule.dueDayOfMonth, daysInMonth(year, month)));
    const key = `${year}-${pad(month)}`;
    if (schedule.frequency === 'monthly') {
      return { key, label: `${MONTH_NAMES[month - 1]} ${year}`, start: day(year, month, 1), end: day(year, month, daysInMonth(year, month)), dueDate };
    }
    if (schedule.frequency === 'quarterly') {
      const quarter = Math.ceil(month / 3);
      const first = quarter * 3 - 2;
      return { key, label: `Q${quarter} ${year}`, start: day(year, first, 1), end: day(year, first + 2, daysInMonth(year, first + 2)), dueDate };
    }
    return { key, label: `FY ${year}`, start: day(year, 1, 1), end: day(year, 12, 31), dueDate };
  });
}
