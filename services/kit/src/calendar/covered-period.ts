import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';

/**
 * The period a statutory return or payment covers, from its due date (DESIGN §8 "firm calendar").
 * A return is due after the period it reports on: GSTR-1 due 11 Nov 2026 is October's, Form 941 due
 * 31 Jan 2027 is Q4 2026's. A schedule says how far: `periodLagMonths`, the months from the
 * covered period's last month to the due month (1 for GSTR-1 and Form 941, 4 for Form 1040, 0 for
 * "the period of the due date", negative for a payment made ahead of its year).
 *
 * Labels follow the jurisdiction's years: India's fiscal year April–March ('FY 2025-26', quarters
 * 'Q2 FY 2026-27'), the UK tax year 6 April–5 April ('2025-26'), Australia's income year July–June
 * ('FY2026' for Jul 2025–Jun 2026, quarters 'Q1 FY2027'), and calendar years in the US and Canada
 * ('2025', 'Q4 2025'). Months are 'Oct 2026'. A span that is not one of the jurisdiction's years or
 * quarters names its months ('Feb–Apr 2026', 'Nov 2026–Jan 2027').
 */

export type PeriodFrequency = 'monthly' | 'quarterly' | 'yearly';

export interface CoveredPeriod {
  label: string;
  /** First and last day, 'YYYY-MM-DD'. */
  start: string;
  end: string;
}

export interface CoveredPeriodInput {
  /** 'YYYY-MM-DD'. */
  dueDate: string;
  frequency: PeriodFrequency;
  periodLagMonths: number;
  jurisdiction: ClientJurisdiction;
  /**
   * A quarterly schedule's due months. When they are not evenly three months apart (India's TDS
   * return: 31 Jan, 31 May, 31 Jul, 31 Oct), each item covers the latest standard quarter
   * (ending March, June, September or December) that ends at least `periodLagMonths` before it.
   */
  dueMonths?: readonly (string | number)[];
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A month as a count from year 0 (year * 12 + month - 1), so months add and subtract. */
type MonthIndex = number;
const toIndex = (year: number, month: number): MonthIndex => year * 12 + month - 1;
const yearOf = (i: MonthIndex) => Math.floor(i / 12);
const monthOf = (i: MonthIndex) => (i % 12) + 1;
const firstDayOf = (i: MonthIndex) => `${yearOf(i)}-${pad(monthOf(i))}-01`;
const lastDayOf = (i: MonthIndex) => `${yearOf(i)}-${pad(monthOf(i))}-${pad(lastDay(yearOf(i), monthOf(i)))}`;
const monthLabel = (i: MonthIndex) => `${MONTH_NAMES[monthOf(i) - 1]} ${yearOf(i)}`;
/** 'Feb–Apr 2026' within a year, 'Nov 2026–Jan 2027' across one. */
const spanLabel = (first: MonthIndex, last: MonthIndex) => (yearOf(first) === yearOf(last)
  ? `${MONTH_NAMES[monthOf(first) - 1]}–${monthLabel(last)}` : `${monthLabel(first)}–${monthLabel(last)}`);

/** The month the jurisdiction's tax year starts in (the UK's starts on 6 April). */
export const YEAR_START_MONTH: Record<ClientJurisdiction, number> = { US: 1, CA: 1, IN: 4, UK: 4, AU: 7 };

/** The label of the jurisdiction's tax year that starts in month index `first`. */
function yearLabel(jurisdiction: ClientJurisdiction, first: MonthIndex): string {
  const y = yearOf(first);
  const next = String((y + 1) % 100).padStart(2, '0');
  switch (jurisdiction) {
    case 'IN': return `FY ${y}-${next}`;
    case 'UK': return `${y}-${next}`;
    case 'AU': return `FY${y + 1}`;
    default: return String(y);
  }
}

/** 'Q2 FY 2026-27' (IN), 'Q1 FY2027' (AU), 'Q4 2025' (US, CA); the UK numbers no quarters, so months. */
function quarterLabel(jurisdiction: ClientJurisdiction, first: MonthIndex): string {
  if (jurisdiction === 'UK') return spanLabel(first, first + 2);
  const yearStart = YEAR_START_MONTH[jurisdiction];
  const intoYear = (monthOf(first) - yearStart + 12) % 12;
  const fyFirst = first - intoYear;
  const q = intoYear / 3 + 1;
  return jurisdiction === 'US' || jurisdiction === 'CA' ? `Q${q} ${yearOf(fyFirst)}` : `Q${q} ${yearLabel(jurisdiction, fyFirst)}`;
}

/** The three-month patterns of a schedule are even when every due month is the same distance from a quarter's end. */
const evenlySpaced = (months: readonly number[]) => new Set(months.map((m) => m % 3)).size <= 1;

export function coveredPeriod(input: CoveredPeriodInput): CoveredPeriod {
  const { frequency, periodLagMonths: lag, jurisdiction } = input;
  const dueIndex = toIndex(Number(input.dueDate.slice(0, 4)), Number(input.dueDate.slice(5, 7)));
  let lastMonth = dueIndex - lag;

  if (frequency === 'monthly') return { label: monthLabel(lastMonth), start: firstDayOf(lastMonth), end: lastDayOf(lastMonth) };

  if (frequency === 'quarterly') {
    const months = (input.dueMonths ?? []).map(Number);
    // Uneven patterns snap back to the standard quarter grid (quarters ending Mar, Jun, Sep, Dec).
    if (!evenlySpaced(months)) lastMonth -= monthOf(lastMonth) % 3;
    const first = lastMonth - 2;
    const aligned = monthOf(lastMonth) % 3 === 0;
    return { label: aligned ? quarterLabel(jurisdiction, first) : spanLabel(first, lastMonth), start: firstDayOf(first), end: lastDayOf(lastMonth) };
  }

  const first = lastMonth - 11;
  if (monthOf(first) !== YEAR_START_MONTH[jurisdiction]) {
    return { label: spanLabel(first, lastMonth), start: firstDayOf(first), end: lastDayOf(lastMonth) };
  }
  if (jurisdiction === 'UK') {
    // The UK tax year runs 6 April to 5 April: the year "ending in March" is the one ending 5 April.
    return { label: yearLabel('UK', first), start: `${yearOf(first)}-04-06`, end: `${yearOf(first) + 1}-04-05` };
  }
  return { label: yearLabel(jurisdiction, first), start: firstDayOf(first), end: lastDayOf(lastMonth) };
}

/**
 * The lag that makes a schedule's items cover "the period of the due date" (`due`) or "the period
 * before the due date" (`before`), from its first due month: the month itself or the one before
 * (monthly); the standard quarter holding the due month or the one before it (quarterly); the
 * jurisdiction's tax year holding the due month or the one before it (yearly). Schedules made by
 * hand choose one of the two; the statutory calendars give their own lag.
 */
export function periodLagFor(choice: 'due' | 'before', frequency: PeriodFrequency, dueMonths: readonly (string | number)[], jurisdiction: ClientJurisdiction): number {
  const month = Number(dueMonths[0] ?? 1);
  if (frequency === 'monthly') return choice === 'due' ? 0 : 1;
  if (frequency === 'quarterly') return choice === 'due' ? -((3 - (month % 3)) % 3) : (month % 3 || 3);
  const yearEnd = (YEAR_START_MONTH[jurisdiction] + 10) % 12 + 1;
  return choice === 'due' ? -((yearEnd - month + 12) % 12) : ((month - yearEnd + 12) % 12 || 12);
}
