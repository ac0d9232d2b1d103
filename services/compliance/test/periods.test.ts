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

describe('statutory presets', () => {
  it('one file per jurisdiction, every entry valid for the schedule rules (§5), with a source, ids and names unique', () => {
    expect(PRESETS.map((p) => [p.id, p.country])).toEqual([['india', 'IN'], ['us', 'US'], ['uk', 'UK'], ['australia', 'AU'], ['canada', 'CA']]);
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

  it('a C corporation is given Form 1120 and its estimates, not Form 1040; an individual Form 1040 and not 1120', async () => {
    const { entryFits } = await import('@ledgerline/contracts/compliance.contracts.ts');
    const us = PRESETS.find((p) => p.id === 'us')!;
    const fitting = (type: string) => us.entries.filter((e) => entryFits(e, type)).map((e) => e.id);
    expect(fitting('c_corp')).toEqual(['form-1120', 'form-1120-w', 'form-941', 'form-940', 'form-w-2', 'form-1099-nec', 'form-1099-misc']);
    expect(fitting('individual')).toEqual(['form-1040', 'form-1040-es']);
    expect(fitting('s_corp')).toContain('form-1120-s');
    const india = PRESETS.find((p) => p.id === 'india')!;
    // QRMP is a scheme the firm opts a client into: offered, not chosen by default.
    expect(india.entries.filter((e) => entryFits(e, 'company')).map((e) => e.id)).toEqual(
      ['gstr-1', 'gstr-3b', 'gstr-9', 'tds-deposit', 'tds-return', 'advance-tax', 'itr-audit', 'aoc-4', 'mgt-7'],
    );
  });
});
