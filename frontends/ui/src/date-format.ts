import { clientDate } from '@ledgerline/contracts/client-date.ts';
import { firmFormats } from '@ledgerline/ui/firm-formats.ts';

/**
 * Dates shown as MM/DD/YYYY in en-US, optionally with 12-hour time: '03/07/2025 2:05 PM' (spec 000 §3, §9; spec 001 §9);
 * a firm in India, the UK or Australia reads 07/03/2025, one in Canada 2025-03-07 (firm-formats.ts).
 */

export type DateInput = string | number | Date | null | undefined;

export interface DateFormatOptions {
  withTime?: boolean;
  /**
   * The firm's country (issue 40): a date a client reads is written as the firm's country
   * writes it ("Apr 8, 2027", "8 Apr 2027"), by the same clientDate the link page and the
   * e-mails use. Without it, the fixed MM/DD/YYYY of the staff screens.
   */
  country?: string | null;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Written out, not asked of toLocaleDateString: the format is fixed, and a page's first Intl
 * formatter loads ICU's locale data, 20-45 ms of a desktop's processor (four times that on a
 * phone) inside the first render that shows a date, such as the home's work panels.
 */
export function formatDate(value: DateInput, options: DateFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  const [dd, mm, yyyy] = [twoDigits(date.getDate()), twoDigits(date.getMonth() + 1), String(date.getFullYear())];
  const order = firmFormats().dateOrder;
  const day = options.country ? clientDate(`${yyyy}-${mm}-${dd}`, options.country)
    : order === 'dmy' ? `${dd}/${mm}/${yyyy}` : order === 'ymd' ? `${yyyy}-${mm}-${dd}` : `${mm}/${dd}/${yyyy}`;
  if (!options.withTime) return day;
  const hours = date.getHours();
  return `${day} ${hours % 12 || 12}:${twoDigits(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

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
