import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import type { Company, CompanyInput } from '@ledgerline/contracts/identity.contracts.ts';
import { COMPANIES_QUERY_KEY } from '@ledgerline/ui/companies-query.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import type { FieldErrors } from '@ledgerline/ui/form-validation.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { ToggleSwitch } from '@ledgerline/ui/toggle-switch.tsx';
import { ADMIN_OVERVIEW_URL } from './admin-analytics.api.ts';
import { createCompany, updateCompany } from './companies.api.ts';
import { checkTenantForm, EMPTY_TENANT_FORM, tenantFormValues, URL_PATTERN_OPTIONS, withShortName, type TenantFormValues } from './tenant-form.model.ts';

/** Create a tenant, or edit the one of a card. */
export type TenantFormTarget = { mode: 'create' } | { mode: 'edit'; company: Company };

const FORM_ID = 'tenant-form';

export function TenantFormDialog({ target, onClose }: { target: TenantFormTarget | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const shown = useRetained(target);
  const editing = shown?.mode === 'edit' ? shown.company : null;
  const save = useMutation({
    mutationFn: (input: CompanyInput) => (editing ? updateCompany(editing.id, input) : createCompany(input)),
    onSuccess: async (company) => {
      showToast(
        editing
          ? { severity: 'success', summary: 'Tenant Updated Successfully', detail: `${company.name} has been updated.` }
          : { severity: 'success', summary: 'Tenant Created Successfully', detail: `${company.name} is available at /${company.shortName}/login` },
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: [ADMIN_OVERVIEW_URL] }),
      ]);
      onClose();
    },
    onError: (error) =>
      showToast({ severity: 'error', summary: editing ? 'Failed to Update Tenant' : 'Failed to Create Tenant', detail: failureReason(error) }),
  });

  return (
    <CreateEditDialog visible={target !== null} editing={editing !== null} noun="Tenant" createHeader="Create Tenant" formId={FORM_ID} pending={save.isPending} onClose={onClose}>
      {shown && (
        <TenantForm
          key={editing?.id ?? 'new'}
          mode={shown.mode}
          initial={editing ? tenantFormValues(editing) : EMPTY_TENANT_FORM}
          onSubmit={(input) => save.mutate(input)}
        />
      )}
    </CreateEditDialog>
  );
}

interface TenantFormProps {
  mode: 'create' | 'edit';
  initial: TenantFormValues;
  onSubmit(input: CompanyInput): void;
}

function TenantForm({ mode, initial, onSubmit }: TenantFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof TenantFormValues>(field: K, value: TenantFormValues[K]) => setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTenantForm(values);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) onSubmit(checked.data);
  };

  return (
    <form id={FORM_ID} onSubmit={submit} noValidate>
      <FormField label="Company Name" htmlFor="tenant-name" error={errors.name}>
        <InputText id="tenant-name" value={values.name} onChange={(event) => set('name', event.target.value)} invalid={Boolean(errors.name)} autoFocus />
      </FormField>
      <div className="tenant-form__row">
        <FormField label="Short Name" htmlFor="tenant-short-name" error={errors.shortName} hint="Lowercase letters and numbers; used in the portal's address.">
          <InputText
            id="tenant-short-name"
            value={values.shortName}
            onChange={(event) => setValues((current) => withShortName(current, event.target.value, mode))}
            invalid={Boolean(errors.shortName)}
          />
        </FormField>
        <FormField
          label="Schema Name"
          htmlFor="tenant-schema-name"
          error={errors.schemaName}
          hint={mode === 'edit' ? "A tenant's schema never changes." : 'Follows the short name.'}
        >
          <InputText
            id="tenant-schema-name"
            value={values.schemaName}
            onChange={(event) => set('schemaName', event.target.value)}
            invalid={Boolean(errors.schemaName)}
            disabled={mode === 'edit'}
          />
        </FormField>
      </div>
      <FormField label="URL Pattern" htmlFor="tenant-url-pattern" error={errors.urlPattern}>
        <Dropdown
          inputId="tenant-url-pattern"
          value={values.urlPattern}
          options={[...URL_PATTERN_OPTIONS]}
          onChange={(event) => set('urlPattern', event.value as TenantFormValues['urlPattern'])}
        />
      </FormField>
      {values.urlPattern === 'subdomain' && (
        <FormField label="Custom Subdomain" htmlFor="tenant-subdomain" error={errors.customSubdomain}>
          <InputText id="tenant-subdomain" value={values.customSubdomain} onChange={(event) => set('customSubdomain', event.target.value)} />
        </FormField>
      )}
      {values.urlPattern === 'domain' && (
        <FormField label="Custom Domain" htmlFor="tenant-domain" error={errors.customDomain}>
          <InputText id="tenant-domain" value={values.customDomain} onChange={(event) => set('customDomain', event.target.value)} />
        </FormField>
      )}
      <div className="tenant-form__switch">
        <ToggleSwitch inputId="tenant-active" checked={values.isActive} onChange={(event) => set('isActive', Boolean(event.value))} />
        <label htmlFor="tenant-active">{values.isActive ? 'Active' : 'Inactive'}</label>
      </div>
    </form>
  );
}
