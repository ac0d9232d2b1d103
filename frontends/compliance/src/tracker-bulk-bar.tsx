import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Dropdown } from 'primereact/dropdown';
import { useState } from 'react';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useComplianceMutations, useUsers, type TrackerPayload } from './compliance.api.ts';

/**
 * Bulk actions on the tracker's selected items: filed on a (past) date, extended (to a date, or
 * without one to each entry's own extended due date), or assigned to a staff user. Each item is
 * its own call, so the server's rules and events hold per item; the toast says how many succeeded.
 */
export function TrackerBulkBar({ selected, onDone }: { selected: readonly ComplianceItem[]; onDone(): void }) {
  const [filedOn, setFiledOn] = useState<Date | null>(new Date());
  const [extendTo, setExtendTo] = useState<Date | null>(null);
  const [assignee, setAssignee] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const staff = useUsers(selected.length > 0).data.filter((u) => !isClientRole(u.role));
  const { updateItem, extendItem } = useComplianceMutations();
  if (selected.length === 0) return null;

  const update = (payload: TrackerPayload) => (item: ComplianceItem) => updateItem.mutateAsync({ id: item.id, payload });
  const run = async (what: string, act: (item: ComplianceItem) => Promise<unknown>) => {
    setBusy(true);
    const results = await Promise.allSettled(selected.map(act));
    setBusy(false);
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    if (failed.length) showToast({ severity: 'error', summary: 'Error', detail: `${failed.length} of ${selected.length} not ${what}: ${serverMessage(failed[0]!.reason) ?? 'failed'}` });
    else showToast({ severity: 'success', summary: 'Items Updated', detail: `${selected.length} items ${what}` });
    onDone();
  };
  return (
    <div className="compliance-bulk" role="toolbar" aria-label="Selected items">
      <strong>{selected.length} selected</strong>
      <span className="compliance-bulk__action">
        <Calendar inputId="bulk-filed" value={filedOn} maxDate={new Date()} showIcon onChange={(e) => setFiledOn((e.value as Date | null) ?? null)} aria-label="Filed on" />
        <Button label="Mark filed" size="small" disabled={!filedOn || busy} onClick={() => run('marked filed', update({ status: 'filed', filedDate: toCalendarDate(filedOn!) }))} />
      </span>
      <span className="compliance-bulk__action">
        <Calendar inputId="bulk-extension" value={extendTo} showIcon showButtonBar placeholder="Each its own date" onChange={(e) => setExtendTo((e.value as Date | null) ?? null)} aria-label="Extend to" />
        <Button label="Extend" size="small" disabled={busy} onClick={() => {
          const extendedDueDate = extendTo ? toCalendarDate(extendTo) : undefined;
          void run('extended', (item) => extendItem.mutateAsync({ id: item.id, extendedDueDate }));
        }} />
      </span>
      <span className="compliance-bulk__action">
        <Dropdown inputId="bulk-assignee" value={assignee} filter placeholder="Assign to" options={staff.map((u) => ({ label: u.fullName || u.username, value: u.id }))}
          onChange={(e) => setAssignee(e.value as number)} aria-label="Assign to" />
        <Button label="Assign" size="small" disabled={!assignee || busy} onClick={() => run('assigned', update({ assignedToId: assignee }))} />
      </span>
    </div>
  );
}
