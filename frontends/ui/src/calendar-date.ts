/**
 * Calendar dates (a client's startDate) travel as 'YYYY-MM-DD' and are edited with a date
 * picker that works on local Date objects. Both directions stay in local time: going
 * through toISOString would shift the day for anyone east or west of Greenwich.
 */

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' of the local day the Date falls on. */
export function toCalendarDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of a 'YYYY-MM-DD' date (a full timestamp keeps only its date part); null when unreadable. */
export function parseCalendarDate(value: string | null | undefined): Date | null {
  const match = CALENDAR_DATE.exec(value?.slice(0, 10) ?? '');
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Orders two 'YYYY-MM-DD' dates, earliest first (for sort). Their text orders them; localeCompare
 * would too, but its first call loads ICU's collation data (10-20 ms) inside a first render.
 */
export function compareCalendarDates(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function todayCalendarDate(now = new Date()): string {
  return toCalendarDate(now);
}

/** The weeks of a month (0–11) as local dates, Sunday first, padded with the neighbouring months' days (the calendars of tasks and compliance). */
export function monthGrid(year: number, month: number): Date[][] {
  const first = new Date(year, month, 1);
  const start = new Date(year, month, 1 - first.getDay());
  const weeks: Date[][] = [];
  for (let w = 0; w < 6; w++) {
    const week = Array.from({ length: 7 }, (_, d) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + w * 7 + d));
    if (w > 3 && week[0]!.getMonth() !== month) break;
    weeks.push(week);
  }
  return weeks;
}
