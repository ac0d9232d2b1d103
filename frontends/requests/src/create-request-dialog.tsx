import { Calendar } from 'primereact/calendar';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { REQUEST_DEFAULTS, type RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { firmDayOrLocal, useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { ChecklistEditor, useDraftKeys } from './checklist-editor.tsx';
import { checklistProblem, type DraftItem } from './request-view.ts';
import { useRequestClients, useRequestMutations, useReviewers, useTemplates } from './requests.api.ts';

interface FormState {
  clientId: number | null;
  templateId: number | null;
  title: string;
  message: string;
  dueDate: Date | null;
  reminderEveryDays: number;
  assignedToId: number | null;
  items: DraftItem[];
  sendNow: boolean;
}

const FORM_ID = 'create-request-form';
const blank = (): FormState => ({
  clientId: null, templateId: null, title: '', message: '', dueDate: null, reminderEveryDays: REQUEST_DEFAULTS.reminderEveryDays,
  assignedToId: null, items: [], sendNow: true,
});

/**
 * Ask a client for documents: the checklist starts from a template (or empty) and stays
 * editable; "Send now" notifies the client's users once the request exists.
 */
export function CreateRequestDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const [form, setForm] = useState<FormState>(blank);
  const [errors, setErrors] = useState<Partial<Record<'clientId' | 'title' | 'dueDate' | 'items' | 'form', string>>>({});
  const draft = useDraftKeys();
  const clients = useRequestClients(visible).data ?? [];
  const templates = useTemplates(visible).data ?? [];
  const reviewers = useReviewers(visible).data ?? [];
  const { create } = useRequestMutations();
  const firmToday = useFirmToday();
  const navigate = useNavigate();
  // One Date per opening (the picker resets its typed text whenever minDate changes identity).
  const minDate = useMemo(() => firmDayOrLocal(firmToday), [visible]);
  useEffect(() => { if (visible) { setForm(blank()); setErrors({}); } }, [visible]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const applyTemplate = (template: RequestTemplate | undefined) => setForm((f) => ({
    ...f, templateId: template?.id ?? null,
    // A template names the request until the user has typed a title of their own.
    title: template && (!f.title.trim() || templates.some((t) => t.name === f.title)) ? template.name : f.title,
    items: template ? template.items.map((i) => draft({ title: i.title, description: i.description, required: i.required })) : f.items,
  }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (form.clientId === null) found.clientId = 'Client is required';
    if (!form.title.trim()) found.title = 'Title is required';
    if (!form.dueDate) found.dueDate = 'Due date is required';
    const checklist = checklistProblem(form.items);
    if (checklist) found.items = checklist;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const template = templates.find((t) => t.id === form.templateId);
    create.mutate({
      request: {
        clientId: form.clientId!, title: form.title.trim(), message: form.message.trim() || null, dueDate: toCalendarDate(form.dueDate!),
        reminderEveryDays: form.reminderEveryDays, assignedToId: form.assignedToId, reportTypeId: template?.reportTypeId ?? null,
        items: form.items.map((i) => ({ title: i.title.trim(), description: i.description, required: i.required })),
      },
      sendNow: form.sendNow,
    }, {
      onSuccess: (created) => {
        showToast({ severity: 'success', summary: 'Request Created', detail: form.sendNow ? `${created.title}: the client has been notified.` : created.title });
        onHide();
        navigate(inCurrentFirm(`/requests/${created.id}`));
      },
      onError: (err) => setErrors({ form: serverMessage(err) ?? 'Failed to create the request' }),
    });
  };

  return (
    <CreateEditDialog visible={visible} editing={false} noun="Request" createHeader="New Document Request" formId={FORM_ID} pending={create.isPending} onClose={onHide}>
      <form id={FORM_ID} className="request-form" onSubmit={submit} noValidate>
        {errors.form && <p className="request-form__error" role="alert">{errors.form}</p>}
        <div className="request-form__row">
          <FormField label="Client *" htmlFor="request-client" error={errors.clientId}>
            <Dropdown inputId="request-client" value={form.clientId} filter placeholder="Select a client"
              options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => set('clientId', e.value ?? null)} />
          </FormField>
          <FormField label="Template" htmlFor="request-template" hint="Fills the checklist; you can still change it.">
            <Dropdown inputId="request-template" value={form.templateId} showClear placeholder="No template"
              options={templates.map((t) => ({ label: t.name, value: t.id }))} onChange={(e) => applyTemplate(templates.find((t) => t.id === e.value))} />
          </FormField>
        </div>
        <FormField label="Title *" htmlFor="request-title" error={errors.title}>
          <InputText id="request-title" value={form.title} onChange={(e) => set('title', e.target.value)} />
        </FormField>
        <FormField label="Message" htmlFor="request-message">
          <InputTextarea id="request-message" rows={2} value={form.message} onChange={(e) => set('message', e.target.value)} />
        </FormField>
        <div className="request-form__row">
          <FormField label="Due Date *" htmlFor="request-due" error={errors.dueDate}>
            <Calendar inputId="request-due" value={form.dueDate} minDate={minDate} showIcon onChange={(e) => set('dueDate', (e.value as Date | null) ?? null)} />
          </FormField>
          <FormField label="Remind every (days)" htmlFor="request-cadence">
            <InputNumber inputId="request-cadence" value={form.reminderEveryDays} min={1} max={30} showButtons
              onValueChange={(e) => set('reminderEveryDays', e.value ?? REQUEST_DEFAULTS.reminderEveryDays)} />
          </FormField>
        </div>
        <FormField label="Reviewer" htmlFor="request-reviewer" hint="Default: you">
          <Dropdown inputId="request-reviewer" value={form.assignedToId} showClear placeholder="Me"
            options={reviewers.map((u) => ({ label: `${u.fullName} (${u.username})`, value: u.id }))} onChange={(e) => set('assignedToId', e.value ?? null)} />
        </FormField>
        <ChecklistEditor items={form.items} onChange={(items) => set('items', items)} draft={draft} error={errors.items} />
        <span className="request-form__check">
          <Checkbox inputId="request-send-now" checked={form.sendNow} onChange={(e) => set('sendNow', !!e.checked)} />
          <label htmlFor="request-send-now">Send now (notify the client&apos;s users)</label>
        </span>
      </form>
    </CreateEditDialog>
  );
}
