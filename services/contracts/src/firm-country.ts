import { z } from 'zod';

/*
 * A firm's country (issue 44): an ISO 3166-1 alpha-2 code. It decides how the firm's pages
 * write dates and numbers (the locale), the firm's currency, and which jurisdiction's
 * statutory calendars come first. Clients' jurisdictions use the portal's older codes, where
 * Great Britain is 'UK' (directory's CLIENT_JURISDICTIONS): `jurisdiction` maps between them.
 */

export const FIRM_COUNTRIES = ['US', 'IN', 'GB', 'AU', 'CA'] as const;
export type FirmCountry = (typeof FIRM_COUNTRIES)[number];

export interface FirmCountryFacts {
  label: string;
  /** BCP 47 locale of the firm's dates and numbers. */
  locale: string;
  /** ISO 4217 currency. */
  currency: string;
  /** The client jurisdiction (and compliance preset) code of the same country. */
  jurisdiction: 'US' | 'IN' | 'UK' | 'AU' | 'CA';
  /** The zone the console suggests when a country is picked and no zone is set. */
  suggestedTimeZone: string;
}

export const FIRM_COUNTRY_FACTS: Readonly<Record<FirmCountry, FirmCountryFacts>> = {
  US: { label: 'United States', locale: 'en-US', currency: 'USD', jurisdiction: 'US', suggestedTimeZone: 'America/New_York' },
  IN: { label: 'India', locale: 'en-IN', currency: 'INR', jurisdiction: 'IN', suggestedTimeZone: 'Asia/Kolkata' },
  GB: { label: 'United Kingdom', locale: 'en-GB', currency: 'GBP', jurisdiction: 'UK', suggestedTimeZone: 'Europe/London' },
  AU: { label: 'Australia', locale: 'en-AU', currency: 'AUD', jurisdiction: 'AU', suggestedTimeZone: 'Australia/Sydney' },
  CA: { label: 'Canada', locale: 'en-CA', currency: 'CAD', jurisdiction: 'CA', suggestedTimeZone: 'America/Toronto' },
};

export const FIRM_COUNTRY_MESSAGE = `Country must be one of ${FIRM_COUNTRIES.join(', ')}`;

/** Upper-cased before the check, so 'us' is US; 'UK' (the common name, not ISO's) is GB. */
export const firmCountrySchema = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim().toUpperCase() === 'UK' ? 'GB' : v.trim().toUpperCase()) : v),
  z.enum(FIRM_COUNTRIES, { error: FIRM_COUNTRY_MESSAGE }),
);

/** The currency of a firm's country; null for a firm whose country is not set. */
export const firmCurrency = (country: FirmCountry | null): string | null => (country ? FIRM_COUNTRY_FACTS[country].currency : null);

/** The locale of a firm's dates and numbers; undefined (the browser's own) when the country is not set. */
export const firmLocale = (country: FirmCountry | null | undefined): string | undefined => (country ? FIRM_COUNTRY_FACTS[country].locale : undefined);
