import { describe, expect, it } from '@jest/globals';
import { ENTITY_TYPES } from '@ledgerline/contracts/directory.contracts.ts';
import { PRESETS } from '../src/presets/preset.catalog.ts';
import { daysInMonth, periodsOf } from '../src/schedules/periods.ts';

describe('periods of a schedule', () => {
  it('knows month lengths, leap years included (2000 and 2024 are, 1900 and 2100 are not)', () => {
    expect([2000, 2024, 1900, 2100, 2027].map((y) => daysInMonth(y, 2))).toEqual([29, 29, 28, 28, 28]);
    expect([1, 4, 6, 9, 11, 12].map((m) => daysInMonth(2027, m))).toEqual([31, 30, 30, 30, 30, 31]);
  });

  it('clamps the due day to each month\'s end', () => {
    const monthly = periodsOf({ frequency: 'monthly', dueDayOfMonth: 30, dueMonths: [], periodLagMonths: 0, jurisdiction: 'US' }, 2027);
    expect(monthly.map((p) => p.dueDate.slice(5))).toEqual(['01-30', '02-28', '03-30', '04-30', '05-30', '06-30', '07-30', '08-30', '09-30', '10-30', '11-30', '12-30']);
    expect(new Set(monthly.map((p) => p.key)).size).toBe(12);
  });

  it('a user-made schedule covers the period of its due date (lag 0) or the one before (lag 1)', () => {
    const rule = { frequency: 'quarterly' as const, dueDayOfMonth: 15, dueMonths: ['1', '4', '7', '10'], jurisdiction: 'US' as const };
    expect(periodsOf({ ...rule, periodLagMonths: 0 }, 2027).map((p) => p.label)).toEqual(['Nov 2026–Jan 2027', 'Feb–Apr 2027', 'May–Jul 2027', 'Aug–Oct 2027']);
    expect(periodsOf({ ...rule, periodLagMonths: 1 }, 2027).map((p) => p.label)).toEqual(['Q4 2026', 'Q1 2027', 'Q2 2027', 'Q3 2027']);
    expect(periodsOf({ ...rule, dueMonths: ['3', '6', '9', '12'], periodLagMonths: 0 }, 2027).map((p) => p.label)).toEqual(['Q1 2027', 'Q2 2027', 'Q3 2027', 'Q4 2027']);
  });

  it('from: only the items whose covered period ends on or after it (onboarding on 26 Nov 2026)', () => {
    const gstr3b = { frequency: 'monthly' as const, dueDayOfMonth: 20, dueMonths: [], periodLagMonths: 1, jurisdiction: 'IN' as const };
    expect(periodsOf(gstr3b, 2026, '2026-11-26').map((p) => [p.dueDate, p.label])).toEqual([['2026-12-20', 'Nov 2026']]);
    expect(periodsOf(gstr3b, 2026, '2026-10-01').map((p) => p.label)).toEqual(['Oct 2026', 'Nov 2026']);
    expect(periodsOf(gstr3b, 2027, '2026-11-26')).toHaveLength(12);
  });
});

/**
 * Every entry of the four calendars: each item due in 2027 → the period it covers → its label,
 * worked out by hand from the entry's source (cited in the preset data, `source`):
 * e.g. CGST rule 61(5): GSTR-3B for a month is due on the 20th of the next month, so the item
 * due 20 Jan 2027 covers December 2026.
 */
