import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { MultiSelect } from 'primereact/multiselect';
import { useEffect, useMemo, useState } from 'react';
import { RECURRING_PATTERNS, TASK_MESSAGES, TASK_PRIORITIES, TASK_STATUSES, type RecurringPattern, type Task, type TaskPriority, type TaskStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { firmDayOrLocal, useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { PRIORITY_LABELS, STATUS_LABELS } from './task-view.ts';
import { useStaffUsers, useTaskClients, useTaskMutations, useTaskReportTypes, type TaskPayload } from './tasks.api.ts';

interface FormState {
  title: string;
  description: string;
  priority: TaskPriority;
  status: TaskStatus;
  dueDate: Date | null;
  assignedToId: number | null;
  clientIds: number[];
  reportTypeId: number | null;
  isRecurring: boolean;
  recurringPattern: RecurringPattern;
  recurringEndDate: Date | null;
}

const blank = (): FormState => ({ title: '', description: '', priority: 'medium', status: 'pending', dueDate: null, assignedToId: null, clientIds: [], reportTypeId: null, isRecurring: false, recurringPattern: 'monthly', recurringEndDate: null });
const fromTask = (t: Task): FormState => ({
  title: t.title, description: t.description ?? '', priority: t.priority, status: t.status, dueDate: parseCalendarDate(t.dueDate),
  assignedToId: t.assignedToId, clientIds: t.clientIds, reportTypeId: t.reportTypeId, isRecurring: t.isRecurring, recurringPattern: t.recurringPattern ?? 'monthly',
  recurringEndDate: parseCalendarDate(t.recurringEndDate),
});
/** A date typed as MM/DD/YYYY, or null while it is incomplete or not a day. */
function typedDate(text: string): Date | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const d = new Date(Number(m[3]), Number(m[1]) - 1, Number(m[2]));
  return d.getMonth() === Number(m[1]) - 1 ? d : null;
}
const MIN_YEAR_1900 = new Date(1900, 0, 1);

/** Create or edit a task (spec 001 §2, §5): past dates disabled, recurring fields only when checked. */
export function TaskFormDialog({ task, visible, onHide }: { task: Task | null; visible: boolean; onHide(): void }) {
  const [form, setForm] = useState<FormState>(blank);
  const [error, setError] = useState<string | null>(null);
  // The picker refuses a typed past date without a word: say the rule instead (spec 001 §5).
  const [pastDate, setPastDate] = useState<Partial<Record<'dueDate' | 'recurringEndDate', string>>>({});
  const users = useStaffUsers().data ?? [];
  const clients = useTaskClients().data ?? [];
  const reportTypes = useTaskReportTypes().data ?? [];
  const { save } = useTaskMutations();
  const firmToday = useFirmToday();
  useEffect(() => { if (visible) { setForm(task ? fromTask(task) : blank()); setError(null); setPastDate({}); } }, [visible, task]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  // One Date per opening (the picker resets its typed text whenever minDate changes
  // identity): the firm's today as the page had read it, else the browser's.
  const minDate = useMemo(() => {
    const today = firmDayOrLocal(firmToday);
    return today > MIN_YEAR_1900 ? today : MIN_YEAR_1900;
  }, [visible]);
  const message = { dueDate: TASK_MESSAGES.dueDatePast, recurringEndDate: TASK_MESSAGES.endDatePast };
  const checkTyped = (key: 'dueDate' | 'recurringEndDate', text: string) => {
    const d = typedDate(text);
    const past = !!d && d < minDate;
    setPastDate((p) => ({ ...p, [key]: past ? message[key] : undefined }));
    // A date put right also takes back the refusal shown when saving.
    if (!past) setError((e) => (e === message[key] ? null : e));
  };
  const pick = (key: 'dueDate' | 'recurringEndDate', value: Date | null) => {
    set(key, value);
    // The picker also reports null while a date is half typed: only a chosen date settles the rule.
    if (!value) return;
    setPastDate((p) => ({ ...p, [key]: undefined }));
    setError((e) => (e === message[key] ? null : e));
  };

  const submit = () => {
    if (!form.title.trim()) { setError('Title is required'); return; }
    const typedPast = pastDate.dueDate ?? (form.isRecurring ? pastDate.recurringEndDate : undefined);
    if (typedPast) { setError(typedPast); return; }
    const payload: TaskPayload = {
      title: form.title.trim(), description: form.description.trim() || null, priority: form.priority, status: form.status,
      dueDate: form.dueDate ? toCalendarDate(form.dueDate) : null, assignedToId: form.assignedToId ?? 0, clientIds: form.clientIds, reportTypeId: form.reportTypeId, isRecurring: form.isRecurring,
      ...(form.isRecurring && { recurringPattern: form.recurringPattern, recurringEndDate: form.recurringEndDate ? toCalendarDate(form.recurringEndDate) : null }),
    };
    save.mutate({ id: task?.id ?? null, payload }, {
      onSuccess: () => { showToast({ severity: 'success', summary: task ? 'Task Updated' : 'Task Created', detail: form.title.trim() }); onHide(); },
      onError: (err) => setError(serverMessage(err) ?? 'Failed to save task'),
    });
  };

  return (
    <Dialog header={task ? 'Edit Task' : 'Create New Task'} visible={visible} onHide={onHide} style={{ width: 'min(40rem, 95vw)' }}
      footer={<div><Button label="Cancel" text onClick={onHide} /><Button label={task ? 'Update Task' : 'Create Task'} loading={save.isPending} onClick={submit} /></div>}>
      <div className="task-form">
        {error && <p className="task-form__error" role="alert">{error}</p>}
        <label htmlFor="task-title">Title *</label>
        <InputText id="task-title" value={form.title} onChange={(e) => set('title', e.target.value)} />
        <label htmlFor="task-description">Description</label>
        <InputTextarea id="task-description" rows={3} value={form.description} onChange={(e) => set('description', e.target.value)} />
        <div className="task-form__row">
          <span><label htmlFor="task-priority">Priority</label>
            <Dropdown inputId="task-priority" value={form.priority} options={TASK_PRIORITIES.map((p) => ({ label: PRIORITY_LABELS[p], value: p }))} onChange={(e) => set('priority', e.value)} /></span>
          <span><label htmlFor="task-status">Status</label>
            <Dropdown inputId="task-status" value={form.status} options={TASK_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: s }))} onChange={(e) => set('status', e.value)} /></span>
        </div>
        <div className="task-form__row">
          <span><label htmlFor="task-due">Due Date</label>
            {/* Typed text is read from the input's own events, which reach this wrapper whatever the picker does with them. */}
            <span className="task-form__date" onInput={(e) => checkTyped('dueDate', (e.target as HTMLInputElement).value)}>
              <Calendar inputId="task-due" value={form.dueDate} minDate={minDate} showIcon invalid={!!pastDate.dueDate} aria-describedby="task-due-error"
                onChange={(e) => pick('dueDate', (e.value as Date | null) ?? null)} />
            </span>
            {pastDate.dueDate && <small id="task-due-error" className="task-form__field-error">{pastDate.dueDate}</small>}</span>
          <span><label htmlFor="task-assignee">Assigned To</label>
            <Dropdown inputId="task-assignee" value={form.assignedToId} showClear placeholder="Unassigned"
              options={users.map((u) => ({ label: `${u.fullName} (${u.username})`, value: u.id }))} onChange={(e) => set('assignedToId', e.value ?? null)} /></span>
        </div>
        <label htmlFor="task-clients">Clients</label>
        <MultiSelect inputId="task-clients" value={form.clientIds} filter display="chip" placeholder="Select clients"
          options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => set('clientIds', e.value as number[])} />
        <label htmlFor="task-report-type">Report Type</label>
        {/* Only the types the caller may use are offered; a task keeps a type set by someone with wider access when edited. */}
        <Dropdown inputId="task-report-type" value={form.reportTypeId} showClear filter placeholder="No report type"
          options={reportTypes.map((r) => ({ label: r.name, value: r.id }))} onChange={(e) => set('reportTypeId', e.value ?? null)} />
        <div className="task-form__check">
          <Checkbox inputId="task-recurring" checked={form.isRecurring} onChange={(e) => set('isRecurring', !!e.checked)} />
          <label htmlFor="task-recurring">Recurring task</label>
        </div>
        {form.isRecurring && (
          <div className="task-form__row">
            <span><label htmlFor="task-pattern">Recurring Pattern</label>
              <Dropdown inputId="task-pattern" value={form.recurringPattern} options={RECURRING_PATTERNS.map((p) => ({ label: p[0]!.toUpperCase() + p.slice(1), value: p }))} onChange={(e) => set('recurringPattern', e.value)} /></span>
            <span><label htmlFor="task-end">Recurring End Date</label>
              <span className="task-form__date" onInput={(e) => checkTyped('recurringEndDate', (e.target as HTMLInputElement).value)}>
                <Calendar inputId="task-end" value={form.recurringEndDate} minDate={minDate} showIcon invalid={!!pastDate.recurringEndDate} aria-describedby="task-end-error"
                  onChange={(e) => pick('recurringEndDate', (e.value as Date | null) ?? null)} />
              </span>
              {pastDate.recurringEndDate && <small id="task-end-error" className="task-form__field-error">{pastDate.recurringEndDate}</small>}</span>
          </div>
        )}
      </div>
    </Dialog>
  );
}
