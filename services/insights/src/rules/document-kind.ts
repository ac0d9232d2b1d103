import type { DocumentKind } from '@ledgerline/contracts/insights.contracts.ts';

/*
 * What a document is, read as a person would: by its title first (the file name and the
 * first lines, where a form prints "Form 1040 U.S. Individual Income Tax Return"), then by
 * its body. The title decides because a body cites other forms: a 1040 asks for "Form(s)
 * W-2, box 1", a K-1 names the 1120-S it comes with.
 */

/** Lines of the text read as its title. */
const TITLE_LINES = 6;

/** Most specific first: a K-1 "(Form 1120-S)" is a K-1, a W-2 "Copy B" is not a return. */
const KINDS: readonly [DocumentKind, RegExp][] = [
  ['owner_share', /\bschedule\s+k-?1\b|\b(?:shareholder|partner|beneficiary)['’]?s share of (?:current year )?income\b/i],
  ['wage_statement', /\bform\s+w-?2\b|\bwage and tax statement\b|\bp60\b|\bend of year certificate\b|\bform\s+(?:no\.?\s*)?16\b|\bpayg payment summary\b|\bincome statement\b.{0,40}\bpayg\b/i],
  ['contractor_payments', /\b1099-?(?:nec|misc|k)\b|\bnonemployee compensation\b/i],
  ['individual_tax_return', /\bform\s+1040(?:-?sr)?\b|\bindividual income tax return\b|\bitr-?[1-4]\b|\bsa100\b|\bself assessment tax return\b|\bindividual tax return\b|\bfiling status\b[\s\S]*?\badjusted gross income\b/i],
  ['business_tax_return', /\bform\s+(?:1120(?:-?s)?|1065)\b|\bincome tax return for an s corporation\b|\bcorporation income tax return\b|\breturn of partnership income\b|\bct600\b|\bcompany tax return\b|\bitr-?[5-7]\b/i],
  ['sales_tax_return', /\bgstr-?\s?(?:1|3b|9)\b|\bvat return\b|\bvalue added tax return\b|\bbusiness activity statement\b|\bsales (?:and use )?tax return\b|\bgst\/hst return\b/i],
  ['bank_statement', /\bbank statement\b|\baccount statement\b|\bstatement of account\b(?!s)|\b(?:opening|beginning|closing|ending) balance\b/i],
  ['invoice', /\b(?:tax )?invoice\b|\bbill of supply\b/i],
  ['financial_statement', /\bprofit (?:and|&) loss\b|\bincome statement\b|\bstatement of (?:operations|income|profit or loss|accounts)\b|\btrading account\b|\bbalance sheet\b|\bfinancial statements?\b/i],
];

const kindIn = (text: string): DocumentKind | null => KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;

/** The document's kind from its (readable) name and text; 'unclassified' when nothing says. */
export function documentKind(name: string, text: string): DocumentKind {
  const title = [name, ...text.split('\n').filter((l) => l.trim()).slice(0, TITLE_LINES)].join('\n');
  return kindIn(title) ?? kindIn(text) ?? 'unclassified';
}
