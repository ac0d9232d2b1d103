import { useMemo, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Calendar } from 'primereact/calendar';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { MultiSelect } from 'primereact/multiselect';
import {
  CLIENT_JURISDICTIONS,
  CLIENT_REGISTRATION_LABELS,
  CLIENT_STATES,
  DEFAULT_FISCAL_YEAR_END,
  clientInputSchema,
  DEFAULT_CLIENT_FIELD_SETTINGS,
  ENTITY_TYPE_LABELS,
  ENTITY_TYPES,
  UPLOAD_DESTINATIONS,
  type Client,
  type ClientFieldSettingsInput,
  type ClientInput,
  type ClientJurisdiction,
  type ClientRegistration,
} from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { useDiscardGuard } from '@ledgerline/ui/discard-guard.tsx';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { useLiveValidation } from '@ledgerline/ui/live-validation.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { subdivisionsOf } from '@ledgerline/ui/subdivisions.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import type { ClientFieldTexts } from './client-field-settings.query.ts';
import {
  clientFormValues, FISCAL_YEAR_END_OPTIONS, fiscalYearEndLabel, JURISDICTION_LABELS, newClientValues, REGISTRATIONS_BY_JURISDICTION,
  UPLOAD_DESTINATION_LABELS, type ClientFormField, type ClientFormValues,
} from './client-form.model.ts';
import { clientPath, clientsPath } from './directory.api.ts';
import { normalisePhone } from './phone-format.ts';
import { ClientTaxIdsField } from './client-tax-ids-field.tsx';
import { newTaxIdsState, savedTaxIdsState, taxIdEntryProblem, type TaxIdsFormState } from './client-tax-ids.model.ts';

/** Add a client, or edit the one of a table row (spec 000 §2: create versus edit by whether a client was supplied). */
export type ClientFormTarget = { mode: 'create' } | { mode: 'edit'; client: Client };

export interface ClientFormDialogProps {
  target: ClientFormTarget | null;
  /** The firm's saved field settings, or null for the fallback rules. */
  rules: ClientFieldSettingsInput | null;
  texts: ClientFieldTexts;
  onClose(): void;
  /** Called after a successful save, before the dialog closes. */
  onSaved(): void;
}

const FORM_ID = 'client-form';
const DESTINATION_OPTIONS = UPLOAD_DESTINATIONS.map((value) => ({ value, label: UPLOAD_DESTINATION_LABELS[value] }));
const JURISDICTION_OPTIONS = CLIENT_JURISDICTIONS.map((value) => ({ value, label: JURISDICTION_LABELS[value] }));
/** What each country calls the subdivision a client is in. */
const STATE_LABEL: Readonly<Record<ClientJurisdiction, string>> = { US: 'State', CA: 'Province or Territory', IN: 'State or Union Territory', UK: 'Country of the UK', AU: 'State or Territory' };
const ENTITY_TYPE_OPTIONS = [{ value: '', label: 'Not specified' }, ...ENTITY_TYPES.map((value) => ({ value, label: ENTITY_TYPE_LABELS[value] }))];

