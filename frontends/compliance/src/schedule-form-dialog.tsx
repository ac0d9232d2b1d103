import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputSwitch } from 'primereact/inputswitch';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState, type FormEvent } from 'react';
import {
  COMPLIANCE_FREQUENCIES, DEFAULT_DUE_DAY, DEFAULT_REMINDER_DAYS, type ComplianceFrequency, type ComplianceSchedule, type PeriodChoice,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { MONTH_LABELS, QUARTER_PATTERNS } from './compliance-view.ts';
import { useClients, useComplianceMutations, useReportTypes, type SchedulePayload } from './compliance.api.ts';

const FORM_ID = 'compliance-schedule-form';
interface FormState {
  clientId: number | null; reportTypeId: number | null; frequency: ComplianceFrequency; dueDayOfMonth: number; dueMonths: string[];
  reminderDays: number; notes: string; covers: PeriodChoice | null; isActive: boolean;
}
const blank = (): FormState => ({
  clientId: null, reportTypeId: null, frequency: 'monthly', dueDayOfMonth: DEFAULT_DUE_DAY, dueMonths: [], reminderDays: DEFAULT_REMINDER_DAYS, notes: '', covers: 'before', isActive: true,
});
const ofSchedule = (s: ComplianceSchedule): FormState => ({
  clientId: s.clientId, reportTypeId: s.reportTypeId, frequency: s.frequency, dueDayOfMonth: s.dueDayOfMonth, dueMonths: s.dueMonths,
  reminderDays: s.reminderDays, notes: s.notes ?? '', covers: s.covers, isActive: s.isActive,
});
const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const COVERS_OPTIONS = [
  { label: 'The period before the due date', value: 'before' },
  { label: 'The period of the due date', value: 'due' },
];
const MONTH_CHOICES = MONTH_LABELS.map((label, i) => ({ label: label.slice(0, 3), value: String(i + 1) }));

/**
 * Create or edit a compliance schedule (spec 001 §2, §5): quarterly takes any months (the three-month
 * patterns with one click), yearly exactly one month (checking replaces, unchecking clears), monthly
 * none. "Covers" says which period its items are for: a return due in November for October is "the
 * period before the due date". A statutory calendar's own lag is kept until another choice is made.
 * Enter in a field submits the form; in the notes it starts a new line.
 */
export function ScheduleFormDialog({ visible, schedule, onHide }: { visible: boolean; schedule: ComplianceSchedule | null; onHide(): void }) {
  const [form, setForm] = useState<FormState>(blank);
  const [error, setError] = useState<string | null>(null);
  const clients = useClients().data;
  const reportTypes = useReportTypes(visible).data;
  const { createSchedule, updateSchedule } = useComplianceMutations();
  useEffect(() => { if (visible) { setForm(schedule ? ofSchedule(schedule) : blank()); setError(null); } }, [visible, schedule]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const toggleMonth = (month: string, checked: boolean) => setForm((f) => ({
    ...f,
    dueMonths: f.frequency === 'yearly' ? (checked ? [month] : []) : checked ? [...f.dueMonths, month] : f.dueMonths.filter((m) => m !== month),
  }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.clientId || !form.reportTypeId) { setError('Please select a client and a report type'); return; }
    const { covers, ...rest } = form;
    const payload: SchedulePayload = {
      ...rest, clientId: form.clientId, reportTypeId: form.reportTypeId, dueMonths: form.frequency === 'monthly' ? [] : form.dueMonths,
      // A calendar's own lag (no choice) stays as it is.
      ...(covers ? { covers } : {}),
    } as SchedulePayload;
    const done = (s: ComplianceSchedule) => { showToast({ severity: 'success', summary: schedule ? 'Schedule Updated' : 'Schedule Created', detail: `${s.clientName} · ${s.reportTypeName}` }); onHide(); };
    const failed = (err: unknown) => setError(serverMessage(err) ?? `Failed to ${schedule ? 'update' : 'create'} schedule`);
    if (schedule) updateSchedule.mutate({ id: schedule.id, payload }, { onSuccess: done, onError: failed });
    else createSchedule.mutate(payload, { onSuccess: done, onError: failed });
  };

  return (
    <CreateEditDialog visible={visible} editing={schedule !== null} noun="Schedule" createHeader="Create Compliance Schedule" formId={FORM_ID}
      pending={createSchedule.isPending || updateSchedule.isPending} onClose={onHide}>
      <form id={FORM_ID} className="compliance-form" onSubmit={submit} noValidate>
        {error && <p className="compliance-form__error" role="alert">{error}</p>}
        <label htmlFor="schedule-client">Client</label>
        <Dropdown inputId="schedule-client" value={form.clientId} filter placeholder="Select a client" options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => set('clientId', e.value)} />
        <label htmlFor="schedule-report-type">Report Type</label>
        <Dropdown inputId="schedule-report-type" value={form.reportTypeId} filter placeholder="Select a report type" options={reportTypes.map((r) => ({ label: r.name, value: r.id }))} onChange={(e) => set('reportTypeId', e.value)} />
        <label htmlFor="schedule-frequency">Frequency</label>
        <Dropdown inputId="schedule-frequency" value={form.frequency} options={COMPLIANCE_FREQUENCIES.map((f) => ({ label: capitalise(f), value: f }))}
          onChange={(e) => setForm((f) => ({ ...f, frequency: e.value as ComplianceFrequency, dueMonths: [] }))} />
        <label htmlFor="schedule-covers">Covers</label>
        <Dropdown inputId="schedule-covers" value={form.covers} options={COVERS_OPTIONS} placeholder="As the statutory calendar sets it"
          onChange={(e) => set('covers', e.value as PeriodChoice)} />
        <div className="compliance-form__row">
          <span><label htmlFor="schedule-due-day">Due Day of Month</label>
            <InputNumber inputId="schedule-due-day" value={form.dueDayOfMonth} min={1} max={31} onValueChange={(e) => set('dueDayOfMonth', e.value ?? DEFAULT_DUE_DAY)} /></span>
          <span><label htmlFor="schedule-reminder">Reminder Days</label>
            <InputNumber inputId="schedule-reminder" value={form.reminderDays} min={1} max={90} onValueChange={(e) => set('reminderDays', e.value ?? DEFAULT_REMINDER_DAYS)} /></span>
        </div>
        {form.frequency !== 'monthly' && (
          <fieldset className="compliance-form__months">
            <legend>Due Months</legend>
            {form.frequency === 'quarterly' && (
              <div className="compliance-form__patterns">
                {QUARTER_PATTERNS.map((p) => (
                  <Button key={p.label} type="button" size="small" outlined label={p.label} onClick={() => set('dueMonths', p.months)} />
                ))}
              </div>
            )}
            {MONTH_CHOICES.map((m) => (
              <span key={m.value} className="compliance-form__month">
                <Checkbox inputId={`schedule-month-${m.value}`} checked={form.dueMonths.includes(m.value)} onChange={(e) => toggleMonth(m.value, !!e.checked)} />
                <label htmlFor={`schedule-month-${m.value}`}>{m.label}</label>
              </span>
            ))}
          </fieldset>
        )}
        {schedule && (
          <span className="compliance-form__switch">
            <InputSwitch inputId="schedule-active" checked={form.isActive} onChange={(e) => set('isActive', !!e.value)} />
            <label htmlFor="schedule-active">Active</label>
          </span>
        )}
        <label htmlFor="schedule-notes">Notes</label>
        <InputTextarea id="schedule-notes" rows={3} value={form.notes} onChange={(e) => set('notes', e.target.value)} />
      </form>
    </CreateEditDialog>
  );
}
