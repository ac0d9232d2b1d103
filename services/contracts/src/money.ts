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

/**
 * Digits of a currency's minor unit (2 for USD, GBP, AUD, CAD and INR; 0 for JPY), as the
 * runtime's ISO 4217 data says. Invoices keep amounts as integers of this unit (issue 43).
 */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An integer of minor units in its currency, every decimal shown: 150000 USD → '$1,500.00'. */
export function formatMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Amounts are whole minor units, not ${minor}`);
  const digits = minorUnitDigits(currency);
  const locale = currency === 'INR' ? 'en-IN' : 'en-US';
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(minor / 10 ** digits);
}
