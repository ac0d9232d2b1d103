import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { itemDateRows } from './compliance-view.ts';

/**
 * The dates an item's dialogs show (issue 44: neither dialog may leave them out): the period's
 * start and end, the statutory due date, the business-day due date and why it moved, the
 * extended due date.
 */
export function ItemDates({ item }: { item: ComplianceItem }) {
  return (
    <dl className="compliance-dates" aria-label="Dates">
      {itemDateRows(item).map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
    </dl>
  );
}
