import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { readCurrentTenant } from './auth-storage.ts';

/*
 * How a firm's pages write dates and numbers, by the firm's country (issue 44): the US (and a
 * firm whose country is not set: the spec's own format) month first, India, the UK and Australia
 * day first, Canada year first (its all-numeric standard, CSA Z234.4); India groups digits in
 * lakhs and crores. Read once per page load from the stored current firm, which the sign-in and
 * the tenant selector write and the shell keeps up to date (choosing a firm reloads the page).
 */

export type DateOrder = 'mdy' | 'dmy' | 'ymd';
export type DigitGrouping = 'thousands' | 'lakhs';

export interface FirmFormats {
  dateOrder: DateOrder;
  grouping: DigitGrouping;
}

export function formatsOfCountry(country: FirmCountry | null | undefined): FirmFormats {
  switch (country) {
    case 'IN': return { dateOrder: 'dmy', grouping: 'lakhs' };
    case 'GB':
    case 'AU': return { dateOrder: 'dmy', grouping: 'thousands' };
    case 'CA': return { dateOrder: 'ymd', grouping: 'thousands' };
    default: return { dateOrder: 'mdy', grouping: 'thousands' };
  }
}

let current: FirmFormats | undefined;

/** The formats of the firm this page was loaded for. */
export function firmFormats(): FirmFormats {
  current ??= formatsOfCountry(typeof localStorage === 'undefined' ? null : readCurrentTenant()?.country);
  return current;
}

/** Tests, and a page that learns the firm's country before its first date is drawn. */
export function setFirmFormats(country: FirmCountry | null | undefined): void {
  current = formatsOfCountry(country);
}
