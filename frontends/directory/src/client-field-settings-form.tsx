import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import {
  clientFieldSettingsInputSchema,
  DEFAULT_CLIENT_FIELD_SETTINGS,
  type ClientFieldSettings,
  type ClientFieldSettingsInput,
  type PhoneCountry,
} from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { useLiveValidation } from '@ledgerline/ui/live-validation.ts';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { formatOf, ID_FORMATS, PHONE_COUNTRY_OPTIONS, settingsFormValues, withIdFormat, withPhoneCountry, type IdField } from './client-field-settings.model.ts';
import { clientFieldSettingsPath } from './directory.api.ts';

type TextKey = Exclude<keyof ClientFieldSettingsInput, 'phoneCountry'>;

/** The Client Fields tab: labels and formats of the three firm-specific client fields. */
export function ClientFieldSettingsForm({ settings }: { settings: ClientFieldSettings }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => settingsFormValues(settings));
  const check = useLiveValidation(clientFieldSettingsInputSchema, values);
  const { errors } = check;
  const canChange = useCanAdministerFirm();

  const save = useMutation({
    // Spec 000 §4: no id yet creates the firm's settings, an id updates them.
    mutationFn: (body: ClientFieldSettingsInput) => apiJson<ClientFieldSettings>(settings.id === null ? 'POST' : 'PUT', clientFieldSettingsPath(), body),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: 'Client field settings saved successfully' });
      await queryClient.invalidateQueries({ queryKey: [clientFieldSettingsPath()] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to save settings: ${serverMessage(error) ?? 'Unknown error'}` }),
  });

  const update = (next: ClientFieldSettingsInput, ...touched: (keyof ClientFieldSettingsInput)[]) => {
    setValues(next);
    for (const field of touched) check.touch(field);
  };
  const text = (key: TextKey, label: string, hint?: string) => (
    <TextFormField
      id={`settings-${key}`}
      label={label}
      hint={hint}
      value={values[key]}
      error={errors[key]}
      onChange={(value) => update({ ...values, [key]: value }, key)}
    />
  );
  const formatPicker = (field: IdField) => (
    <FormField label="Format" htmlFor={`settings-${field}-format`}>
      <Dropdown
        inputId={`settings-${field}-format`}
        value={formatOf(field, values[`${field}Pattern`])}
        options={[...ID_FORMATS[field].options]}
        onChange={(event) => update(withIdFormat(values, field, String(event.value)), `${field}Pattern`, `${field}Example`)}
      />
    </FormField>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = check.submit();
    if (checked.ok) save.mutate(checked.data);
  };

  return (
    <form className="field-settings" onSubmit={submit} noValidate>
      <SettingsSection readOnly={!canChange} icon="pi pi-phone" title="Phone" description="How phone numbers are labelled and which format they must have.">
        {text('phoneLabel', 'Label')}
        <FormField label="Country" htmlFor="settings-phoneCountry" error={errors.phoneCountry}>
          <Dropdown
            inputId="settings-phoneCountry"
            value={values.phoneCountry}
            options={[...PHONE_COUNTRY_OPTIONS]}
            onChange={(event) => update(withPhoneCountry(values, event.value as PhoneCountry), 'phoneCountry', 'phonePattern', 'phoneExample')}
          />
        </FormField>
        {text('phonePattern', 'Pattern', 'A regular expression the whole number must match.')}
        {text('phoneExample', 'Example')}
      </SettingsSection>
      <SettingsSection readOnly={!canChange} icon="pi pi-id-card" title="Federal ID" description="The national tax identifier of a client company.">
        {text('federalIdLabel', 'Label')}
        {formatPicker('federalId')}
        {text('federalIdPattern', 'Pattern', 'Checked after the value is turned to upper case.')}
        {text('federalIdExample', 'Example')}
      </SettingsSection>
      <SettingsSection readOnly={!canChange} icon="pi pi-building" title="State ID" description="The regional or state registration number.">
        {text('stateIdLabel', 'Label')}
        {formatPicker('stateId')}
        {text('stateIdPattern', 'Pattern', 'Checked after the value is turned to upper case.')}
        {text('stateIdExample', 'Example')}
      </SettingsSection>
      {/* Only Admins may save (the server refuses others); everyone else reads the settings. */}
      {canChange && (
        <div className="field-settings__actions">
          <Button type="button" label="Reset to Defaults" icon="pi pi-refresh" outlined onClick={() => update({ ...DEFAULT_CLIENT_FIELD_SETTINGS })} />
          <Button type="submit" label={save.isPending ? 'Saving...' : 'Save Settings'} icon="pi pi-save" loading={save.isPending} />
        </div>
      )}
    </form>
  );
}

function SettingsSection({ readOnly, icon, title, description, children }: { readOnly: boolean; icon: string; title: string; description: string; children: ReactNode }) {
  return (
    <fieldset className="settings-section" disabled={readOnly}>
      <legend className="settings-section__legend">
        <i className={icon} aria-hidden="true" /> {title}
      </legend>
      <p className="settings-section__description">{description}</p>
      <div className="settings-section__fields">{children}</div>
    </fieldset>
  );
}
