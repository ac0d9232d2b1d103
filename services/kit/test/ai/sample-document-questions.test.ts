import { describe, expect, it } from '@jest/globals';
import { marked } from 'marked';
import { EXCERPT_LABEL, ExcerptAssistant, SUMMARY_SECTIONS } from '../../src/ai/excerpt-assistant.ts';
import { rankExcerpts } from '../../src/ai/excerpt-ranking.ts';
import { linesOf } from '../../src/ai/extractive-summary.ts';
import { FirmRateLimit } from '../../src/ai/firm-rate-limit.ts';
import { describeField, fieldNoun, formFields } from '../../src/ai/form-fields.ts';
import { splitPassages } from '../../src/ai/passage-index.ts';
import { sampleDocument, type SampleDocument } from '../../src/testing/sample-documents.ts';

/*
 * Issue 44: questions a firm asks about its clients' US, UK, Indian and Australian documents,
 * answered with no model configured, and the line each answer must quote first (and, for a
 * form's box, what it must say). The engine is general (term weighting and a form's boxes
 * read as label–value pairs): nothing here is known to it.
 */

const passagesOf = (file: SampleDocument) => splitPassages(sampleDocument(file));
const answer = async (file: SampleDocument, question: string, summarise = false) =>
  (await new ExcerptAssistant(new FirmRateLimit(100)).answer({ instructions: '', history: [], question, summarise, documents: [{ name: file, passages: passagesOf(file) }] }, { firm: 'acme' })).text;
/** The answer as a reader sees it: Markdown rendered, tags and escapes gone. */
const rendered = (markdown: string): string => marked.parse(markdown, { async: false, gfm: true, breaks: true })
  .replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

interface Case {
  file: SampleDocument;
  question: string;
  /** The document line the answer quotes first. */
  first: string;
  /** What it says of that line's box, when it is a form's. */
  says?: string;
  /** Other lines it must quote too. */
  alsoQuotes?: string[];
  /** Lines it must leave out. */
  leavesOut?: string[];
}

const CASES: Case[] = [
  {
    file: 'us-w2-2025.txt', question: 'How much federal income tax was withheld, and what are the Box 12 codes?',
    first: '2 Federal income tax withheld 19,872.16', says: 'Box 2, Federal income tax withheld: 19,872.16',
    alsoQuotes: ['12a See instructions for box 12', 'D 6,000.00', 'DD 9,840.00'], leavesOut: ['20 Locality name'],
  },
  { file: 'us-w2-2025.txt', question: 'What were the wages in box 1?', first: '1 Wages, tips, other compensation 142,650.00', says: 'Box 1, Wages, tips, other compensation: 142,650.00' },
  { file: 'us-w2-2025.txt', question: 'What is the employer identification number?', first: 'b Employer identification number (EIN)', says: 'Box b, Employer identification number (EIN): 13-4567890' },
  { file: 'us-w2-2025.txt', question: 'How much state income tax was withheld?', first: '17 State income tax 8,512.44', says: 'Box 17, State income tax: 8,512.44' },
  { file: 'us-1099-nec-2025.txt', question: 'How much nonemployee compensation was paid?', first: '1 Nonemployee compensation 118,400.00', says: 'Box 1, Nonemployee compensation: 118,400.00' },
  {
    file: 'us-1040-2024.txt', question: 'What is the adjusted gross income?', first: '11 Subtract line 10 from line 9. This is your adjusted gross income 11 121,411.20',
    says: 'Line 11, Subtract line 10 from line 9. This is your adjusted gross income: 121,411.20',
  },
  { file: 'us-1040-2024.txt', question: 'How much is still owed?', first: '37 Subtract line 33 from line 24. This is the amount you owe now 37 256.42' },
  { file: 'us-1120s-k1-2025.txt', question: 'What is my share of ordinary business income?', first: '1 Ordinary business income (loss) 212,400.00', says: 'Box 1, Ordinary business income (loss): 212,400.00' },
  { file: 'us-bank-statement-2026-10.txt', question: 'What was the ending balance?', first: 'Ending balance on October 31, 2026 $74,432.25' },
  { file: 'us-invoice-2026-0417.txt', question: 'What is the invoice total?', first: 'Total $104,870.50' },
  { file: 'in-gstr3b-ack-2027-03.txt', question: 'What is the ARN?', first: 'ARN: AA270327118842X' },
  { file: 'in-gstr3b-ack-2027-03.txt', question: 'When was the return filed?', first: 'Date of filing: 20/04/2027' },
  { file: 'in-invoice-2027-031.txt', question: 'Who was the invoice billed to?', first: 'Bill to: Coromandel Hotels Private Limited, Chennai, Tamil Nadu' },
  { file: 'uk-vat-return-2027-q1.txt', question: 'What is the net VAT to pay?', first: 'Box 5 Net VAT to pay to HMRC or reclaim 13,164.60', says: 'Box 5, Net VAT to pay to HMRC or reclaim: 13,164.60' },
  { file: 'uk-profit-and-loss-2026-27.txt', question: 'What was the turnover?', first: 'Turnover 96,400.00' },
  { file: 'au-bas-2027-q3.txt', question: 'What were total sales at G1?', first: 'G1 Total sales 82,500', says: 'Box G1, Total sales: 82,500' },
  { file: 'au-bas-2027-q3.txt', question: 'How much was withheld from payments to employees?', first: 'W2 Amount withheld from payments shown at W1 9,360', says: 'Box W2, Amount withheld from payments shown at W1: 9,360' },
];

