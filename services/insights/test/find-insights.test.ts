import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RULE_SETTINGS, insightRuleSettingsSchema, type InsightRuleSettings, type Jurisdiction } from '@ledgerline/contracts/insights.contracts.ts';
import { amountMentions, documentFacts, largestAmountNear } from '../src/rules/document-facts.ts';
import { findInsights, thresholdFor, type FileFacts, type TrackerItemFacts } from '../src/rules/find-insights.ts';
import { coveredPeriod } from '@ledgerline/kit/calendar/covered-period.ts';
import { periodKeyOf } from '../src/rules/period-mentions.ts';
import { parseClassification, type ReportClassification } from '../src/rules/report-classification.ts';

const GST = 7;
const TDS = 8;
const TODAY = '2027-04-25';

const item = (over: Partial<TrackerItemFacts> & { id: number }): TrackerItemFacts => ({
  reportTypeId: GST, reportTypeName: 'GSTR-3B', periodLabel: 'Mar 2027', periodKey: periodKeyOf('2027-03-01', '2027-03-31'),
  dueDate: '2027-04-20', extensionDate: null, status: 'pending', filedDate: null, reminderDays: 7, ...over,
});
const file = (id: number, name: string, text: string | null, over: Partial<FileFacts> = {}): FileFacts => {
  const facts = documentFacts(name, text ?? '');
  return { id, name, reportTypeId: GST, isReport: true, facts: text === null ? null : facts, namePeriods: facts.namePeriods, nameFiling: facts.nameFiling, model: null, ...over };
};
const run = (items: TrackerItemFacts[], files: FileFacts[], today = TODAY, jurisdiction: Jurisdiction = 'IN') =>
  findInsights({ clientId: 1, items, files, settings: DEFAULT_RULE_SETTINGS, today, jurisdiction });
const ofType = (type: string, findings: ReturnType<typeof run>) => findings.filter((f) => f.insightType === type);

describe('missing_document', () => {
  it('is high when the item is overdue and nothing names its period', () => {
    const [f] = ofType('missing_document', run([item({ id: 1 })], []));
    expect(f).toMatchObject({ priority: 'high', subject: `missing_document:client:1:type:${GST}`, fileId: null, title: 'GSTR-3B for Mar 2027 is overdue', metadata: { periods: ['Mar 2027'] } });
    expect(f!.recommendedAction).toBe('Upload the GSTR-3B for Mar 2027 (due Apr 20, 2027), or mark it filed in the compliance tracker.');
  });

  it('is medium within the reminder window, and absent before it', () => {
    const soon = item({ id: 1, dueDate: '2027-04-30' });
    expect(ofType('missing_document', run([soon], []))[0]?.priority).toBe('medium');
    expect(ofType('missing_document', run([item({ id: 1, dueDate: '2027-05-20' })], []))).toEqual([]);
  });

  it('counts the extension date as the due date', () => {
    expect(ofType('missing_document', run([item({ id: 1, extensionDate: '2027-04-28', status: 'extended' })], []))[0]?.priority).toBe('medium');
  });

  it('is not raised for a filed item', () => {
    expect(run([item({ id: 1, status: 'filed', filedDate: '2027-04-19' })], [])).toEqual([]);
  });

  it('is not raised once a report of that type names the period', () => {
    expect(ofType('missing_document', run([item({ id: 1 })], [file(5, 'GSTR-3B working March 2027.xlsx', '')]))).toEqual([]);
  });

  it('is still raised for a report of another type, or one naming another period', () => {
    expect(ofType('missing_document', run([item({ id: 1 })], [file(5, 'TDS March 2027.pdf', '', { reportTypeId: TDS })]))).toHaveLength(1);
    expect(ofType('missing_document', run([item({ id: 1 })], [file(5, 'GSTR-3B February 2027.pdf', '')]))).toHaveLength(1);
    expect(ofType('missing_document', run([item({ id: 1 })], [file(5, 'Board minutes March 2027.pdf', '', { isReport: false })]))).toHaveLength(1);
  });
});

