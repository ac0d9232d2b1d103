/** Dates shown as MM/DD/YYYY in en-US, optionally with 12-hour time: '03/07/2025 2:05 PM' (spec 000 §3, §9; spec 001 §9). */

export type DateInput = string | number | Date | null | undefined;

export interface DateFormatOptions {
  withTime?: boolean;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function formatDate(value: DateInput, options: DateFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  const day: Intl.DateTimeFormatOptions = { month: '2-digit', day: '2-digit', year: 'numeric' };
  if (!options.withTime) return date.toLocaleDateString('en-US', day);
  return `${date.toLocaleDateString('en-US', day)} ${date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true })}`;
}

/**
 * A bare calendar date (a client's startDate) is read as a local date: Date would take it
 * as UTC midnight and show the previous day west of Greenwich.
 */
function toDate(value: string | number | Date): Date {
  if (typeof value === 'string') {
    const match = DATE_ONLY.exec(value);
    if (match) return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  }
  return new Date(value);
}
