import { describe, expect, it } from '@jest/globals';
import { ExcerptAssistant, SUMMARY_LABEL } from '../../src/ai/excerpt-assistant.ts';
import { extractiveSummary } from '../../src/ai/extractive-summary.ts';
import { FirmRateLimit } from '../../src/ai/firm-rate-limit.ts';
import { splitPassages } from '../../src/ai/passage-index.ts';
import { asksForSummary } from '@ledgerline/contracts/chat.contracts.ts';

/** An annual letter: the revenue and tax sentences share words; the weather aside shares none. */
const ANNUAL_LETTER = [
  'ACME Ltd',
  'Annual report to Own Client',
  'Prepared on 3 March 2026',
  '',
  '1. Revenue',
  'Consulting revenue rose to 120,000 EUR because new clients signed consulting contracts.',
  'The weather in the spring was unusually pleasant for walking.',
  '',
  'TAX POSITION',
  'The corporate tax on the consulting revenue is 24,000 EUR, due with the tax return.',
  'The tax return for the year is due by 31 July 2026. Revenue and tax figures follow the ledger.',
  '## Next steps',
  'Please send the signed tax return and the revenue ledger for consulting clients before July.',
].join('\n');

describe('extractive summary (no model configured)', () => {
  it('takes the opening, the headings and the sentences sharing most words with the rest, each with its line', () => {
    const s = extractiveSummary(splitPassages(ANNUAL_LETTER, 120));
    expect(s.opening).toEqual([{ line: 1, text: 'ACME Ltd' }, { line: 2, text: 'Annual report to Own Client' }, { line: 3, text: 'Prepared on 3 March 2026' }]);
    expect(s.headings).toEqual([{ line: 5, text: '1. Revenue' }, { line: 9, text: 'TAX POSITION' }, { line: 12, text: '## Next steps' }]);
    expect(s.central.map((c) => c.line)).toEqual([6, 10, 11, 11, 13]);
    expect(s.central.map((c) => c.text)).not.toContain('The weather in the spring was unusually pleasant for walking.');
    expect(s.central[2]!.text).toBe('The tax return for the year is due by 31 July 2026.');
  });

  it('reads a long line cut into several passages as one line', () => {
    const long = `Intro line here\n${'revenue tax consulting '.repeat(60).trim()}.`;
    const s = extractiveSummary(splitPassages(long, 100));
    expect(s.opening.map((l) => l.line)).toEqual([1, 2]);
    expect(s.opening[1]!.text).toBe(long.split('\n')[1]);
  });

  it('is labelled as extractive and quotes each section with its lines', async () => {
    const a = await new ExcerptAssistant(new FirmRateLimit(10)).answer({
      instructions: '', history: [], question: 'Summarise this document', summarise: true,
      documents: [{ name: 'letter.txt', passages: splitPassages(ANNUAL_LETTER) }],
    }, { firm: 'acme' });
    expect(a.text.startsWith(`${SUMMARY_LABEL}\n\n### Opening\n\n**letter.txt, lines 1–3:**\n\n> ACME Ltd\n> Annual report to Own Client`)).toBe(true);
    // Quoted document text is escaped Markdown (it renders as written, never as markup).
    expect(a.text).toContain('### Headings\n\n**letter.txt, line 5:**\n\n> 1\\. Revenue');
    expect(a.text).toContain('### Most central sentences\n\n**letter.txt, line 6:**');
    expect(a.text).not.toContain('weather');
  });

  it('knows a summary request when it sees one', () => {
    for (const q of ['Summarise this document: who issued it, to whom', 'Can you summarize?', 'Give me an overview', "What's this document about?", 'tl;dr'])
      expect(asksForSummary(q)).toBe(true);
    for (const q of ['What is the total?', 'Summer holidays?', 'Which tax period?'])
      expect(asksForSummary(q)).toBe(false);
  });
});
