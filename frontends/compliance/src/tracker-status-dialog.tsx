import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState } from 'react';
import { TRACKER_STATUSES, type ComplianceItem, type TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useComplianceMutations } from './compliance.api.ts';

interface FormState { status: TrackerStatus; extensionDate: Date | null; remarks: string }

/** 'Update Compliance Status' (spec 001 §2, §4): any status; an extension date makes it extended; filed shows its filed date. */
export function TrackerStatusDialog({ item, onHide }: { item: ComplianceItem | null; onHide(): void }) {
  const [form, setForm] = useState<FormState>({ status: 'pending', extensionDate: null, remarks: '' });
  const { updateItem } = useComplianceMutations();
  useEffect(() => {
    if (item) setForm({ status: item.status, extensionDate: parseCalendarDate(item.extensionDate), remarks: item.remarks ?? '' });
  }, [item]);
  const save = () => {
    if (!item) return;
    updateItem.mutate({ id: item.id, payload: { status: form.status, extensionDate: form.extensionDate ? toCalendarDate(form.extensionDate) : null, remarks: form.remarks } }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Status Updated', detail: `${item.reportTypeName} ${item.period}` }); onHide(); },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update status' }),
    });
  };
  return (
    <Dialog header="Update Compliance Status" visible={item !== null} onHide={onHide} style={{ width: 'min(32rem, 95vw)' }}
      footer={<div className="form-dialog-footer"><Button label="Cancel" outlined onClick={onHide} /><Button label="Save Changes" icon="pi pi-check" loading={updateItem.isPending} onClick={save} /></div>}>
      {item && (
        <div className="compliance-form">
          <p className="compliance-form__subject">{item.clientName} · {item.reportTypeName} · {item.period}</p>
          <label htmlFor="tracker-status">Status</label>
          <Dropdown inputId="tracker-status" value={form.status} options={TRACKER_STATUSES.map((s) => ({ label: s, value: s }))} onChange={(e) => setForm((f) => ({ ...f, status: e.value as TrackerStatus }))} />
          {form.status === 'filed' && (<>
            <label htmlFor="tracker-filed">Filed Date</label>
            <InputText id="tracker-filed" readOnly value={item.filedDate ? formatDate(item.filedDate) : formatDate(new Date())} />
          </>)}
          <label htmlFor="tracker-extension">Extension Date</label>
          <Calendar inputId="tracker-extension" value={form.extensionDate} showIcon showButtonBar
            onChange={(e) => {
              const extensionDate = (e.value as Date | null) ?? null;
              setForm((f) => ({ ...f, extensionDate, status: extensionDate ? 'extended' : f.status }));
            }} />
          <label htmlFor="tracker-remarks">Remarks</label>
          <InputTextarea id="tracker-remarks" rows={3} value={form.remarks} onChange={(e) => setForm((f) => ({ ...f, remarks: e.target.value }))} />
        </div>
      )}
    </Dialog>
  );
}
