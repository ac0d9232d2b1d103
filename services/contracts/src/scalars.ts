import { z } from 'zod';

/*
 * The bounded building blocks every payload is made of (robustness: no input reaches the
 * database that it cannot hold). Ids and counts are PostgreSQL `integer` columns; text
 * never carries NUL or other control characters (PostgreSQL refuses NUL outright); dates
 * are real calendar days PostgreSQL accepts. Every service's schemas use these, so the
 * OpenAPI they feed says what the validator enforces.
 */

/** The largest value of a PostgreSQL `integer` column (ids, counts). */
export const DB_INT_MAX = 2_147_483_647;

/**
 * Control characters other than tab, line feed and carriage return (C0, DEL and C1).
 * Written as escapes so the source stays plain text.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** The same rule as a JSON Schema pattern (the OpenAPI documents it on every text field). */
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$';

export const controlCharacterMessage = (field: string): string => `${field} must not contain control characters`;

/**
 * Text a person typed: at most `max` characters, no control characters (tab and line
 * breaks are allowed). `field` names it in the message.
 */
export function textSchema(field: string, max: number) {
  return z.string({ error: `${field} must be text` })
    .max(max, `${field} must be at most ${max} characters`)
    .regex(new RegExp(NO_CONTROL_CHARACTERS_PATTERN), controlCharacterMessage(field));
}

/**
 * An id in a body or query string: a whole number from 1 to what the database holds.
 * Query strings arrive as text, so it coerces; a number out of range is a 400 naming the
 * field (in a path, an id that cannot exist is a 404: kit's `parsePathId`).
 */
export function idSchema(field: string, message = `${field} must be a valid id`) {
  return z.coerce.number({ error: message }).int(message).min(1, message).max(DB_INT_MAX, message);
}

/** A whole number within `min`..`max` (both within the database's `integer`). */
export function intSchema(field: string, min: number, max: number, message = `${field} must be a whole number from ${min} to ${max}`) {
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** Whether `YYYY-MM-DD` names a day that exists, in years 1–9999 (PostgreSQL refuses year 0). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // days in that month of a leap year
  if (day > last) return false;
  return !(month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)));
}

/** A calendar day as `YYYY-MM-DD` that exists (no 30 February) in years 1–9999. */
export function isoDateSchema(field: string, message = `${field} must be a valid date (YYYY-MM-DD)`) {
  return z.string({ error: message }).trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(isCalendarDate, message);
}

/** The farthest a time zone offset may be from UTC: PostgreSQL refuses more than 15:59. */
const MAX_OFFSET_HOURS = 15;
/** Instants as every store and JSON date here hold them: years 1–9999 in UTC. */
const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether an instant (already shaped like one) is one PostgreSQL stores and reads back as given. */
function isStorableInstant(value: string): boolean {
  if (!isCalendarDate(value.slice(0, 10))) return false;
  const offset = /([+-])(\d{2}):\d{2}$/.exec(value);
  if (offset && Number(offset[2]) > MAX_OFFSET_HOURS) return false;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isFinite(ms) && ms >= FIRST_INSTANT_MS && ms <= LAST_INSTANT_MS;
}

/**
 * An instant: a calendar day, or an ISO timestamp on a real day with a time zone
 * ('2027-03-01T09:30:00Z', '…+05:30'). A bare day means its start in UTC. The offset is at
 * most ±15:59 and the instant, in UTC, within years 1–9999: exactly what PostgreSQL stores
 * and a JSON date reads back (9999-12-31T23:30-05:00 is in year 10000; +20:00 is no zone).
 */
export function isoInstantSchema(field: string, message = `${field} must be a date (YYYY-MM-DD) or an ISO timestamp with a time zone`) {
  return z.string({ error: message }).trim()
    .regex(/^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))?$/, message)
    .refine(isStorableInstant, message);
}