describe('missing periods, grouped', () => {
  /** A November onboarding: GSTR-1 and GSTR-3B for every month from August, TDS for the July–September quarter. */
  const monthOf = (id: number, reportTypeId: number, name: string, month: number, dueDay: number): TrackerItemFacts => {
    const start = `2026-${String(month).padStart(2, '0')}-01`;
    const end = new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10);
    const label = new Date(`${start}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const due = new Date(Date.UTC(2026, month, dueDay)).toISOString().slice(0, 10);
    return item({ id, reportTypeId, reportTypeName: name, periodLabel: label, periodKey: periodKeyOf(start, end), dueDate: due });
  };
  const items = [
    ...[8, 9, 10].map((m, i) => monthOf(10 + i, GST, 'GSTR-3B', m, 20)),
    ...[8, 9, 10].map((m, i) => monthOf(20 + i, 9, 'GSTR-1', m, 11)),
    item({ id: 30, reportTypeId: TDS, reportTypeName: 'TDS Return', periodLabel: 'Q2 2026-27', periodKey: periodKeyOf('2026-07-01', '2026-09-30'), dueDate: '2026-10-31' }),
  ];
  const today = '2026-11-26';

  it('makes one card per report type with the count and the periods, oldest first', () => {
    const cards = ofType('missing_document', run(items, [], today));
    expect(cards.map((c) => [c.subject, c.title, c.metadata.periods])).toEqual([
      ['missing_document:client:1:type:9', 'GSTR-1 overdue for 3 periods', ['Aug 2026', 'Sep 2026', 'Oct 2026']],
      [`missing_document:client:1:type:${GST}`, 'GSTR-3B overdue for 3 periods', ['Aug 2026', 'Sep 2026', 'Oct 2026']],
      [`missing_document:client:1:type:${TDS}`, 'TDS Return for Q2 2026-27 is overdue', ['Q2 2026-27']],
    ]);
    expect(cards[1]!.description).toBe('No GSTR-3B is marked filed or uploaded for Aug 2026, Sep 2026 and Oct 2026; the earliest was due on Sep 20, 2026.');
    expect(cards[1]!.metadata.items).toEqual([
      { trackerItemId: 10, period: 'Aug 2026', dueDate: '2026-09-20', overdue: true },
      { trackerItemId: 11, period: 'Sep 2026', dueDate: '2026-10-20', overdue: true },
      { trackerItemId: 12, period: 'Oct 2026', dueDate: '2026-11-20', overdue: true },
    ]);
    expect(cards.every((c) => c.renewable && c.priority === 'high')).toBe(true);
    // No pattern card repeats what the group says.
    expect(ofType('pattern_detected', run(items, [], today))).toEqual([]);
  });

  it('says how many are overdue when some periods are only due soon', () => {
    const soon = monthOf(13, GST, 'GSTR-3B', 11, 1);
    const [card] = ofType('missing_document', run([...items.slice(0, 3), soon], [], today));
    expect(card).toMatchObject({ title: 'GSTR-3B missing for 4 periods, 3 overdue', priority: 'high' });
  });

  it('drops a filed period, a period whose report arrived, and periods a person already closed', () => {
    const filed = items.map((i) => (i.id === 10 ? { ...i, status: 'filed' as const, filedDate: '2026-09-19' } : i));
    const withReport = run(filed, [file(9, 'GSTR-3B September 2026 working.xlsx', '')], today);
    expect(ofType('missing_document', withReport).find((c) => c.subject.endsWith(`type:${GST}`))!.metadata.periods).toEqual(['Oct 2026']);
    const settled = findInsights({ clientId: 1, items, files: [], settings: DEFAULT_RULE_SETTINGS, today, jurisdiction: 'IN', settledItemIds: new Set([10, 11, 12, 30]) });
    expect(ofType('missing_document', settled).map((c) => c.subject)).toEqual(['missing_document:client:1:type:9']);
  });
});

describe('compliance_match: the period a document states meets the period an item covers', () => {
  /** A GSTR-3B item as the compliance service makes it: due on the 20th, covering the month before. */
  const gstr3b = (id: number, dueDate: string): TrackerItemFacts => {
    const p = coveredPeriod({ dueDate, frequency: 'monthly', periodLagMonths: 1, jurisdiction: 'IN' });
    return item({ id, dueDate, periodLabel: p.label, periodKey: periodKeyOf(p.start, p.end) });
  };

  it('"Tax period: October 2026" matches the item due 20 Nov 2026, not the one due 20 Oct (September\'s)', () => {
    const ack = file(9, 'GSTR-3B acknowledgement.pdf', 'Form GSTR-3B. Tax period: October 2026. Return filed successfully. ARN AA2711260012345');
    const matches = ofType('compliance_match', run([gstr3b(1, '2026-10-20'), gstr3b(2, '2026-11-20')], [ack], '2026-11-26'));
    expect(matches.map((m) => [m.metadata.trackerItemId, m.metadata.period])).toEqual([[2, 'Oct 2026']]);
    expect(matches[0]!.recommendedAction).toContain('mark GSTR-3B for Oct 2026 as filed');
  });

  it('the UK tax year (6 April to 5 April) is the year "2025-26" names', () => {
    const p = coveredPeriod({ dueDate: '2027-01-31', frequency: 'yearly', periodLagMonths: 10, jurisdiction: 'UK' });
    expect(periodKeyOf(p.start, p.end)).toBe(periodKeyOf('2025-04-01', '2026-03-31'));
  });
});

describe('compliance_match', () => {
  it.each([
    ['March 2027', 'GSTR-3B acknowledgement.pdf', 'Return filed for March 2027'],
    ['03/2027', 'return.pdf', 'Tax period 03/2027. ARN AA2703270012345'],
    ['the name', 'GSTR-3B_March_2027_ARN.pdf', ''],
  ])('names the file whose period (%s) and filing words match, and sets the tracker fields', (_case, name, text) => {
    const [f] = ofType('compliance_match', run([item({ id: 1 })], [file(9, name, text)]));
    expect(f).toMatchObject({ subject: 'compliance_match:item:1', fileId: 9, trackerMatch: { trackerItemId: 1, sourceFileId: 9 } });
    expect(f!.confidence).toBeGreaterThan(0.5);
    expect(f!.trackerMatch!.aiConfidence).toBe(f!.confidence);
  });

  it('matches quarters and years in the formats firms use', () => {
    const q = item({ id: 2, reportTypeName: 'TDS Return', periodLabel: 'Q1 2026-27', periodKey: periodKeyOf('2026-04-01', '2026-06-30'), dueDate: '2026-07-31' });
    const y = item({ id: 3, reportTypeName: 'Annual Return', periodLabel: 'FY 2026-27', periodKey: periodKeyOf('2026-04-01', '2027-03-31'), dueDate: '2027-12-31' });
    const findings = run([q, y], [file(1, 'TDS receipt Q1 FY27.pdf', ''), file(2, 'annual.pdf', 'Acknowledgement. Financial year 2026-27')], '2026-08-10');
    expect(ofType('compliance_match', findings).map((f) => [f.subject, f.fileId])).toEqual([['compliance_match:item:2', 1], ['compliance_match:item:3', 2]]);
  });

  it('needs filing words: a working paper for the period is no match (but the document has arrived)', () => {
    const findings = run([item({ id: 1 })], [file(9, 'GSTR-3B working.xlsx', 'Computation for March 2027')]);
    expect(findings).toEqual([]);
  });

  it('ignores another report type, another client\'s file never reaches it, and a filed item', () => {
    expect(ofType('compliance_match', run([item({ id: 1 })], [file(9, 'TDS acknowledgement March 2027.pdf', '', { reportTypeId: TDS })]))).toEqual([]);
    expect(ofType('compliance_match', run([item({ id: 1, status: 'filed', filedDate: '2027-04-18' })], [file(9, 'GSTR-3B acknowledgement March 2027.pdf', '')]))).toEqual([]);
  });

  it('does not take a filing date for the period (20/04/2027 is not April 2027)', () => {
    const april = item({ id: 4, periodLabel: 'Apr 2027', periodKey: periodKeyOf('2027-04-01', '2027-04-30'), dueDate: '2027-05-20' });
    expect(ofType('compliance_match', run([april], [file(9, 'ack.pdf', 'ARN filed on 20/04/2027 for March 2027')], '2027-05-15'))).toEqual([]);
  });

  describe('with a model classification', () => {
    const classified = (model: ReportClassification) => ofType('compliance_match', run([item({ id: 1 })], [file(9, 'scan.pdf', 'Acknowledgement March 2027', { model })]))[0];
    const base = ofType('compliance_match', run([item({ id: 1 })], [file(9, 'scan.pdf', 'Acknowledgement March 2027')]))[0]!.confidence;

    it('raises the confidence when it agrees and lowers it when it does not', () => {
      expect(classified({ reportType: 'GSTR-3B', period: { start: '2027-03-01', end: '2027-03-31' }, filed: true, amounts: [] })!.confidence).toBeGreaterThan(base);
      expect(classified({ reportType: 'GSTR-3B', period: { start: '2027-02-01', end: '2027-02-28' }, filed: true, amounts: [] })!.confidence).toBeLessThan(base);
      expect(classified({ reportType: null, period: null, filed: false, amounts: [] })!.confidence).toBeLessThan(base);
    });
  });
});

describe('threshold_alert', () => {
  it('fires above the default threshold near a keyword, high at twice it', () => {
    const [f] = ofType('threshold_alert', run([], [file(3, 'financials.pdf', 'Aggregate turnover: Rs. 45,00,000')]));
    expect(f).toMatchObject({ subject: 'threshold_alert:file:3', priority: 'high', fileId: 3, metadata: { amount: 4_500_000, keyword: 'turnover', threshold: 2_000_000 } });
    expect(ofType('threshold_alert', run([], [file(3, 'f.pdf', 'Gross receipts 25 lakh')]))[0]?.priority).toBe('medium');
  });

  it('does not fire below the threshold, far from keywords, or before the text is extracted', () => {
    expect(ofType('threshold_alert', run([], [file(3, 'f.pdf', 'Turnover 19,00,000')]))).toEqual([]);
    expect(ofType('threshold_alert', run([], [file(3, 'f.pdf', 'Loan sanctioned 90,00,000')]))).toEqual([]);
    expect(ofType('threshold_alert', run([], [file(3, 'Turnover 90,00,000.pdf', null)]))).toEqual([]);
  });

  it('follows the firm\'s keywords and per-report-type thresholds', () => {
    const settings: InsightRuleSettings = insightRuleSettingsSchema.parse({
      keywords: ['net profit'],
      thresholds: [{ jurisdiction: 'IN', threshold: 2_000_000 }, { jurisdiction: 'IN', currency: 'INR', threshold: 10_000_000, reportTypeId: GST }],
    });
    const files = [file(3, 'a.pdf', 'Net profit 50,00,000'), file(4, 'b.pdf', 'Net profit 50,00,000', { reportTypeId: TDS })];
    const found = ofType('threshold_alert', findInsights({ clientId: 1, items: [], files, settings, today: TODAY, jurisdiction: 'IN' }));
    expect(found.map((f) => f.fileId)).toEqual([4]);
  });
});

describe('thresholds by jurisdiction', () => {
  // Each jurisdiction's registration threshold, in its currency, from the law the default cites.
  it.each([
    ['IN', 'INR', 2_000_000, 'CGST Act 2017, s. 22(1)'],
    ['UK', 'GBP', 90_000, 'HMRC VAT Notice 700/1'],
    ['AU', 'AUD', 75_000, 'Goods and Services Tax) Act 1999, s. 23-15'],
    ['US', 'USD', 100_000, 'South Dakota v. Wayfair'],
    ['CA', 'CAD', 30_000, 'Excise Tax Act'],
  ] as const)('%s: %s %d (%s)', (jurisdiction, currency, threshold, source) => {
    const rule = thresholdFor(DEFAULT_RULE_SETTINGS, jurisdiction, null);
    expect(rule).toMatchObject({ jurisdiction, currency, threshold });
    expect(rule!.source).toContain(source);
  });

  it('applies only the client\'s jurisdiction\'s threshold, and shows amounts in its currency', () => {
    const report = [file(3, 'annual.pdf', 'Total turnover 150,000')];
    // 150,000 is above the UK's £90,000 and the US's $100,000, far below India's ₹20 lakh.
    expect(ofType('threshold_alert', run([], report, TODAY, 'IN'))).toEqual([]);
    const [uk] = ofType('threshold_alert', run([], report, TODAY, 'UK'));
    expect(uk).toMatchObject({ title: 'Turnover of £150,000 is above the UK threshold of £90,000', metadata: { currency: 'GBP', jurisdiction: 'UK', threshold: 90_000 } });
    expect(uk!.description).toContain('VAT registration');
    const [us] = ofType('threshold_alert', run([], report, TODAY, 'US'));
    expect(us).toMatchObject({ title: 'Turnover of $150,000 is above the US threshold of $100,000', metadata: { currency: 'USD' } });
    expect(us!.description).not.toContain('GST');
    const [india] = ofType('threshold_alert', run([], [file(4, 'in.pdf', 'Turnover 45,00,000')], TODAY, 'IN'));
    expect(india!.title).toBe('Turnover of ₹45,00,000 is above the IN threshold of ₹20,00,000');
  });

  it('a firm without a rule for a jurisdiction gets no alert there', () => {
    const settings = insightRuleSettingsSchema.parse({ keywords: ['turnover'], thresholds: [{ jurisdiction: 'IN', threshold: 2_000_000 }] });
    const files = [file(3, 'us.pdf', 'Turnover 9,000,000')];
    expect(ofType('threshold_alert', findInsights({ clientId: 1, items: [], files, settings, today: TODAY, jurisdiction: 'US' }))).toEqual([]);
    expect(ofType('threshold_alert', findInsights({ clientId: 1, items: [], files, settings, today: TODAY, jurisdiction: 'IN' }))).toHaveLength(1);
  });

  it('refuses a currency that is not the jurisdiction\'s, and two rules for the same place', () => {
    expect(insightRuleSettingsSchema.safeParse({ keywords: ['turnover'], thresholds: [{ jurisdiction: 'US', currency: 'INR', threshold: 5 }] }).error?.issues[0]?.message).toBe('Thresholds for US are in USD');
    expect(insightRuleSettingsSchema.safeParse({ keywords: ['turnover'], thresholds: [{ jurisdiction: 'US', threshold: 5 }, { jurisdiction: 'US', threshold: 6 }] }).error?.issues[0]?.message).toBe('Give one threshold per jurisdiction and report type');
  });
});

describe('pattern_detected', () => {
  const late = (id: number, dueDate: string, status: TrackerItemFacts['status'], filedDate: string | null = null) =>
    item({ id, dueDate, status, filedDate, periodLabel: `P${id}`, periodKey: null });

  it('fires on three delayed or late-filed items within twelve months', () => {
    const items = [late(1, '2026-08-20', 'delayed'), late(2, '2026-10-20', 'filed', '2026-10-25'), late(3, '2027-01-20', 'delayed')];
    expect(ofType('pattern_detected', run(items, []))[0]).toMatchObject({ subject: 'pattern_detected:late:1', metadata: { trackerItemIds: [1, 2, 3] } });
  });

  it('does not count on-time filings or items older than a year', () => {
    const items = [late(1, '2025-08-20', 'delayed'), late(2, '2026-10-20', 'filed', '2026-10-19'), late(3, '2027-01-20', 'delayed'), late(4, '2027-02-20', 'delayed')];
    expect(run(items, []).filter((f) => f.subject.startsWith('pattern_detected:late'))).toEqual([]);
  });
});

describe('document facts', () => {
  it('reads amounts in the ways firms write them', () => {
    expect(amountMentions('Turnover ₹ 45,00,000; receipts INR 2.5 crore; total $1,250,000.50; 12 lakh').map((a) => a.amount))
      .toEqual([4_500_000, 25_000_000, 1_250_000.5, 1_200_000]);
    expect(amountMentions('Filed on 31/03/2027 at 10:30')).toEqual([]);
  });

  it('finds the largest amount near a keyword', () => {
    expect(largestAmountNear(amountMentions('Total 10\nTurnover 30,00,000\nOther 99,00,000'), ['turnover', 'total'])).toEqual({ amount: 3_000_000, keyword: 'turnover' });
  });
});

describe('model answers', () => {
  const valid = { reportType: 'GSTR-3B', period: { start: '2027-03-01', end: '2027-03-31' }, filed: true, amounts: [{ label: 'Turnover', amount: 4_500_000 }] };
  it('accepts the schema\'s JSON, bare or fenced', () => {
    expect(parseClassification(JSON.stringify(valid))).toEqual(valid);
    expect(parseClassification(`Here it is:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``)).toEqual(valid);
  });
  it('refuses anything else', () => {
    expect(parseClassification('It is a GST return for March.')).toBeNull();
    expect(parseClassification(JSON.stringify({ ...valid, filed: 'yes' }))).toBeNull();
    expect(parseClassification(JSON.stringify({ ...valid, extra: 1 }))).toBeNull();
  });
});
