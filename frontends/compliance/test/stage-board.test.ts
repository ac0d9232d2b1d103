import { describe, expect, it } from '@jest/globals';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { DEFAULT_STAGES } from '@ledgerline/contracts/stages.contracts.ts';
import { boardColumns, dueRange, outstanding } from '../src/stage-board.ts';

const item = (id: number, stage: string | null, dueDate: string, more: Partial<ComplianceItem> = {}) => ({
  id, stage, dueDate, status: 'pending', extendedDueDate: null, documentRequest: null, ...more,
}) as ComplianceItem;

describe('the Board', () => {
  it('a column per stage in the pipeline\'s order, each soonest due first (an extended item by its extended day)', () => {
    const columns = boardColumns(DEFAULT_STAGES, [
      item(1, 'in-review', '2027-04-15'), item(2, 'not-started', '2027-03-01'), item(3, 'in-review', '2027-01-31'),
      item(4, 'in-review', '2027-01-15', { status: 'extended', extendedDueDate: '2027-10-15' }),
    ]);
    expect(columns.map((c) => c.stage.name)).toEqual(DEFAULT_STAGES.map((s) => s.name));
    expect(columns.map((c) => c.items.map((i) => i.id))).toEqual([[2], [], [], [3, 1, 4], [], [], []]);
  });

  it('an item on a stage the pipeline lacks sits in the first column; no stages, no columns', () => {
    expect(boardColumns(DEFAULT_STAGES, [item(9, 'gone', '2027-01-01'), item(8, null, '2027-01-02')])[0]!.items.map((i) => i.id)).toEqual([9, 8]);
    expect(boardColumns([], [item(1, 'x', '2027-01-01')])).toEqual([]);
  });

  it('due windows: none for any; today through 30 or 90 days; the firm\'s calendar year', () => {
    expect(dueRange('any', '2026-11-29')).toEqual({});
    expect(dueRange('30', '2026-11-29')).toEqual({ startDate: '2026-11-29', endDate: '2026-12-29' });
    expect(dueRange('90', '2026-11-29')).toEqual({ startDate: '2026-11-29', endDate: '2027-02-27' });
    expect(dueRange('year', '2026-11-29')).toEqual({ startDate: '2026-01-01', endDate: '2026-12-31' });
  });

  it('what is outstanding: the documents not yet in, or "Documents in", or nothing without a request', () => {
    expect(outstanding(item(1, null, '2027-01-01'))).toBeNull();
    expect(outstanding(item(1, null, '2027-01-01', { documentRequest: { id: 1, status: 'open', required: 3, done: 1, revision: 2 } }))).toBe('2 of 3 documents outstanding');
    expect(outstanding(item(1, null, '2027-01-01', { documentRequest: { id: 1, status: 'completed', required: 3, done: 3, revision: 5 } }))).toBe('Documents in');
  });
});
