/**
 * Initials of a person's or a firm's name: the first letters of its first and last word
 * ('Harbor Light Accounting' → 'HA'). The header's avatar and the firm's sign-in mark show
 * them, in the app and in the sign-in page the gateway writes into its first HTML.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}
