/**
 * A count as en-US writes it: 12345 is '12,345'. Written out, as formatDate is, so a page
 * that shows counts (the home's stat cards) does not load ICU's locale data in its first
 * render for it; a number that is not a whole one is left to Intl.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const grouped = String(Math.abs(count)).replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${grouped}` : grouped;
}
