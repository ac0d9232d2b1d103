import type { FirmCountry } from './firm-country.ts';

/*
 * How a firm writes a date to its clients (issue 40): the portal, the link page and the
 * e-mails all go through clientDate, so a client reads the same date everywhere. Written out
 * rather than asked of Intl: the portal's first paint must not load ICU's locale data
 * (frontends/ui/src/date-format.ts), and e-mails must not depend on the server's ICU build.
 */

/** The countries a firm may be in (ISO 3166-1 alpha-2), as the firm's `country`. */
export type ClientDateCountry = FirmCountry;
/** A firm's stored country as one dates are written for, or null when it has none. */
export const asClientDateCountry = (country: string | null | undefined): ClientDateCountry | null =>
  country && Object.hasOwn(COUNTRIES, country) ? country as ClientDateCountry : null;
// Every FIRM_COUNTRIES code (the Record's type makes it name each), kept here so that the
// home's first paint, which writes dates, loads no zod from firm-country.ts.
const COUNTRIES: Readonly<Record<FirmCountry, true>> = { US: true, IN: true, GB: true, AU: true, CA: true };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * Month first ("Apr 8, 2027") in the US and Canada (en-CA's own medium date, and what a
 * Canadian firm's US-facing software already shows its clients); day first ("8 Apr 2027")
 * in the United Kingdom, India and Australia. A month written as a word is never misread,
 * whichever side of the Atlantic the client lives.
 */
const MONTH_FIRST: ReadonlySet<string> = new Set(['US', 'CA']);

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A calendar date ('2027-04-08', or the date part of an ISO instant) as the firm's country writes it; the input unchanged when it is not a date. */
export function clientDate(isoDate: string, country: string | null | undefined): string {
  const m = DATE_ONLY.exec(isoDate);
  if (!m) return isoDate;
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) return isoDate;
  const day = Number(m[3]);
  return MONTH_FIRST.has(country ?? 'US') ? `${month} ${day}, ${m[1]}` : `${day} ${month} ${m[1]}`;
}

/**
 * The firm's country, while the tenant registry does not carry the `country` firms are
 * given (issue 44, branch firstweek): read from its time zone. One function so that the
 * switch to the stored country is one line; a zone naming no known country is the US's.
 */
export function firmCountryFromZone(timeZone: string): ClientDateCountry {
  if (timeZone === 'Asia/Kolkata' || timeZone === 'Asia/Calcutta') return 'IN';
  if (timeZone === 'Europe/London' || timeZone === 'Europe/Belfast') return 'GB';
  if (timeZone.startsWith('Australia/')) return 'AU';
  if (CANADIAN_ZONES.has(timeZone)) return 'CA';
  return 'US';
}

const CANADIAN_ZONES: ReadonlySet<string> = new Set([
  'America/Toronto', 'America/Vancouver', 'America/Edmonton', 'America/Winnipeg', 'America/Halifax', 'America/St_Johns',
  'America/Regina', 'America/Moncton', 'America/Whitehorse', 'America/Yellowknife', 'America/Iqaluit', 'America/Montreal', 'Canada/Eastern', 'Canada/Pacific',
]);
