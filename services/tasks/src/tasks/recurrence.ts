import type { RecurringPattern } from '@ledgerline/contracts/tasks.contracts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS: Partial<Record<RecurringPattern, number>> = { monthly: 1, quarterly: 3, yearly: 12 };

/**
 * The due date `steps` periods after `origin` (the occurrence the series is anchored on),
 * in UTC. Months are counted from the origin, not from the previous occurrence, so a
 * month end clamps without drifting: 31 Jan monthly gives 28 (or 29) Feb, then 31 Mar;
 * 29 Feb yearly gives 28 Feb, and 29 Feb again in the next leap year.
 */
export function occurrenceDate(origin: Date, pattern: RecurringPattern, steps: number): Date {
  if (pattern === 'daily') return new Date(origin.getTime() + steps * DAY_MS);
  if (pattern === 'weekly') return new Date(origin.getTime() + steps * 7 * DAY_MS);
  const months = origin.getUTCMonth() + steps * MONTHS[pattern]!;
  const year = origin.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const d = new Date(origin);
  d.setUTCFullYear(year, month, Math.min(origin.getUTCDate(), lastDay));
  return d;
}

/** The last year a due date may fall in: dates are ISO days with four-digit years (contracts' scalars). */
const LAST_YEAR = 9999;

/**
 * Whether an occurrence due at `due` is still within a series ending on `end` (the whole end
 * day counts); a series also ends before it would leave four-digit years.
 */
export function withinEnd(due: Date, end: Date | null): boolean {
  if (due.getUTCFullYear() > LAST_YEAR) return false;
  return !end || due.toISOString().slice(0, 10) <= end.toISOString().slice(0, 10);
}
