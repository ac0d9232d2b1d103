/*
 * Calendar arithmetic in a firm's time zone (DESIGN §8 "firm calendar"). Due dates are
 * calendar dates ('YYYY-MM-DD'): they never become instants except here, where "today",
 * "overdue" and the instant a reminder fires are worked out in the firm's zone, so a date
 * set in New York is the same date in Los Angeles and Kolkata.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The part of the Temporal API (ES2026) that reads a zone's offset at an instant. */
interface TemporalZoneReader {
  Instant: { fromEpochMilliseconds(ms: number): { toZonedDateTimeISO(zone: string): { offsetNanoseconds: number } } };
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * The wall clock `instant` shows in `zone` to the second, written as if it were UTC (milliseconds).
 * Where the runtime has Temporal (Chromium 144+, Firefox 139+) it reads the zone's offset:
 * about 1 ms on a fresh page, where the first Intl.DateTimeFormat costs 25-45 ms of a
 * desktop's processor (ICU builds its pattern generator), four times that on a phone, inside
 * the first render that needs the firm's day. Elsewhere (Node.js 24, Safari) Intl reads it;
 * both read the same zone rules (a test compares them).
 */
function wallClockMs(instant: number, zone: string): number {
  const temporal = (globalThis as { Temporal?: TemporalZoneReader }).Temporal;
  if (temporal) return Math.floor(instant / 1000) * 1000 + temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).offsetNanoseconds / 1e6;
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** How far `zone` is ahead of UTC at `instant`, in milliseconds (+5:30 for Asia/Kolkata). */
function offsetMs(instant: number, zone: string): number {
  return wallClockMs(Math.floor(instant / 1000) * 1000, zone) - Math.floor(instant / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateOfUtc = (ms: number): string => {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const utcMidnight = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

/** The calendar date `instant` falls on in `zone`. */
export function dateIn(instant: Date, zone: string): string {
  return dateOfUtc(wallClockMs(instant.getTime(), zone));
}

/** Today's date in `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return dateIn(now, zone);
}

/** `date` moved by `days` (negative goes back). */
export function addDays(date: string, days: number): string {
  return dateOfUtc(utcMidnight(date) + days * DAY_MS);
}

/**
 * The instant the clocks of `zone` show `time` ('HH:MM') on `date`. A time the clocks skip
 * (spring forward) is read with the offset before the change, so it lands just after the
 * gap; a time they show twice (fall back) is the earlier one.
 */
export function instantAt(date: string, time: string, zone: string): Date {
  const wall = utcMidnight(date) + (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) * 60_000;
  const before = wall - offsetMs(wall - DAY_MS, zone);
  const after = wall - offsetMs(wall + DAY_MS, zone);
  const shown = [before, after].filter((t) => wallClockMs(t, zone) === wall).sort((a, b) => a - b);
  return new Date(shown[0] ?? before);
}

/** The first instant of `date` in `zone` (its midnight, or the first minute after a skipped one). */
export function startOfDay(date: string, zone: string): Date {
  return instantAt(date, '00:00', zone);
}

/** A due date is overdue once it is before today in the firm's zone: the whole due day counts. */
export function isOverdue(dueDate: string, zone: string, now: Date = new Date()): boolean {
  return dueDate < todayIn(zone, now);
}

/**
 * The calendar date a due date given as text means: a date is itself; an instant (older
 * clients send one) is the date it falls on in the firm's zone.
 */
export function calendarDateOf(value: string, zone: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : dateIn(new Date(value), zone);
}
