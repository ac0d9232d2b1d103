import type { RecurringPattern } from '@ledgerline/contracts/tasks.contracts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS: Partial<Record<RecurringPattern, number>> = { monthly: 1, quarterly: 3, yearly: 12 };

const utc = (date: string) => new Date(`${date}T00:00:00.000Z`);
/** `YYYY-MM-DD`, with years beyond 9999 written out in full (withinEnd refuses them). */
const dateOf = (d: Date) => `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;

/**
 * The due date (a calendar date) `steps` periods after `origin` (the occurrence the series
 * is anchored on). Months are counted from the origin, not from the previous occurrence,
 * so a month end clamps without drifting: 31 Jan monthly gives 28 (or 29) Feb, then 31 Mar;
 * 29 Feb yearly gives 28 Feb, and 29 Feb again in the next leap year.
 */
export function occurrenceDate(origin: string, pattern: RecurringPattern, steps: number): string {
  const start = utc(origin);
  if (pattern === 'daily') return dateOf(new Date(start.getTime() + steps * DAY_MS));
  if (pattern === 'weekly') return dateOf(new Date(start.getTime() + steps * 7 * DAY_MS));
  const months = start.getUTCMonth() + steps * MONTHS[pattern]!;
  const year = start.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dateOf(new Date(Date.UTC(year, month, Math.min(start.getUTCDate(), lastDay))));
}

/**
 * Whether an occurrence due on `due` is still within a series ending on `end` (the end day
 * included); a series also ends before it would leave four-digit years (contracts' scalars).
 */
export function withinEnd(due: string, end: string | null): boolean {
  if (!/^\d{4}-/.test(due)) return false;
  return !end || due <= end;
}
