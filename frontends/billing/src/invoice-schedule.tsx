import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { Tag } from 'primereact/tag';
import { useState, type FormEvent } from 'react';
import { INVOICE_FREQUENCIES, type Invoice, type InvoiceFrequency, type InvoiceSchedule } from '@ledgerline/contracts/billing.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useBillingMutations, useInvoiceSchedule } from './billing.api.ts';

const FREQUENCY_LABELS: Record<InvoiceFrequency, string> = { monthly: 'Monthly', quarterly: 'Quarterly' };
const SCHEDULE_FORM = 'invoice-schedule';

/** The picked day as the API's yyyy-mm-dd (the calendar gives local midnight). */
function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
function tomorrow(): Date {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() + 1);
  return d;
}

function ScheduleDialog({ invoice, current, onHide }: { invoice: Invoice; current: InvoiceSchedule | null; onHide(): void }) {
  const { schedule } = useBillingMutations();
  const [frequency, setFrequency] = useState<InvoiceFrequency>(current?.frequency ?? 'monthly');
  const [nextIssue, setNextIssue] = useState<Date | null>(current ? new Date(`${current.nextIssueDate}T00:00:00`) : tomorrow());
  const [dueInDays, setDueInDays] = useState<number | null>(current?.dueInDays ?? null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!nextIssue) { showToast({ severity: 'error', summary: 'Error', detail: 'Pick the first issue date' }); return; }
    schedule.mutate({ id: invoice.id, schedule: { frequency, nextIssueDate: isoDay(nextIssue), dueInDays } }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: 'Recurring schedule saved' }); onHide(); },
      onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
    });
  };
  return (
    <Dialog visible onHide={onHide} header="Recurring Schedule" className="form-dialog"
      footer={<FormDialogFooter formId={SCHEDULE_FORM} submitLabel="Save Schedule" pendingLabel="Saving..." pending={schedule.isPending} onCancel={onHide} />}>
      <form id={SCHEDULE_FORM} onSubmit={submit} className="invoice-editor__form">
        <label htmlFor="schedule-frequency">Frequency</label>
        <Dropdown inputId="schedule-frequency" value={frequency} options={INVOICE_FREQUENCIES.map((f) => ({ label: FREQUENCY_LABELS[f], value: f }))} onChange={(e) => setFrequency(e.value as InvoiceFrequency)} />
        <label htmlFor="schedule-next-issue">First issue date</label>
        <Calendar inputId="schedule-next-issue" value={nextIssue} onChange={(e) => setNextIssue((e.value as Date | null | undefined) ?? null)}
          dateFormat="mm/dd/yy" placeholder="MM/DD/YYYY" minDate={new Date(new Date().setHours(0, 0, 0, 0))} showIcon />
        <label htmlFor="schedule-due-days">Due in (days; empty: the firm&apos;s payment terms)</label>
        <InputNumber inputId="schedule-due-days" value={dueInDays} onValueChange={(e) => setDueInDays(e.value ?? null)} min={0} max={365} useGrouping={false} />
      </form>
    </Dialog>
  );
}

/**
 * A draft's recurring schedule (issue 43): it issues and sends a numbered copy monthly or
 * quarterly at 09:00 in the firm's zone. Staff who reach the client read it; Admins set,
 * change and stop it (the API refuses anyone else).
 */
export function InvoiceSchedulePanel({ invoice, admin }: { invoice: Invoice; admin: boolean }) {
  const schedule = useInvoiceSchedule(invoice.id, invoice.status === 'draft');
  const { stopSchedule } = useBillingMutations();
  const [editing, setEditing] = useState(false);
  // Nothing for a sent invoice (a schedule lives on a draft), nor while it loads or if it cannot be read.
  if (invoice.status !== 'draft' || schedule.isPending || schedule.isError) return null;
  const s = schedule.data ?? null;
  const stop = () => stopSchedule.mutate(invoice.id, {
    onSuccess: () => showToast({ severity: 'success', summary: 'Success', detail: 'Recurring schedule stopped' }),
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
  });
  return (
    <section className="invoice-schedule" aria-labelledby="invoice-schedule-title">
      <h3 id="invoice-schedule-title" className="invoice-schedule__title">Recurring</h3>
      {s ? (
        <p className="invoice-schedule__summary" data-testid="invoice-schedule-summary">
          <Tag value={s.active ? 'Active' : 'Paused'} severity={s.active ? 'success' : 'warning'} />
          <span>{FREQUENCY_LABELS[s.frequency]}, next issue {formatDate(s.nextIssueDate)}</span>
          <span>{s.dueInDays === null ? 'due on the firm\'s terms' : `due ${s.dueInDays} days after issue`}</span>
          {s.lastIssuedOn && <span>last issued {formatDate(s.lastIssuedOn)}</span>}
          {s.pausedReason && <span className="invoice-schedule__paused">{s.pausedReason}</span>}
        </p>
      ) : <p className="invoice-schedule__summary">Not recurring: this draft is sent once.</p>}
      {admin && (
        <div className="invoice-schedule__actions">
          <Button label={s ? 'Change Schedule' : 'Make Recurring'} icon="pi pi-replay" outlined size="small" onClick={() => setEditing(true)} />
          {s && <Button label="Stop Recurring" icon="pi pi-stop-circle" severity="danger" outlined size="small" loading={stopSchedule.isPending} onClick={stop} />}
        </div>
      )}
      {editing && <ScheduleDialog invoice={invoice} current={s} onHide={() => setEditing(false)} />}
    </section>
  );
}
