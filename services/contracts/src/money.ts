/**
 * An amount of money in its currency, the one way the product prints money: '$121,411.20',
 * '₹45,00,000' (Indian grouping for rupees), '£90,000', 'A$75,000'. An amount with a fraction
 * shows all of its currency's decimals ('$121,411.20', never '$121,411.2'); a whole amount,
 * such as a threshold the law sets, shows none ('$100,000').
 */
export function formatMoney(amount: number, currency: string): string {
  const locale = currency === 'INR' ? 'en-IN' : 'en-US';
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(locale, { style: 'currency', currency, ...(whole ? { maximumFractionDigits: 0 } : {}) }).format(amount);
}
