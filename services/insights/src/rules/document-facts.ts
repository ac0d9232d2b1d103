import type { DocumentKind } from '@ledgerline/contracts/insights.contracts.ts';
import { documentKind } from './document-kind.ts';
import { periodsMentioned, type PeriodKey } from './period-mentions.ts';

/**
 * What the rules need of one document, read once when its text is extracted (and from its
 * name at upload): the periods it names, whether it reads like proof of filing, and the
 * amounts it states with the words just before each (so the firm's keywords, which may
 * change, are matched at analysis time, not baked in here).
 */
export interface DocumentFacts {
  /** What the document is (absent in facts read before issue 44: the name then decides). */
  kind?: DocumentKind;
  namePeriods: PeriodKey[];
  textPeriods: PeriodKey[];
  nameFiling: boolean;
  textFiling: boolean;
  amounts: AmountMention[];
}

export interface AmountMention {
  amount: number;
  /**
   * Up to CONTEXT_CHARS lowercased characters before the amount, on its line; for an amount
   * alone on its line (a form's box with its value below the label), the line above.
   */
  context: string;
}

/** Words of a filing proof: an acknowledgement, the GST portal's ARN, 'filed', a receipt. */
const FILING_WORDS = /\b(?:acknowledge?ments?|ack\.?\s*no|arn|filed|e-?filed|receipt)\b/i;
export const mentionsFiling = (text: string): boolean => FILING_WORDS.test(text);

export const CONTEXT_CHARS = 80;
/** A document yields at most this many amounts (a ledger of thousands of rows is not a turnover statement). */
export const MAX_AMOUNTS = 300;
const MULTIPLIERS: Record<string, number> = { thousand: 1e3, k: 1e3, lakh: 1e5, lakhs: 1e5, lac: 1e5, lacs: 1e5, million: 1e6, mn: 1e6, crore: 1e7, crores: 1e7, cr: 1e7, billion: 1e9, bn: 1e9 };
/**
 * '₹ 45,00,000', 'Rs. 4,500,000.00', 'INR 45 lakh', '$1.2 million', '2.5 cr', '4500000'.
 * Digits glued to a date separator ('31/03/2027') are not amounts.
 */
const AMOUNT = /(?<![\d/\-.:])(?:(?:rs\.?|inr|usd|₹|\$|€|£)\s*)?(\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(thousand|lakhs?|lacs?|million|mn|crores?|cr|billion|bn|k)\b)?(?![\d/\-:]|\.\d)/gi;

export function amountMentions(text: string): AmountMention[] {
  const out: AmountMention[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const unit = m[2]?.toLowerCase();
    const amount = Number(m[1]!.replace(/,/g, '')) * (unit ? MULTIPLIERS[unit]! : 1);
    if (!Number.isFinite(amount) || amount <= 0) continue;
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    let context = text.slice(Math.max(lineStart, m.index - CONTEXT_CHARS), m.index);
    if (!/\p{L}/u.test(context) && lineStart > 0) {
      const above = text.slice(0, lineStart - 1).trimEnd();
      context = above.slice(Math.max(above.lastIndexOf('\n') + 1, above.length - CONTEXT_CHARS));
    }
    out.push({ amount, context: context.toLowerCase() });
    if (out.length >= MAX_AMOUNTS) break;
  }
  return out;
}

/** What a figure measures, by the words of its label. */
export type FigureMeasure = 'sales' | 'income' | 'tax' | 'balance';
const MEASURE_WORDS: Record<string, FigureMeasure> = Object.fromEntries([
  ...['turnover', 'sales', 'receipts', 'supplies', 'revenue', 'revenues', 'outputs', 'takings'].map((w) => [w, 'sales']),
  ...['income', 'wages', 'wage', 'salary', 'salaries', 'compensation', 'earnings', 'profit', 'profits', 'dividends', 'interest', 'distributions', 'agi'].map((w) => [w, 'income']),
  ...['tax', 'taxes', 'withheld', 'withholding', 'vat', 'gst', 'hst', 'igst', 'cgst', 'sgst', 'cess', 'liability', 'refund'].map((w) => [w, 'tax']),
  ...['balance', 'deposits', 'withdrawals', 'credits', 'debits'].map((w) => [w, 'balance']),
]) as Record<string, FigureMeasure>;
/** 'incl. GST', 'excluding any VAT', 'net of tax': a qualifier of the figure, not what it measures. */
const TAX_QUALIFIER = /\b(?:incl?\.?|including|inclusive of|excl?\.?|excluding|exclusive of|ex|net of|before|after|plus)\s+(?:any\s+|all\s+)?(?:gst|vat|hst|sales tax|tax(?:es)?)\b/g;

/**
 * What the figure measures: the measure word of its label nearest the figure ('This is your
 * total income 9' is income; 'Total value of sales ... excluding any VAT' is sales), or null
 * when the label names none (an invoice's bare 'Total').
 */
export function figureMeasure(context: string): FigureMeasure | null {
  const words = context.toLowerCase().replace(TAX_QUALIFIER, ' ').match(/\p{L}+/gu) ?? [];
  for (let i = words.length - 1; i >= 0; i -= 1) {
    const measure = MEASURE_WORDS[words[i]!];
    if (measure) return measure;
  }
  return null;
}

/**
 * The largest sales figure: an amount whose context holds one of `keywords` and whose label
 * does not name another measure (income, tax, a balance), with that keyword; null if none.
 * A keyword that names a measure itself ('turnover', a firm's 'net profit') is the firm's
 * choice of what to count; a bare 'total' is read with its label.
 */
export function largestAmountNear(amounts: readonly AmountMention[], keywords: readonly string[]): { amount: number; keyword: string } | null {
  let best: { amount: number; keyword: string } | null = null;
  for (const a of amounts) {
    const keyword = keywords.find((k) => a.context.includes(k));
    if (!keyword) continue;
    if (figureMeasure(keyword) === null && (figureMeasure(a.context) ?? 'sales') !== 'sales') continue;
    if (!best || a.amount > best.amount) best = { amount: a.amount, keyword };
  }
  return best;
}

/** 'GST_Return_March_2027.pdf' reads as 'GST Return March 2027': underscores join words for \b. */
export const readableName = (name: string): string => name.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/_+/g, ' ');

export function documentFacts(name: string, text: string): DocumentFacts {
  const readable = readableName(name);
  return {
    kind: documentKind(readable, text),
    namePeriods: periodsMentioned(readable),
    textPeriods: periodsMentioned(text),
    nameFiling: mentionsFiling(readable),
    textFiling: mentionsFiling(text),
    amounts: amountMentions(text),
  };
}
