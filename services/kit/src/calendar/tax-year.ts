import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { YEAR_START_MONTH } from './covered-period.ts';

/**
 * The tax year a date or a covered period belongs to, in a client's jurisdiction (DESIGN §8
 * "firm calendar"): what a client's documents are grouped by when they leave the firm.
 * Calendar years in the US and Canada ('2026'); the years that straddle two calendar years
 * are named by both ('2025-26'): India's April–March, Australia's July–June and the UK tax year
 * from 6 April to 5 April.
 */
export interface TaxYear {
  label: string;
  /** First and last day, 'YYYY-MM-DD'. */
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The jurisdiction's tax year holding `date` ('YYYY-MM-DD'). */
export function taxYearOf(date: string, jurisdiction: ClientJurisdiction): TaxYear {
  const month = YEAR_START_MONTH[jurisdiction];
  // The UK tax year starts on 6 April; the others on the first of their month.
  const day = jurisdiction === 'UK' ? 6 : 1;
  const firstOf = (year: number) => `${year}-${pad(month)}-${pad(day)}`;
  const year = date >= firstOf(Number(date.slice(0, 4))) ? Number(date.slice(0, 4)) : Number(date.slice(0, 4)) - 1;
  const start = firstOf(year);
  const end = dateOf(utcDay(firstOf(year + 1)) - DAY_MS);
  const label = month === 1 ? String(year) : `${year}-${pad((year + 1) % 100)}`;
  return { label, start, end };
}

/**
 * The tax year holding most of a period (the one its middle day falls in): a UK return for
 * April covers 1–30 April and belongs to the year starting 6 April; a US fiscal year from
 * February to January belongs to the year it starts in, as its return does.
 */
export function taxYearOfPeriod(period: { start: string; end: string }, jurisdiction: ClientJurisdiction): TaxYear {
  const middle = dateOf(utcDay(period.start) + Math.floor((utcDay(period.end) - utcDay(period.start)) / DAY_MS / 2) * DAY_MS);
  return taxYearOf(middle, jurisdiction);
}
