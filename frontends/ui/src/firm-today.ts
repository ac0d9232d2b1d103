import { useQuery } from '@tanstack/react-query';
import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { parseCalendarDate, todayCalendarDate } from './calendar-date.ts';

/** The firm's public facts (GET /api/{tenant}/info) its pages use: its "today", its country and currency. */
export interface FirmInfo {
  timeZone: string;
  /** ISO 3166-1 alpha-2; null when the firm has none set. */
  country: FirmCountry | null;
  /** ISO 4217, from the country. */
  currency: string | null;
}

/** A firm changes its zone rarely; the Settings form writes a new zone into this cache. */
const FIRM_INFO_STALE_MS = 5 * 60_000;
/**
 * Asked up to three times before the browser's day stands in: one failed answer (a busy
 * server, a rate limit) would otherwise hold every screen on the wrong day until the cache
 * goes stale. A CI run on the real servers once saw exactly that.
 */
const FIRM_INFO_RETRIES = 2;
const FIRM_INFO_RETRY_DELAY_MS = 300;

/** The firm's /info read as useFirmToday makes it. */
export function firmInfoQuery(tenant?: string | null) {
  return { queryKey: [apiPath('info', { tenant })], staleTime: FIRM_INFO_STALE_MS, retry: FIRM_INFO_RETRIES, retryDelay: FIRM_INFO_RETRY_DELAY_MS };
}

/**
 * Today's date ('YYYY-MM-DD') on the firm's clocks, the day the server counts due, overdue
 * and reminders by (docs/using/time-zones-and-thresholds.md): someone in Los Angeles late in
 * the evening, looking at a firm in Kolkata, sees the firm's next day. Undefined until the
 * firm's zone is read, so a screen asks for its dates once, with the firm's day; should the
 * zone not be readable, the browser's day stands in rather than leaving the screen empty.
 */
export function useFirmToday(tenant?: string | null): string | undefined {
  const info = useQuery<FirmInfo>(firmInfoQuery(tenant));
  if (info.data) return todayIn(info.data.timeZone);
  return info.isError ? todayCalendarDate() : undefined;
}

/**
 * A date picker's earliest day: local midnight of the firm's day (the picker counts in local
 * dates), or of the browser's own day while the firm's zone is not read yet.
 */
export function firmDayOrLocal(firmToday: string | undefined): Date {
  return parseCalendarDate(firmToday ?? todayCalendarDate())!;
}

/** The firm's public facts, once read (shared with every other reader of /info through the cache). */
export function useFirmInfo(tenant?: string | null, enabled = true): FirmInfo | undefined {
  return useQuery<FirmInfo>({ ...firmInfoQuery(tenant), enabled }).data;
}
