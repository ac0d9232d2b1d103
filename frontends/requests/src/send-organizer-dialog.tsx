import { Calendar } from 'primereact/calendar';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ORGANIZER_DEFAULTS, ORGANIZER_MESSAGES } from '@ledgerline/contracts/organizers.contracts.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { firmDayOrLocal, useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useOrganizerMutations, useOrganizerTemplates } from './organizers.api.ts';
import { useRequestClients } from './requests.api.ts';

interface FormState {
  clientId: number | null;
  templateId: number | null;
  year: number;
  dueDate: Date | null;
  reminderEveryDays: number;
  message: string;
  sendNow: boolean;
}

const FORM_ID = 'send-organizer-form';
/** The return most firms ask about in a season is last year's. */
export const defaultOrganizerYear = (today: Date): number => today.getFullYear() - 1;

/** Send a client an organizer: which client, template and year, by when; "Send now" notifies the client's users at once. */
export function SendOrganizerDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const firmToday = useFirmToday();
  const blank = (): FormState => ({
    clientId: null, templateId: null, year: defaultOrganizerYear(firmDayOrLocal(firmToday)), dueDate: null,
    reminderEveryDays: ORGANIZER_DEFAULTS.reminderEveryDays, message: '', sendNow: true,
  });
  const [form, setForm] = useState<FormState>(blank);
  const [errors, setErrors] = useState<Partial<Record<'clientId' | 'templateId' | 'dueDate' | 'form', string>>>({});
  const clients = useRequestClients(visible).data ?? [];
  const templates = useOrganizerTemplates(visible).data ?? [];
  const { create } = useOrganizerMutations();
  const navigate = useNavigate();
  const minDate = useMemo(() => firmDayOrLocal(firmToday), [visible]);
  useEffect(() => { if (visible) { setForm(blank()); setErrors({}); } }, [visible]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (form.clientId === null) found.clientId = 'Client is required';
    if (form.templateId === null) found.templateId = 'Template is required';
    if (!form.dueDate) found.dueDate = 'Due date is required';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const template = templates.find((t) => t.id === form.templateId);
    create.mutate({
      clientId: form.clientId!, templateId: form.templateId!, year: form.year, title: null, message: form.message.trim() || null,
      dueDate: toCalendarDate(form.dueDate!), reminderEveryDays: form.reminderEveryDays, reportTypeId: template?.reportTypeId ?? null, sendNow: form.sendNow,
    }, {
      onSuccess: (created) => {
        showToast({ severity: 'success', summary: 'Organizer Created', detail: form.sendNow ? `${created.title}: ${ORGANIZER_MESSAGES.sent}` : created.title });
        onHide();
        navigate(inCurrentFirm(`/requests/organizers/${created.id}`));
      },
      onError: (err) => setErrors({ form: serverMessage(err) ?? 'Failed to create the organizer' }),
    });
  };

  return (
    <CreateEditDialog visible={visible} editing={false} noun="Organizer" createHeader="Send organizer" formId={FORM_ID} pending={create.isPending} onClose={onHide}>
      <form id={FORM_ID} className="request-form" onSubmit={submit} noValidate>
        {errors.form && <p className="request-form__error" role="alert">{errors.form}</p>}
        <div className="request-form__row">
          <FormField label="Client *" htmlFor="organizer-client" error={errors.clientId}>
            <Dropdown inputId="organizer-client" value={form.clientId} filter placeholder="Select a client"
              options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => set('clientId', e.value ?? null)} />
          </FormField>
          <FormField label="Template *" htmlFor="organizer-template" error={errors.templateId}>
            <Dropdown inputId="organizer-template" value={form.templateId} placeholder="Select a template"
              options={templates.map((t) => ({ label: t.name, value: t.id }))} onChange={(e) => set('templateId', e.value ?? null)} />
          </FormField>
        </div>
        <div className="request-form__row">
          <FormField label="Year *" htmlFor="organizer-year" hint="The tax year the answers are for">
            <InputNumber inputId="organizer-year" value={form.year} min={2000} max={2100} useGrouping={false} showButtons
              onValueChange={(e) => set('year', e.value ?? form.year)} />
          </FormField>
          <FormField label="Due Date *" htmlFor="organizer-due" error={errors.dueDate}>
            <Calendar inputId="organizer-due" value={form.dueDate} minDate={minDate} showIcon onChange={(e) => set('dueDate', (e.value as Date | null) ?? null)} />
          </FormField>
        </div>
        <FormField label="Remind every (days)" htmlFor="organizer-cadence">
          <InputNumber inputId="organizer-cadence" value={form.reminderEveryDays} min={1} max={30} showButtons
            onValueChange={(e) => set('reminderEveryDays', e.value ?? ORGANIZER_DEFAULTS.reminderEveryDays)} />
        </FormField>
        <FormField label="Message" htmlFor="organizer-message">
          <InputTextarea id="organizer-message" rows={2} value={form.message} onChange={(e) => set('message', e.target.value)} />
        </FormField>
        <span className="request-form__check">
          <Checkbox inputId="organizer-send-now" checked={form.sendNow} onChange={(e) => set('sendNow', !!e.checked)} />
          <label htmlFor="organizer-send-now">Send now (notify the client&apos;s users)</label>
        </span>
      </form>
    </CreateEditDialog>
  );
}