describe('questions on sample documents (no model configured)', () => {
  it.each(CASES.map((c) => [c.file, c.question, c] as const))('%s: %s', async (_file, _question, c) => {
    const lines = sampleDocument(c.file).split('\n');
    expect(lines).toContain(c.first); // the case names a real line of the document
    const text = await answer(c.file, c.question);
    expect(text.startsWith(EXCERPT_LABEL)).toBe(true);
    const read = rendered(text);
    // The answer's quotes, best first, each under its '**file, line N:**' header.
    const quotes = text.slice(EXCERPT_LABEL.length).split(/\n\n(?=\*\*)/).filter((q) => q.trim()).map(rendered);
    const lineNo = lines.indexOf(c.first) + 1;
    const [, from, to] = /^[^,]+, lines? (\d+)(?:–(\d+))?:/.exec(quotes[0]!)!;
    expect(Number(from)).toBeLessThanOrEqual(lineNo);
    expect(Number(to ?? from)).toBeGreaterThanOrEqual(lineNo);
    expect(quotes[0]).toContain(c.first);
    if (c.says) expect(quotes[0]).toContain(c.says);
    for (const also of c.alsoQuotes ?? []) expect(read).toContain(also);
    for (const out of c.leavesOut ?? []) expect(read).not.toContain(out);
  });

  it('ranks the W-2\'s Box 2 first for the question the issue reports, and its Box 12 fields next', () => {
    const { quotes, noun } = rankExcerpts('How much federal income tax was withheld, and what are the Box 12 codes?', passagesOf('us-w2-2025.txt'), 8);
    expect(noun).toBe('Box');
    expect(quotes[0]!.fields.map((f) => describeField(f, noun))).toEqual(['Box 2, Federal income tax withheld: 19,872.16']);
    expect(quotes.slice(1, 3).map((q) => q.fields.map((f) => describeField(f, noun)))).toEqual([
      ['Box 12a, See instructions for box 12: D 6,000.00'], ['Box 12b, See instructions for box 12: DD 9,840.00'],
    ]);
  });

  it('finds nothing for words the document lacks', () => {
    expect(rankExcerpts('photosynthesis?', passagesOf('us-w2-2025.txt'), 8).quotes).toEqual([]);
  });
});

describe("a form's boxes as label–value pairs", () => {
  const fieldsOf = (file: SampleDocument) => {
    const lines = linesOf(passagesOf(file));
    const noun = fieldNoun(sampleDocument(file));
    return formFields(lines).map((f) => describeField(f, noun));
  };

  it('reads a W-2\'s boxes, the value on the label\'s line or the line below', () => {
    expect(fieldsOf('us-w2-2025.txt')).toEqual(expect.arrayContaining([
      'Box a, Employee\'s social security number: XXX-XX-4821', 'Box 1, Wages, tips, other compensation: 142,650.00',
      'Box 2, Federal income tax withheld: 19,872.16', 'Box 12a, See instructions for box 12: D 6,000.00',
      'Box 13, Statutory employee Retirement plan Third-party sick pay: X', 'Box 20, Locality name: NYC',
    ]));
  });

  it('reads two boxes printed on one line, and a 1040\'s lines with their repeated numbers', () => {
    const twoColumns = linesOf(splitPassages('1 Wages, tips, other compensation 142,650.00 2 Federal income tax withheld 19,872.16\n3 Social security wages 148,650.00 4 Social security tax withheld 9,216.30'));
    expect(formFields(twoColumns).map((f) => [f.box, f.label, f.value])).toEqual([
      ['1', 'Wages, tips, other compensation', '142,650.00'], ['2', 'Federal income tax withheld', '19,872.16'],
      ['3', 'Social security wages', '148,650.00'], ['4', 'Social security tax withheld', '9,216.30'],
    ]);
    expect(fieldsOf('us-1040-2024.txt')).toEqual(expect.arrayContaining([
      'Line 9, Add lines 1z, 2b, 3b, 4b, 5b, 6b, 7, and 8. This is your total income: 121,411.20',
      'Line 3a, Qualified dividends: 2,905.17', 'Line 3b, Ordinary dividends: 3,880.52',
    ]));
  });

  it('takes no address for a box: "88 Prospect Park West, ... NY 11215" is the employee\'s street', () => {
    expect(fieldsOf('us-w2-2025.txt').filter((f) => f.startsWith('Box 88'))).toEqual([]);
    expect(formFields(linesOf(splitPassages('G1 Total sales 82,500\nG2 Export sales 0\nG3 Other GST-free sales 0\n2 George Street, Sydney NSW 2000\n12 Main Street Springfield 62701')))
      .map((f) => f.box)).toEqual(['G1', 'G2', 'G3']);
  });

  it('leaves numbered prose alone: a document with fewer than three boxes is not a form', () => {
    expect(formFields(linesOf(splitPassages('1. Revenue\n12 months of consulting revenue 120,000.00\nThe weather was fine.')))).toEqual([]);
    expect(fieldsOf('us-bank-statement-2026-10.txt')).toEqual([]);
  });
});

describe('summaries of forms', () => {
  it('a W-2\'s summary lists its boxes with their values, Box 1 and Box 2 among them', async () => {
    const read = rendered(await answer('us-w2-2025.txt', 'Summarise this document', true));
    expect(read).toContain(SUMMARY_SECTIONS.fields);
    expect(read).toContain('Box 1, Wages, tips, other compensation: 142,650.00 (us-w2-2025.txt, line 18)');
    expect(read).toContain('Box 2, Federal income tax withheld: 19,872.16 (us-w2-2025.txt, line 19)');
    expect(read.indexOf('Form W-2 Wage and Tax Statement 2025')).toBeLessThan(read.indexOf('Box 1,'));
  });

  it('a letter has no form boxes section', async () => {
    const read = rendered(await answer('uk-profit-and-loss-2026-27.txt', 'Summarise this document', true));
    expect(read).not.toContain(SUMMARY_SECTIONS.fields);
  });
});
