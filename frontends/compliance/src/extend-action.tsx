import { Button } from 'primereact/button';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { trackerDate } from './compliance-view.ts';
import { useComplianceMutations } from './compliance.api.ts';

/** An item that may still be extended: not filed, and not extended to a date already. */
export const mayExtend = (item: Pick<ComplianceItem, 'status' | 'extendedDueDate'>): boolean => item.status !== 'filed' && !item.extendedDueDate;

/**
 * "Extend" on a tracker item (issue 39): the server sets the extended due date from the entry's
 * rule (Form 4868 / 7004 and their like); the toast says the date it chose. `onDone`: after it
 * succeeded (the item dialog closes, its dates being those of before).
 */
export function ExtendButton({ item, compact = true, onDone }: { item: ComplianceItem; compact?: boolean; onDone?: () => void }) {
  const { extendItem } = useComplianceMutations();
  if (!mayExtend(item)) return null;
  const subject = `${item.reportTypeName} ${item.period}`;
  // The promise, not mutate's callbacks: once extended, the row's button is gone before they would run.
  const onClick = () => {
    void extendItem.mutateAsync({ id: item.id }).then(
      (r) => { showToast({ severity: 'success', summary: 'Extended', detail: `${subject} extended to ${trackerDate(r.extendedDueDate)}` }); onDone?.(); },
      (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to extend the item' }),
    );
  };
  return compact
    ? <Button icon="pi pi-calendar-plus" size="small" text aria-label={`Extend ${subject}`} title="Extend" loading={extendItem.isPending} onClick={onClick} />
    : <Button label="Extend" icon="pi pi-calendar-plus" outlined aria-label={`Extend ${subject}`} loading={extendItem.isPending} onClick={onClick} />;
}
