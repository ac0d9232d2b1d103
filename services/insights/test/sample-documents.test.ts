import { describe, expect, it } from '@jest/globals';
import { sampleDocument, type SampleDocument } from '@ledgerline/kit/testing/sample-documents.ts';
import type { EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import { DEFAULT_RULE_SETTINGS, REGISTRATION_SCOPE, withScope, type DocumentKind, type InsightType, type Jurisdiction } from '@ledgerline/contracts/insights.contracts.ts';
import { formatMoney } from '@ledgerline/contracts/money.ts';
import { documentFacts, figureMeasure } from '../src/rules/document-facts.ts';
import { documentKind } from '../src/rules/document-kind.ts';
import { findInsights, kindOfFile, type FileFacts, type TrackerItemFacts } from '../src/rules/find-insights.ts';
import { periodKeyOf } from '../src/rules/period-mentions.ts';

/*
 * Issue 44: realistic US, UK, Indian and Australian documents (the kit's testing/sample-documents), each
 * as a client of the firm would upload it, and the insights each must and must not raise.
 * A registration threshold (US sales-tax nexus, GST, VAT) is about a business's sales: never
 * an individual's income on a tax return, a wage statement, a shareholder's K-1, a bank
 * statement's deposits, nor a GST, VAT or BAS return (whoever files one is registered).
 */

const REPORT_TYPE = 7;
const TODAY = '2027-04-30';
const fixture = (file: string): string => sampleDocument(file as SampleDocument);

interface Sample {
  file: string;
  /** The name it is uploaded under. */
  name: string;
  jurisdiction: Jurisdiction;
  entityType: EntityType | null;
  kind: DocumentKind;
  /** A pending tracker item of the document's report type and period, when the firm tracks one. */
  tracked?: { reportTypeName: string; periodLabel: string; start: string; end: string; dueDate: string };
  raises: InsightType[];
  /** The threshold alert's title, when it raises one. */
  title?: string;
}

const SAMPLES: Sample[] = [
  { file: 'us-w2-2025.txt', name: 'W-2 2025 Maria Santos.pdf', jurisdiction: 'US', entityType: 'individual', kind: 'wage_statement', raises: [] },
  { file: 'us-1099-nec-2025.txt', name: '1099-NEC Meridian Media 2025.pdf', jurisdiction: 'US', entityType: 'sole_proprietor', kind: 'contractor_payments', raises: [] },
  // The reported false insight: "Total of $121,411.2 is above the US threshold ... (South Dakota v. Wayfair)".
  { file: 'us-1040-2024.txt', name: 'Whitfield prior-year return.pdf', jurisdiction: 'US', entityType: 'individual', kind: 'individual_tax_return', raises: [] },
  { file: 'us-1120s-k1-2025.txt', name: 'K-1 Bowery Lighting 2025.pdf', jurisdiction: 'US', entityType: 'individual', kind: 'owner_share', raises: [] },
  { file: 'us-bank-statement-2026-10.txt', name: 'Checking statement October 2026.pdf', jurisdiction: 'US', entityType: 'company', kind: 'bank_statement', raises: [] },
  {
    file: 'us-invoice-2026-0417.txt', name: 'Invoice 2026-0417 Lakeshore.pdf', jurisdiction: 'US', entityType: 'company', kind: 'invoice',
    raises: ['threshold_alert'], title: 'Total of $104,870.50 is above the US threshold of $100,000',
  },
  {
    file: 'in-gstr3b-ack-2027-03.txt', name: 'GSTR-3B ack March 2027.pdf', jurisdiction: 'IN', entityType: 'company', kind: 'sales_tax_return',
    tracked: { reportTypeName: 'GSTR-3B', periodLabel: 'Mar 2027', start: '2027-03-01', end: '2027-03-31', dueDate: '2027-04-20' }, raises: ['compliance_match'],
  },
  {
    file: 'in-invoice-2027-031.txt', name: 'Invoice NDS-031 Coromandel.pdf', jurisdiction: 'IN', entityType: 'sole_proprietor', kind: 'invoice',
    raises: ['threshold_alert'], title: 'Total of ₹26,46,000 is above the IN threshold of ₹20,00,000',
  },
  {
    file: 'uk-vat-return-2027-q1.txt', name: 'VAT return Q1 2027.pdf', jurisdiction: 'UK', entityType: 'company', kind: 'sales_tax_return',
    tracked: { reportTypeName: 'VAT Return', periodLabel: 'Q1 2027', start: '2027-01-01', end: '2027-03-31', dueDate: '2027-05-07' }, raises: ['compliance_match'],
  },
  {
    file: 'uk-profit-and-loss-2026-27.txt', name: 'Ashdown accounts 2026-27.pdf', jurisdiction: 'UK', entityType: 'sole_proprietor', kind: 'financial_statement',
    raises: ['threshold_alert'], title: 'Turnover of £96,400 is above the UK threshold of £90,000',
  },
  { file: 'au-bas-2027-q3.txt', name: 'BAS March quarter 2027.pdf', jurisdiction: 'AU', entityType: 'company', kind: 'sales_tax_return', raises: [] },
];

function analyse(sample: Sample, over: { entityType?: EntityType | null; name?: string } = {}) {
  const name = over.name ?? sample.name;
  const facts = documentFacts(name, fixture(sample.file));
  const file: FileFacts = { id: 1, name, reportTypeId: REPORT_TYPE, isReport: true, facts, namePeriods: facts.namePeriods, nameFiling: facts.nameFiling, model: null };
  const items: TrackerItemFacts[] = sample.tracked ? [{
    id: 11, reportTypeId: REPORT_TYPE, reportTypeName: sample.tracked.reportTypeName, periodLabel: sample.tracked.periodLabel,
    periodKey: periodKeyOf(sample.tracked.start, sample.tracked.end), dueDate: sample.tracked.dueDate, extensionDate: null,
    status: 'pending', filedDate: null, reminderDays: 7,
  }] : [];
  return findInsights({
    clientId: 1, items, files: [file], settings: DEFAULT_RULE_SETTINGS, today: TODAY, jurisdiction: sample.jurisdiction,
    entityType: over.entityType === undefined ? sample.entityType : over.entityType,
  });
}

describe('sample documents: what each is, and the insights it raises', () => {
  it.each(SAMPLES.map((s) => [s.file, s] as const))('%s', (_file, sample) => {
    expect(documentKind(sample.name, fixture(sample.file))).toBe(sample.kind);
    const findings = analyse(sample);
    expect(findings.map((f) => f.insightType).sort()).toEqual([...sample.raises].sort());
    const alert = findings.find((f) => f.insightType === 'threshold_alert');
    if (sample.title) expect(alert?.title).toBe(sample.title);
    else expect(alert).toBeUndefined();
  });
});

describe('a threshold applies only to what it is about', () => {
  const sample = (file: string) => SAMPLES.find((s) => s.file === file)!;

  it('not to an individual\'s return even when the client\'s record names no entity type (the document kind decides)', () => {
    expect(analyse(sample('us-1040-2024.txt'), { entityType: null })).toEqual([]);
    expect(analyse(sample('us-1120s-k1-2025.txt'), { entityType: null })).toEqual([]);
  });

  it('not to an individual client\'s documents, even a sales one', () => {
    expect(analyse(sample('us-invoice-2026-0417.txt'), { entityType: 'individual' })).toEqual([]);
    // A client whose record names no type is held to every rule: the invoice counts.
    expect(analyse(sample('us-invoice-2026-0417.txt'), { entityType: null }).map((f) => f.insightType)).toEqual(['threshold_alert']);
  });

  it('reads a figure with what it is: "total income" is income, even in a document it cannot classify', () => {
    const line = fixture('us-1040-2024.txt').split('\n').find((l) => l.includes('This is your total income'))!;
    const facts = documentFacts('scan 0041.pdf', line);
    expect(facts.kind).toBe('unclassified');
    const file: FileFacts = { id: 1, name: 'scan 0041.pdf', reportTypeId: null, isReport: true, facts, namePeriods: [], nameFiling: false, model: null };
    expect(findInsights({ clientId: 1, items: [], files: [file], settings: DEFAULT_RULE_SETTINGS, today: TODAY, jurisdiction: 'US', entityType: 'company' })).toEqual([]);
    // A bare 'Total' is a sale's total.
    const invoice = documentFacts('scan 0042.pdf', 'Total 121,411.20');
    const sale: FileFacts = { ...file, facts: invoice };
    expect(findInsights({ clientId: 1, items: [], files: [sale], settings: DEFAULT_RULE_SETTINGS, today: TODAY, jurisdiction: 'US', entityType: 'company' })[0]?.title)
      .toBe('Total of $121,411.20 is above the US threshold of $100,000');
  });

  it('asks a model what a document is only when its name and text do not say', () => {
    const model = { reportType: 'Form 1040 (U.S. Individual Income Tax Return)', period: null, filed: null, amounts: [] };
    const facts = documentFacts('scan 0041.pdf', 'Total 121,411.20');
    expect(kindOfFile({ name: 'scan 0041.pdf', facts, model })).toBe('individual_tax_return');
    expect(kindOfFile({ name: 'scan 0041.pdf', facts, model: null })).toBe('unclassified');
    expect(kindOfFile({ name: 'Invoice 17.pdf', facts: documentFacts('Invoice 17.pdf', 'Total 5'), model })).toBe('invoice');
    // Facts read before kinds were: the name decides.
    expect(kindOfFile({ name: 'Form W-2 2025.pdf', facts: { ...facts, kind: undefined }, model: null })).toBe('wage_statement');
    const file: FileFacts = { id: 1, name: 'scan 0041.pdf', reportTypeId: null, isReport: true, facts, namePeriods: [], nameFiling: false, model };
    expect(findInsights({ clientId: 1, items: [], files: [file], settings: DEFAULT_RULE_SETTINGS, today: TODAY, jurisdiction: 'US', entityType: null })).toEqual([]);
  });

  it('knows a 1040 by its body when its title is cut off', () => {
    const body = fixture('us-1040-2024.txt').split('\n').slice(3).join('\n');
    expect(documentKind('scan 0041.pdf', body)).toBe('individual_tax_return');
  });

  it.each([
    ['This is your total income 9 ', 'income'],
    ['Box 6 Total value of sales and all other outputs excluding any VAT ', 'sales'],
    ['Box 3 Total VAT due (the sum of boxes 1 and 2) ', 'tax'],
    ['Total deposits and other credits $', 'balance'],
    ['Total (incl. GST) ', null],
    ['G1 Total sales ', 'sales'],
    ['Total ', null],
  ] as const)('the label "%s" measures %s', (label, measure) => {
    expect(figureMeasure(label)).toBe(measure);
  });

  it('takes the label of a value printed on the line below it', () => {
    const facts = documentFacts('accounts.pdf', 'Profit and loss account\nTotal turnover\n$ 250,000.00\nTotal income\n120,000.00');
    expect(facts.amounts).toEqual([{ amount: 250_000, context: 'total turnover' }, { amount: 120_000, context: 'total income' }]);
  });
});

describe('rules saved before thresholds had a scope', () => {
  it('are registration thresholds: about a business\'s sales figures', () => {
    const legacy = { jurisdiction: 'US' as const, currency: 'USD' as const, threshold: 100_000, reportTypeId: null, obligation: 'nexus', source: null };
    expect(withScope(legacy)).toEqual({ ...legacy, ...REGISTRATION_SCOPE });
    expect(REGISTRATION_SCOPE.entityTypes).not.toContain('individual');
    expect(REGISTRATION_SCOPE.documentKinds).not.toContain('individual_tax_return');
    expect(withScope({ ...legacy, entityTypes: [], documentKinds: ['sales_tax_return'] })).toMatchObject({ entityTypes: [], documentKinds: ['sales_tax_return'] });
  });
});

describe('money prints with its currency\'s decimals', () => {
  it.each([
    [121_411.2, 'USD', '$121,411.20'],
    [100_000, 'USD', '$100,000'],
    [4_500_000, 'INR', '₹45,00,000'],
    [1_234.5, 'INR', '₹1,234.50'],
    [96_400, 'GBP', '£96,400'],
    [82_500.05, 'AUD', 'A$82,500.05'],
  ] as const)('%d %s is %s', (amount, currency, printed) => {
    expect(formatMoney(amount, currency)).toBe(printed);
  });
});
