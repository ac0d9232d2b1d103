import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState, type FormEvent } from 'react';
import { COMPLIANCE_FREQUENCIES, DEFAULT_DUE_DAY, DEFAULT_REMINDER_DAYS, type ComplianceFrequency } from '@ledgerline/contracts/compliance.contracts.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { MONTH_LABELS, QUARTER_MONTHS } from './compliance-view.ts';
import { useClients, useComplianceMutations, useReportTypes, type SchedulePayload } from './compliance.api.ts';

const FORM_ID = 'compliance-schedule-form';
interface FormState { clientId: number | null; reportTypeId: number | null; frequency: ComplianceFrequency; dueDayOfMonth: number; dueMonths: string[]; reminderDays: number; notes: string }
const blank = (): FormState => ({ clientId: null, reportTypeId: null, frequency: 'monthly', dueDayOfMonth: DEFAULT_DUE_DAY, dueMonths: [], reminderDays: DEFAULT_REMINDER_DAYS, notes: '' });
const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * Create Compliance Schedule (spec 001 §2, §5): quarterly picks any of Q1–Q4 (months 3, 6, 9, 12),
 * yearly exactly one month (checking replaces, unchecking clears), monthly none. Enter in a field
 * submits the form; in the notes it starts a new line.
 */
export function ScheduleFormDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const [form, setForm] = useState<FormState>(blank);
  const [error, setError] = useState<string | null>(null);
  const clients = useClients().data;
  const reportTypes = useReportTypes(visible).data;
  const { createSchedule } = useComplianceMutations();
  useEffect(() => { if (visible) { setForm(blank()); setError(null); } }, [visible]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const toggleMonth = (month: string, checked: boolean) => setForm((f) => ({
    ...f,
    dueMonths: f.frequency === 'yearly' ? (checked ? [month] : []) : checked ? [...f.dueMonths, month] : f.dueMonths.filter((m) => m !== month),
  }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.clientId || !form.reportTypeId) { setError('Please select a client and a report type'); return; }
    const payload: SchedulePayload = { ...form, clientId: form.clientId, reportTypeId: form.reportTypeId, dueMonths: form.frequency === 'monthly' ? [] : form.dueMonths };
    createSchedule.mutate(payload, {
      onSuccess: (s) => { showToast({ severity: 'success', summary: 'Schedule Created', detail: `${s.clientName} · ${s.reportTypeName}` }); onHide(); },
      onError: (err) => setError(serverMessage(err) ?? 'Failed to create schedule'),
    });
  };
  const monthChoices = form.frequency === 'quarterly' ? QUARTER_MONTHS : form.frequency === 'yearly' ? MONTH_LABELS.map((label, i) => ({ label, value: String(i + 1) })) : [];

  return (
    <CreateEditDialog visible={visible} editing={false} noun="Schedule" createHeader="Create Compliance Schedule" formId={FORM_ID} pending={createSchedule.isPending} onClose={onHide}>
      <form id={FORM_ID} className="compliance-form" onSubmit={submit} noValidate>
        {error && <p className="compliance-form__error" role="alert">{error}</p>}
        <label htmlFor="schedule-client">Client</label>
        <Dropdown inputId="schedule-client" value={form.clientId} filter placeholder="Select a client" options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => set('clientId', e.value)} />
        <label htmlFor="schedule-report-type">Report Type</label>
        <Dropdown inputId="schedule-report-type" value={form.reportTypeId} filter placeholder="Select a report type" options={reportTypes.map((r) => ({ label: r.name, value: r.id }))} onChange={(e) => set('reportTypeId', e.value)} />
        <label htmlFor="schedule-frequency">Frequency</label>
        <Dropdown inputId="schedule-frequency" value={form.frequency} options={COMPLIANCE_FREQUENCIES.map((f) => ({ label: capitalise(f), value: f }))}
          onChange={(e) => setForm((f) => ({ ...f, frequency: e.value as ComplianceFrequency, dueMonths: [] }))} />
        <div className="compliance-form__row">
          <span><label htmlFor="schedule-due-day">Due Day of Month</label>
            <InputNumber inputId="schedule-due-day" value={form.dueDayOfMonth} min={1} max={31} onValueChange={(e) => set('dueDayOfMonth', e.value ?? DEFAULT_DUE_DAY)} /></span>
          <span><label htmlFor="schedule-reminder">Reminder Days</label>
            <InputNumber inputId="schedule-reminder" value={form.reminderDays} min={1} max={90} onValueChange={(e) => set('reminderDays', e.value ?? DEFAULT_REMINDER_DAYS)} /></span>
        </div>
        {monthChoices.length > 0 && (
          <fieldset className="compliance-form__months">
            <legend>Due Months</legend>
            {monthChoices.map((m) => (
              <span key={m.value} className="compliance-form__month">
                <Checkbox inputId={`schedule-month-${m.value}`} checked={form.dueMonths.includes(m.value)} onChange={(e) => toggleMonth(m.value, !!e.checked)} />
                <label htmlFor={`schedule-month-${m.value}`}>{m.label}</label>
              </span>
            ))}
          </fieldset>
        )}
        <label htmlFor="schedule-notes">Notes</label>
        <InputTextarea id="schedule-notes" rows={3} value={form.notes} onChange={(e) => set('notes', e.target.value)} />
      </form>
    </CreateEditDialog>
  );
}