export function ClientFormDialog({ target, rules, texts, onClose, onSaved }: ClientFormDialogProps) {
  const editing = target?.mode === 'edit' ? target.client : null;
  const verb = editing ? 'update' : 'create';
  const save = useMutation({
    mutationFn: (body: ClientInput) => (editing ? apiJson<Client>('PUT', clientPath(editing.id), body) : apiJson<Client>('POST', clientsPath(), body)),
    onSuccess: () => {
      showToast({ severity: 'success', summary: 'Success', detail: `Client ${verb}d successfully` });
      onSaved();
      onClose();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to ${verb} client: ${failureReason(error)}` }),
  });

  const guard = useDiscardGuard(target !== null, onClose);
  return (
    <Dialog
      visible={target !== null}
      onHide={guard.requestClose}
      header={editing ? 'Edit Client' : 'Add New Client'}
      className="client-form-dialog"
      footer={<FormDialogFooter formId={FORM_ID} submitLabel="Save Client" pendingLabel="Saving..." pending={save.isPending} onCancel={guard.requestClose} />}
    >
      <div {...guard.trackInput}>
        {target && (
          <ClientForm
            key={editing?.id ?? 'new'}
            initial={editing ? clientFormValues(editing) : newClientValues()}
            clientId={editing?.id ?? null}
            initialTaxIds={editing ? savedTaxIdsState(editing.taxIds) : newTaxIdsState()}
            rules={rules}
            texts={texts}
            onSubmit={(body) => save.mutate(body)}
          />
        )}
      </div>
      {guard.question}
    </Dialog>
  );
}

interface ClientFormProps {
  initial: ClientFormValues;
  clientId: number | null;
  initialTaxIds: TaxIdsFormState;
  rules: ClientFieldSettingsInput | null;
  texts: ClientFieldTexts;
  onSubmit(body: ClientInput): void;
}

function ClientForm({ initial, clientId, initialTaxIds, rules, texts, onSubmit }: ClientFormProps) {
  const [values, setValues] = useState(initial);
  const [taxIds, setTaxIds] = useState(initialTaxIds);
  const [submitTried, setSubmitTried] = useState(false);
  const schema = useMemo(() => clientInputSchema(rules), [rules]);
  // Masked numbers not revealed are not sent: the API keeps them as they are.
  const checked = useMemo(() => (taxIds.entries ? { ...values, taxIds: taxIds.entries } : values), [values, taxIds.entries]);
  const check = useLiveValidation(schema, checked);
  const { errors } = check;

  const set = <K extends ClientFormField>(field: K, value: ClientFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    check.touch(field);
  };
  // Text fields only complain once the user leaves them, or after a submit attempt.
  const text = (field: 'name' | 'address' | 'phone' | 'federalId' | 'stateId' | 'email') => ({
    id: `client-${field}`,
    value: values[field],
    error: errors[field],
    onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
    onBlur: () => {
      // A phone typed with spaces or a country code is written the firm's way when it can be.
      if (field === 'phone') setValues((current) => ({ ...current, phone: normalisePhone(current.phone, rules?.phoneCountry ?? DEFAULT_CLIENT_FIELD_SETTINGS.phoneCountry) }));
      check.touch(field);
    },
  });

  // Where the client files decides its States and the registrations that mean anything there.
  const jurisdiction: ClientJurisdiction = values.jurisdiction || rules?.phoneCountry || DEFAULT_CLIENT_FIELD_SETTINGS.phoneCountry;
  const stateOptions = subdivisionsOf(jurisdiction).map((d) => ({ value: d.code, label: `${d.name} (${d.code})` }));
  const registrationOptions = REGISTRATIONS_BY_JURISDICTION[jurisdiction].map((value) => ({ value, label: CLIENT_REGISTRATION_LABELS[value] }));
  const setJurisdiction = (next: ClientFormValues['jurisdiction']) => {
    const fits = REGISTRATIONS_BY_JURISDICTION[next || jurisdiction];
    setValues((current) => ({
      ...current,
      jurisdiction: next,
      // A State of another country, and registrations that mean nothing in the new one, go.
      state: CLIENT_STATES[next || jurisdiction].includes(current.state) ? current.state : '',
      registrations: current.registrations && current.registrations.filter((r) => fits.includes(r)),
    }));
    check.touch('jurisdiction');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitTried(true);
    const result = check.submit();
    // The schema checks each number's format; that its type is of the client's country is the service's rule, checked here first too.
    if (taxIds.entries?.some((t) => taxIdEntryProblem(t, jurisdiction))) return;
    if (result.ok) onSubmit(result.data);
  };

  return (
    <form id={FORM_ID} className="client-form" onSubmit={submit} noValidate>
      <TextFormField {...text('name')} label="Client Name" placeholder="Company name" autoFocus />
      <TextFormField {...text('email')} label="Email" type="email" placeholder="contact@company.com" />
      <div className="client-form__wide">
        <TextFormField {...text('address')} label="Address" placeholder="Street, city, postal code" />
      </div>
      <TextFormField {...text('phone')} label={texts.phoneLabel} type="tel" placeholder={texts.phoneExample} hint={`Example: ${texts.phoneExample}`} />
      <TextFormField {...text('federalId')} label={texts.federalIdLabel} placeholder={texts.federalIdExample} hint={`Example: ${texts.federalIdExample}`} upperCase />
      <TextFormField {...text('stateId')} label={texts.stateIdLabel} placeholder={texts.stateIdExample} upperCase />
      <FormField label="Employees" htmlFor="client-employees" error={errors.employeeCount}>
        <InputNumber
          inputId="client-employees"
          value={values.employeeCount}
          onValueChange={(event) => set('employeeCount', event.value ?? null)}
          min={0}
          useGrouping={false}
          invalid={Boolean(errors.employeeCount)}
        />
      </FormField>
      <FormField label="Start Date" htmlFor="client-start-date" error={errors.startDate}>
        <Calendar
          inputId="client-start-date"
          value={parseCalendarDate(values.startDate)}
          onChange={(event) => set('startDate', event.value instanceof Date ? toCalendarDate(event.value) : '')}
          dateFormat="mm/dd/yy"
          showIcon
          invalid={Boolean(errors.startDate)}
        />
      </FormField>
      <FormField label="Upload Destination" htmlFor="client-destination" error={errors.uploadDestination}>
        <Dropdown
          inputId="client-destination"
          value={values.uploadDestination}
          options={DESTINATION_OPTIONS}
          onChange={(event) => set('uploadDestination', event.value as ClientFormValues['uploadDestination'])}
        />
      </FormField>
      <FormField label="Jurisdiction" htmlFor="client-jurisdiction" error={errors.jurisdiction}>
        <Dropdown
          inputId="client-jurisdiction"
          value={values.jurisdiction || null}
          options={JURISDICTION_OPTIONS}
          placeholder="The firm's country"
          onChange={(event) => setJurisdiction(event.value as ClientFormValues['jurisdiction'])}
        />
      </FormField>
      <FormField label="Entity Type" htmlFor="client-entity-type" error={errors.entityType}>
        <Dropdown
          inputId="client-entity-type"
          value={values.entityType}
          options={ENTITY_TYPE_OPTIONS}
          onChange={(event) => set('entityType', event.value as ClientFormValues['entityType'])}
        />
      </FormField>
      <FormField label="Fiscal Year End" htmlFor="client-fiscal-year-end" error={errors.fiscalYearEnd}>
        <Dropdown
          inputId="client-fiscal-year-end"
          value={values.fiscalYearEnd || null}
          options={FISCAL_YEAR_END_OPTIONS}
          placeholder={`Default: ${fiscalYearEndLabel(DEFAULT_FISCAL_YEAR_END[jurisdiction])}`}
          showClear
          onChange={(event) => set('fiscalYearEnd', (event.value as string | undefined) ?? '')}
        />
      </FormField>
      <FormField label={STATE_LABEL[jurisdiction]} htmlFor="client-state" error={errors.state}>
        <Dropdown
          inputId="client-state"
          value={values.state || null}
          options={stateOptions}
          placeholder="Not specified"
          filter
          showClear
          onChange={(event) => set('state', (event.value as string | undefined) ?? '')}
        />
      </FormField>
      <div className="client-form__wide">
        <FormField label="Registrations" htmlFor="client-registrations" error={errors.registrations}>
          <MultiSelect
            inputId="client-registrations"
            value={values.registrations ?? []}
            options={registrationOptions}
            display="chip"
            placeholder={values.registrations === null ? 'Not said (a business gets every entry that needs one)' : 'None'}
            onChange={(event) => set('registrations', event.value as ClientRegistration[])}
          />
        </FormField>
      </div>
      <div className="client-form__wide">
        <ClientTaxIdsField clientId={clientId} jurisdiction={jurisdiction} state={taxIds} onChange={setTaxIds} showAllProblems={submitTried} />
      </div>
    </form>
  );
}
