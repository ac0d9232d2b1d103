import { instantAt } from '@ledgerline/contracts/firm-time-zone.ts';

/** Reminders to clients (unpaid invoices, document requests) go at this hour of the firm's day. */
export const REMINDER_TIME = '09:00';

/** When a reminder meant for `day` (YYYY-MM-DD) goes: 09:00 that day in the firm's zone. */
export function reminderTimeOn(day: string, timeZone: string): Date {
  return instantAt(day, REMINDER_TIME, timeZone);
}
