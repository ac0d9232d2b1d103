import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState } from 'react';
import type { ComplianceItem, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { STATUS_OPTIONS } from './compliance-view.ts';
import { useComplianceMutations, useUsers } from './compliance.api.ts';
import { DocumentRequestChip, RequestDocumentsButton } from './document-request-action.tsx';
import { SendOrganizerButton } from './organizer-action.tsx';
import { SignedDocumentChip } from './signed-document-chip.tsx';
import { RequestSignatureButton } from './signature-request-action.tsx';
import { ExtendButton } from './extend-action.tsx';
import { ItemDates } from './item-dates.tsx';

interface FormState { status: TrackerStatus; filedDate: Date | null; extendedDueDate: Date | null; remarks: string; assignedToId: number | null }

/**
 * 'Update Compliance Status' (spec 001 §2, §4): the item's dates (period, statutory, business-day
 * and extended due dates); any status; an extension date makes it extended (through the extend
 * route, issue 39; "Extend" without a date takes the entry's own); a filed item's date may be set
 * to any past day (not a future one); the item can be assigned to staff.
 */
export function TrackerStatusDialog({ item, onHide }: { item: ComplianceItem | null; onHide(): void }) {
  const [form, setForm] = useState<FormState>({ status: 'pending', filedDate: null, extendedDueDate: null, remarks: '', assignedToId: null });
  const { updateItem, extendItem } = useComplianceMutations();
  const staff = useUsers(item !== null).data.filter((u) => !isClientRole(u.role));
  useEffect(() => {
    if (item) {
      setForm({
        status: item.status, filedDate: item.filedDate ? new Date(item.filedDate) : new Date(), extendedDueDate: parseCalendarDate(item.extendedDueDate),
        remarks: item.remarks ?? '', assignedToId: item.assignedToId,
      });
    }
  }, [item]);
  const save = async () => {
    if (!item) return;
    const filedDate = form.status === 'filed' && form.filedDate ? toCalendarDate(form.filedDate) : undefined;
    const extendedDueDate = form.extendedDueDate ? toCalendarDate(form.extendedDueDate) : null;
    try {
      // A new extension date goes through the extend route (it keeps the rule's checks and events);
      // clearing one is a plain update.
      if (extendedDueDate && extendedDueDate !== item.extendedDueDate) await extendItem.mutateAsync({ id: item.id, extendedDueDate });
      await updateItem.mutateAsync({ id: item.id, payload: {
        status: form.status, filedDate, ...(extendedDueDate ? {} : { extensionDate: null }), remarks: form.remarks, assignedToId: form.assignedToId,
      } });
      showToast({ severity: 'success', summary: 'Status Updated', detail: `${item.reportTypeName} ${item.period}` });
      onHide();
    } catch (err) {
      showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update status' });
    }
  };
  return (
    <Dialog header="Update Compliance Status" visible={item !== null} onHide={onHide} style={{ width: 'min(32rem, 95vw)' }}
      footer={<div className="form-dialog-footer"><Button label="Cancel" outlined onClick={onHide} /><Button label="Save Changes" icon="pi pi-check" loading={updateItem.isPending || extendItem.isPending} onClick={() => void save()} /></div>}>
      {item && (
        <div className="compliance-form">
          <p className="compliance-form__subject">{item.clientName} · {item.reportTypeName} · {item.period}</p>
          <ItemDates item={item} />
          <div className="compliance-form__documents"><ExtendButton item={item} compact={false} onDone={onHide} /><RequestDocumentsButton item={item} /><SendOrganizerButton item={item} /><RequestSignatureButton item={item} /><DocumentRequestChip request={item.documentRequest} /><SignedDocumentChip document={item.signedDocument} /></div>
          <label htmlFor="tracker-status">Status</label>
          <Dropdown inputId="tracker-status" value={form.status} options={STATUS_OPTIONS} onChange={(e) => setForm((f) => ({ ...f, status: e.value as TrackerStatus }))} />
          {form.status === 'filed' && (<>
            <label htmlFor="tracker-filed">Filed Date</label>
            <Calendar inputId="tracker-filed" value={form.filedDate} maxDate={new Date()} showIcon onChange={(e) => setForm((f) => ({ ...f, filedDate: (e.value as Date | null) ?? null }))} />
          </>)}
          <label htmlFor="tracker-assignee">Assigned To</label>
          <Dropdown inputId="tracker-assignee" value={form.assignedToId} filter showClear placeholder="Unassigned"
            options={staff.map((u) => ({ label: u.fullName || u.username, value: u.id }))} onChange={(e) => setForm((f) => ({ ...f, assignedToId: (e.value as number | undefined) ?? null }))} />
          <label htmlFor="tracker-extension">Extended Due Date</label>
          <Calendar inputId="tracker-extension" value={form.extendedDueDate} showIcon showButtonBar
            onChange={(e) => {
              const extendedDueDate = (e.value as Date | null) ?? null;
              setForm((f) => ({ ...f, extendedDueDate, status: extendedDueDate ? 'extended' : f.status }));
            }} />
          <label htmlFor="tracker-remarks">Remarks</label>
          <InputTextarea id="tracker-remarks" rows={3} value={form.remarks} onChange={(e) => setForm((f) => ({ ...f, remarks: e.target.value }))} />
        </div>
      )}
    </Dialog>
  );
}