const TABLE: Record<string, [due: string, start: string, end: string, label: string][]> = {
  'india/gstr-1': [['2027-01-11', '2026-12-01', '2026-12-31', 'Dec 2026'], ['2027-04-11', '2027-03-01', '2027-03-31', 'Mar 2027']],
  'india/gstr-1-qrmp': [['2027-01-13', '2026-10-01', '2026-12-31', 'Q3 FY 2026-27'], ['2027-04-13', '2027-01-01', '2027-03-31', 'Q4 FY 2026-27'],
    ['2027-07-13', '2027-04-01', '2027-06-30', 'Q1 FY 2027-28'], ['2027-10-13', '2027-07-01', '2027-09-30', 'Q2 FY 2027-28']],
  'india/gstr-3b': [['2027-01-20', '2026-12-01', '2026-12-31', 'Dec 2026'], ['2027-11-20', '2027-10-01', '2027-10-31', 'Oct 2027']],
  'india/gstr-3b-qrmp': [['2027-01-22', '2026-10-01', '2026-12-31', 'Q3 FY 2026-27'], ['2027-04-22', '2027-01-01', '2027-03-31', 'Q4 FY 2026-27'],
    ['2027-07-22', '2027-04-01', '2027-06-30', 'Q1 FY 2027-28'], ['2027-10-22', '2027-07-01', '2027-09-30', 'Q2 FY 2027-28']],
  'india/gstr-9': [['2027-12-31', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/tds-deposit': [['2027-01-07', '2026-12-01', '2026-12-31', 'Dec 2026'], ['2027-04-07', '2027-03-01', '2027-03-31', 'Mar 2027']],
  'india/tds-return': [['2027-01-31', '2026-10-01', '2026-12-31', 'Q3 FY 2026-27'], ['2027-05-31', '2027-01-01', '2027-03-31', 'Q4 FY 2026-27'],
    ['2027-07-31', '2027-04-01', '2027-06-30', 'Q1 FY 2027-28'], ['2027-10-31', '2027-07-01', '2027-09-30', 'Q2 FY 2027-28']],
  'india/advance-tax': [['2027-03-15', '2027-01-01', '2027-03-31', 'Q4 FY 2026-27'], ['2027-06-15', '2027-04-01', '2027-06-30', 'Q1 FY 2027-28'],
    ['2027-09-15', '2027-07-01', '2027-09-30', 'Q2 FY 2027-28'], ['2027-12-15', '2027-10-01', '2027-12-31', 'Q3 FY 2027-28']],
  'india/itr-non-audit': [['2027-07-31', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/itr-audit': [['2027-10-31', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/aoc-4': [['2027-10-29', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/mgt-7': [['2027-11-28', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/llp-form-11': [['2027-05-30', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'india/llp-form-8': [['2027-10-30', '2026-04-01', '2027-03-31', 'FY 2026-27']],
  'us/form-1040': [['2027-04-15', '2026-01-01', '2026-12-31', '2026']],
  'us/form-1040-es': [['2027-01-15', '2026-10-01', '2026-12-31', 'Q4 2026'], ['2027-04-15', '2027-01-01', '2027-03-31', 'Q1 2027'],
    ['2027-06-15', '2027-04-01', '2027-06-30', 'Q2 2027'], ['2027-09-15', '2027-07-01', '2027-09-30', 'Q3 2027']],
  'us/form-1120': [['2027-04-15', '2026-01-01', '2026-12-31', '2026']],
  'us/form-1120-w': [['2027-04-15', '2027-01-01', '2027-03-31', 'Q1 2027'], ['2027-06-15', '2027-04-01', '2027-06-30', 'Q2 2027'],
    ['2027-09-15', '2027-07-01', '2027-09-30', 'Q3 2027'], ['2027-12-15', '2027-10-01', '2027-12-31', 'Q4 2027']],
  'us/form-1120-s': [['2027-03-15', '2026-01-01', '2026-12-31', '2026']],
  'us/form-1065': [['2027-03-15', '2026-01-01', '2026-12-31', '2026']],
  'us/form-1041': [['2027-04-15', '2026-01-01', '2026-12-31', '2026']],
  'us/form-941': [['2027-01-31', '2026-10-01', '2026-12-31', 'Q4 2026'], ['2027-04-30', '2027-01-01', '2027-03-31', 'Q1 2027'],
    ['2027-07-31', '2027-04-01', '2027-06-30', 'Q2 2027'], ['2027-10-31', '2027-07-01', '2027-09-30', 'Q3 2027']],
  'us/form-940': [['2027-01-31', '2026-01-01', '2026-12-31', '2026']],
  'us/form-w-2': [['2027-01-31', '2026-01-01', '2026-12-31', '2026']],
  'uk/vat-return': [['2027-02-07', '2026-10-01', '2026-12-31', 'Oct–Dec 2026'], ['2027-05-07', '2027-01-01', '2027-03-31', 'Jan–Mar 2027'],
    ['2027-08-07', '2027-04-01', '2027-06-30', 'Apr–Jun 2027'], ['2027-11-07', '2027-07-01', '2027-09-30', 'Jul–Sep 2027']],
  'uk/sa100': [['2027-01-31', '2025-04-06', '2026-04-05', '2025-26']],
  'uk/sa-payment-january': [['2027-01-31', '2026-04-06', '2027-04-05', '2026-27']],
  'uk/sa-payment-july': [['2027-07-31', '2026-04-06', '2027-04-05', '2026-27']],
  'uk/sa800': [['2027-01-31', '2025-04-06', '2026-04-05', '2025-26']],
  'uk/sa900': [['2027-01-31', '2025-04-06', '2026-04-05', '2025-26']],
  'uk/paye-payment': [['2027-01-22', '2026-12-01', '2026-12-31', 'Dec 2026']],
  'uk/ct600': [['2027-12-31', '2026-01-01', '2026-12-31', 'Jan–Dec 2026']],
  'uk/ct-payment': [['2027-10-01', '2026-01-01', '2026-12-31', 'Jan–Dec 2026']],
  'uk/annual-accounts': [['2027-09-30', '2026-01-01', '2026-12-31', 'Jan–Dec 2026']],
  'australia/bas-quarterly': [['2027-02-28', '2026-10-01', '2026-12-31', 'Q2 FY2027'], ['2027-04-28', '2027-01-01', '2027-03-31', 'Q3 FY2027'],
    ['2027-07-28', '2027-04-01', '2027-06-30', 'Q4 FY2027'], ['2027-10-28', '2027-07-01', '2027-09-30', 'Q1 FY2028']],
  'australia/itr-individual': [['2027-10-31', '2026-07-01', '2027-06-30', 'FY2027']],
  'australia/partnership-return': [['2027-10-31', '2026-07-01', '2027-06-30', 'FY2027']],
  'australia/trust-return': [['2027-10-31', '2026-07-01', '2027-06-30', 'FY2027']],
  'australia/company-return': [['2027-02-28', '2025-07-01', '2026-06-30', 'FY2026']],
  'australia/super-guarantee': [['2027-01-28', '2026-10-01', '2026-12-31', 'Q2 FY2027'], ['2027-04-28', '2027-01-01', '2027-03-31', 'Q3 FY2027'],
    ['2027-07-28', '2027-04-01', '2027-06-30', 'Q4 FY2027'], ['2027-10-28', '2027-07-01', '2027-09-30', 'Q1 FY2028']],
  'australia/stp-finalisation': [['2027-07-14', '2026-07-01', '2027-06-30', 'FY2027']],
};

describe('statutory presets', () => {
  it('one file per jurisdiction, every entry valid for the schedule rules (§5), with a source, ids and names unique', () => {
    expect(PRESETS.map((p) => [p.id, p.country])).toEqual([['india', 'IN'], ['us', 'US'], ['uk', 'UK'], ['australia', 'AU']]);
    for (const preset of PRESETS) {
      expect(new Set(preset.entries.map((e) => e.id)).size).toBe(preset.entries.length);
      for (const entry of preset.entries) {
        const months = entry.dueMonths.length;
        expect(entry.frequency === 'monthly' ? months === 0 : entry.frequency === 'yearly' ? months === 1 : months >= 1).toBe(true);
        expect(entry.source).toMatch(/https:\/\//);
        for (const type of entry.entityTypes) expect(ENTITY_TYPES).toContain(type);
      }
    }
    const names = PRESETS.flatMap((p) => p.entries.map((e) => e.reportTypeName.toLowerCase()));
    expect(new Set(names).size).toBe(names.length);
  });

  it('the table covers every entry of the four calendars', () => {
    expect(Object.keys(TABLE).sort()).toEqual(PRESETS.flatMap((p) => p.entries.map((e) => `${p.id}/${e.id}`)).sort());
  });

  it.each(PRESETS.flatMap((p) => p.entries.map((e) => [`${p.id}/${e.id}`, p, e] as const)))('%s: due date → period covered → label', (key, preset, entry) => {
    const items = periodsOf({ ...entry, jurisdiction: preset.country }, 2027);
    const expected = TABLE[key]!;
    const byDue = new Map(items.map((i) => [i.dueDate, [i.dueDate, i.start, i.end, i.label]]));
    for (const row of expected) expect(byDue.get(row[0])).toEqual(row);
    // Every item of the year covers a period ending before (or, for a payment ahead, after) it is due, and the labels never repeat.
    expect(new Set(items.map((i) => i.label)).size).toBe(items.length);
  });

  it('a C corporation is given Form 1120 and its estimates, not Form 1040; an individual Form 1040 and not 1120', async () => {
    const { entryFits } = await import('@ledgerline/contracts/compliance.contracts.ts');
    const us = PRESETS.find((p) => p.id === 'us')!;
    const fitting = (type: string) => us.entries.filter((e) => entryFits(e, type)).map((e) => e.id);
    expect(fitting('c_corp')).toEqual(['form-1120', 'form-1120-w', 'form-941', 'form-940', 'form-w-2']);
    expect(fitting('individual')).toEqual(['form-1040', 'form-1040-es']);
    expect(fitting('s_corp')).toContain('form-1120-s');
    const india = PRESETS.find((p) => p.id === 'india')!;
    // QRMP is a scheme the firm opts a client into: offered, not chosen by default.
    expect(india.entries.filter((e) => entryFits(e, 'company')).map((e) => e.id)).toEqual(
      ['gstr-1', 'gstr-3b', 'gstr-9', 'tds-deposit', 'tds-return', 'advance-tax', 'itr-audit', 'aoc-4', 'mgt-7'],
    );
  });
});
