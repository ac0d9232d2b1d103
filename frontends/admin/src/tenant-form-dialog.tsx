import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Password } from 'primereact/password';
import type { Company, CompanyInput } from '@ledgerline/contracts/identity.contracts.ts';
import { COMPANIES_QUERY_KEY } from '@ledgerline/ui/companies-query.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import type { FieldErrors } from '@ledgerline/ui/form-validation.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { timeZoneOptions } from '@ledgerline/ui/time-zone-options.ts';
import { ToggleSwitch } from '@ledgerline/ui/toggle-switch.tsx';
import { ADMIN_OVERVIEW_URL } from './admin-analytics.api.ts';
import { createCompany, createFirstAdmin, updateCompany } from './companies.api.ts';
import { checkFirstAdmin, checkTenantForm, COUNTRY_OPTIONS, EMPTY_TENANT_FORM, type FirstAdmin, tenantFormValues, URL_PATTERN_OPTIONS, withCountry, withShortName, type TenantFormValues } from './tenant-form.model.ts';

/** Create a tenant, or edit the one of a card. */
export type TenantFormTarget = { mode: 'create' } | { mode: 'edit'; company: Company };

const FORM_ID = 'tenant-form';

export function TenantFormDialog({ target, onClose }: { target: TenantFormTarget | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const shown = useRetained(target);
  const editing = shown?.mode === 'edit' ? shown.company : null;
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: [ADMIN_OVERVIEW_URL] }),
  ]);
  const save = useMutation({
    mutationFn: ({ input }: { input: CompanyInput; admin: FirstAdmin | null }) => (editing ? updateCompany(editing.id, input) : createCompany(input)),
    onSuccess: async (company, { admin }) => {
      if (editing) {
        showToast({ severity: 'success', summary: 'Tenant Updated Successfully', detail: `${company.name} has been updated.` });
      } else if (!admin) {
        showToast({ severity: 'success', summary: 'Tenant Created Successfully', detail: `${company.name} is available at /${company.shortName}/login. Nobody can sign in to it until it has a user: select it and add an Admin on its Users page.` });
      } else {
        // The firm exists whatever happens next: a refused Admin is said so, not undone.
        try {
          await createFirstAdmin(company, admin);
          showToast({ severity: 'success', summary: 'Tenant Created Successfully', detail: `${company.name} is available at /${company.shortName}/login, where ${admin.username} signs in as its Admin.` });
        } catch (error) {
          showToast({ severity: 'error', summary: 'Tenant Created, Admin Not Created', detail: `${company.name} was created, but its Admin was not: ${failureReason(error)} Select the firm and add an Admin on its Users page.` });
        }
      }
      await refresh();
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
          onSubmit={(input, admin) => save.mutate({ input, admin })}
        />
      )}
    </CreateEditDialog>
  );
}

interface TenantFormProps {
  mode: 'create' | 'edit';
  initial: TenantFormValues;
  onSubmit(input: CompanyInput, admin: FirstAdmin | null): void;
}

function TenantForm({ mode, initial, onSubmit }: TenantFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const zones = useMemo(() => timeZoneOptions(initial.timeZone), [initial.timeZone]);
  const set = <K extends keyof TenantFormValues>(field: K, value: TenantFormValues[K]) => setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTenantForm(values, mode);
    const admin = mode === 'create' ? checkFirstAdmin(values) : { ok: true as const, data: null };
    setErrors({ ...(checked.ok ? {} : checked.errors), ...(admin.ok ? {} : admin.errors) });
    if (checked.ok && admin.ok) onSubmit(checked.data, admin.data);
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
      <div className="tenant-form__row">
        <FormField label="Country" htmlFor="tenant-country" error={errors.country} hint="Sets the firm's date and number format, currency and the statutory calendars offered first.">
          <Dropdown
            inputId="tenant-country"
            value={values.country || null}
            options={[...COUNTRY_OPTIONS]}
            placeholder="Select a country"
            onChange={(event) => setValues((current) => withCountry(current, (event.value as TenantFormValues['country'] | null) ?? ''))}
            invalid={Boolean(errors.country)}
          />
        </FormField>
        <FormField label="Time Zone" htmlFor="tenant-time-zone" error={errors.timeZone} hint="Due, overdue and reminders follow these clocks. Empty: the platform's default.">
          <Dropdown
            inputId="tenant-time-zone"
            value={values.timeZone || null}
            options={zones}
            filter
            showClear
            placeholder="Platform default"
            onChange={(event) => set('timeZone', (event.value as string | null) ?? '')}
            invalid={Boolean(errors.timeZone)}
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
      {mode === 'create' && (
        <fieldset className="tenant-form__admin">
          <legend>First Admin</legend>
          <p className="tenant-form__hint">Who signs in to the firm first and adds its users. Leave empty to add one later from the firm's Users page.</p>
          <div className="tenant-form__row">
            <FormField label="Username" htmlFor="tenant-admin-username" error={errors.adminUsername}>
              <InputText id="tenant-admin-username" autoComplete="off" value={values.adminUsername} onChange={(event) => set('adminUsername', event.target.value)} invalid={Boolean(errors.adminUsername)} />
            </FormField>
            <FormField label="Full Name" htmlFor="tenant-admin-full-name" error={errors.adminFullName}>
              <InputText id="tenant-admin-full-name" value={values.adminFullName} onChange={(event) => set('adminFullName', event.target.value)} invalid={Boolean(errors.adminFullName)} />
            </FormField>
          </div>
          <FormField label="Password" htmlFor="tenant-admin-password" error={errors.adminPassword}>
            <Password inputId="tenant-admin-password" autoComplete="new-password" feedback={false} toggleMask value={values.adminPassword} onChange={(event) => set('adminPassword', event.target.value)} invalid={Boolean(errors.adminPassword)} />
          </FormField>
        </fieldset>
      )}
    </form>
  );
}
