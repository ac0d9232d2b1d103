import { taxComponents, type TaxComponent, type TaxComponentCode, type TaxParties } from './billing-tax.ts';

/*
 * An invoice's totals from its lines (issue 43), one way everywhere (the service stores what
 * this returns; the editor previews with it):
 *
 * - amounts are integers of the currency's minor unit (cents, paise, pence);
 * - a quantity has at most 2 decimals (1.5 hours), a rate at most 3 (9.975 %);
 * - each line's net (quantity × unit price) is rounded half up to the minor unit, then each of
 *   its tax components (net × rate) is rounded half up, per line and per component;
 * - subtotal, tax and total are sums of those rounded amounts, so the lines printed always add
 *   up to the totals printed (total = subtotal + tax, to the unit).
 *
 * Half up on non-negative amounts; the arithmetic is integer (BigInt), never floating point.
 */

export interface InvoiceLineInput {
  description: string;
  serviceId: number | null;
  quantity: number;
  /** Minor units. */
  unitPrice: number;
  /** Percent, e.g. 20 or 9.975. */
  taxRate: number;
  /** India: the service's SAC code, printed on the line. */
  sacCode?: string | null;
}

export interface InvoiceLineTotals extends InvoiceLineInput {
  net: number;
  tax: number;
  components: (TaxComponent & { amount: number })[];
}

export interface InvoiceTotals {
  lines: InvoiceLineTotals[];
  subtotal: number;
  tax: number;
  total: number;
  /** Tax by component and rate, in first-seen order: what the totals box lists ('CGST 9%': 2700). */
  taxSummary: { code: TaxComponentCode; ratePercent: number; taxable: number; amount: number }[];
}

const QUANTITY_SCALE = 100n;
const RATE_SCALE = 1000n;

/** A decimal with at most `digits` decimals as an integer scaled by 10^digits; anything else is refused. */
export function scaledInteger(value: number, digits: number, what: string): bigint {
  const scaled = Math.round(value * 10 ** digits);
  if (!Number.isFinite(value) || Math.abs(value * 10 ** digits - scaled) > 1e-6 || !Number.isSafeInteger(scaled)) {
    throw new RangeError(`${what} must have at most ${digits} decimals`);
  }
  return BigInt(scaled);
}

/** numerator / denominator rounded half up (both non-negative). */
export const divideHalfUp = (numerator: bigint, denominator: bigint): bigint => (numerator * 2n + denominator) / (denominator * 2n);

/** An amount as a number, refused when a number could not hold it exactly. */
function safeAmount(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('The amounts of this invoice are too large');
  return Number(value);
}

/** quantity × unitPrice, rounded half up to the minor unit. */
export const lineNet = (quantity: number, unitPrice: number): number =>
  safeAmount(divideHalfUp(scaledInteger(quantity, 2, 'Quantity') * BigInt(unitPrice), QUANTITY_SCALE));

/** net × ratePercent %, rounded half up to the minor unit. */
export const taxOn = (net: number, ratePercent: number): number =>
  safeAmount(divideHalfUp(BigInt(net) * scaledInteger(ratePercent, 3, 'Tax rate'), 100n * RATE_SCALE));

export function invoiceTotals(lines: readonly InvoiceLineInput[], parties: TaxParties): InvoiceTotals {
  const summary = new Map<string, InvoiceTotals['taxSummary'][number]>();
  const computed = lines.map((line): InvoiceLineTotals => {
    if (!Number.isSafeInteger(line.unitPrice) || line.unitPrice < 0) throw new RangeError('Unit price must be a whole, non-negative number of minor units');
    if (line.quantity < 0 || line.taxRate < 0) throw new RangeError('Quantity and tax rate cannot be negative');
    const net = lineNet(line.quantity, line.unitPrice);
    const components = taxComponents(line.taxRate, parties).map((c) => ({ ...c, amount: taxOn(net, c.ratePercent) }));
    for (const c of components) {
      const key = `${c.code} ${c.ratePercent}`;
      const s = summary.get(key) ?? { code: c.code, ratePercent: c.ratePercent, taxable: 0, amount: 0 };
      s.taxable += net;
      s.amount += c.amount;
      summary.set(key, s);
    }
    return { ...line, net, components, tax: components.reduce((sum, c) => sum + c.amount, 0) };
  });
  const subtotal = computed.reduce((sum, l) => sum + l.net, 0);
  const tax = computed.reduce((sum, l) => sum + l.tax, 0);
  if (!Number.isSafeInteger(subtotal + tax)) throw new RangeError('The amounts of this invoice are too large');
  return { lines: computed, subtotal, tax, total: subtotal + tax, taxSummary: [...summary.values()] };
}
