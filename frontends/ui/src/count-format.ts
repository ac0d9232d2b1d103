import { firmFormats } from '@ledgerline/ui/firm-formats.ts';

/**
 * A count as the firm's country writes it: 1234567 is '1,234,567', in India '12,34,567'. Written out, as formatDate is, so a page
 * that shows counts (the home's stat cards) does not load ICU's locale data in its first
 * render for it; a number that is not a whole one is left to Intl.
 */
export function formatCount(count: number): string {
  const lakhs = firmFormats().grouping === 'lakhs';
  if (!Number.isSafeInteger(count)) return count.toLocaleString(lakhs ? 'en-IN' : 'en-US');
  const digits = String(Math.abs(count));
  // Lakhs: the last three digits, then pairs.
  const grouped = lakhs && digits.length > 3
    ? `${digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`
    : digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${grouped}` : grouped;
}
