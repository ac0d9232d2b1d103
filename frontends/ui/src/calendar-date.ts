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

export function todayCalendarDate(now = new Date()): string {
  return toCalendarDate(now);
}
