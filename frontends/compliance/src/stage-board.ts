import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { addDays } from '@ledgerline/contracts/firm-time-zone.ts';
import type { Stage } from '@ledgerline/contracts/stages.contracts.ts';

/** What the Board derives from a pipeline and its items (issue 42); pure, so it is unit-tested. */

export interface BoardColumn {
  stage: Stage;
  items: ComplianceItem[];
}

/**
 * One column per stage, in the pipeline's order, each with its items soonest due first. An
 * item on a stage the pipeline no longer has (a read racing a save) sits in the first column.
 */
export function boardColumns(stages: readonly Stage[], items: readonly ComplianceItem[]): BoardColumn[] {
  const columns = stages.map((stage) => ({ stage, items: [] as ComplianceItem[] }));
  if (!columns.length) return [];
  const byId = new Map(columns.map((c) => [c.stage.id, c]));
  for (const item of items) (byId.get(item.stage ?? '') ?? columns[0]!).items.push(item);
  for (const c of columns) c.items.sort((a, b) => dueOf(a).localeCompare(dueOf(b)) || a.id - b.id);
  return columns;
}

const dueOf = (i: ComplianceItem) => (i.status === 'extended' && i.extendedDueDate ? i.extendedDueDate : i.dueDate);

/** The Board's due windows: any day, or due from today through the next 30 or 90 days, or the firm's calendar year. */
export const DUE_WINDOWS = [
  { value: 'any', label: 'Any due date' },
  { value: '30', label: 'Due in 30 days' },
  { value: '90', label: 'Due in 90 days' },
  { value: 'year', label: 'Due this year' },
] as const;
export type DueWindow = (typeof DUE_WINDOWS)[number]['value'];

/** The list's startDate and endDate for a window, from the firm's today ('YYYY-MM-DD'); none for any. */
export function dueRange(window: DueWindow, today: string): { startDate?: string; endDate?: string } {
  if (window === 'any') return {};
  if (window === 'year') return { startDate: `${today.slice(0, 4)}-01-01`, endDate: `${today.slice(0, 4)}-12-31` };
  return { startDate: today, endDate: addDays(today, Number(window)) };
}

/** What a card says is outstanding: the documents of its request not yet in, or nothing. */
export function outstanding(item: ComplianceItem): string | null {
  const r = item.documentRequest;
  if (!r) return null;
  if (r.status === 'completed' || r.done >= r.required) return 'Documents in';
  return `${r.required - r.done} of ${r.required} documents outstanding`;
}
