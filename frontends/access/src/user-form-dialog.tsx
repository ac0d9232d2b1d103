import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { Password } from 'primereact/password';
import { ProgressSpinner } from 'primereact/progressspinner';
import type { Role, User, UserInput, UserUpdate } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import type { FieldErrors } from '@ledgerline/ui/form-validation.ts';
import { getOptional } from '@ledgerline/ui/optional-query.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { clientsApiPath, reportTypesApiPath, rolesApiPath } from './access.api.ts';
import { checkUserForm, EMPTY_USER_FORM, userFormValues, type UserFormValues } from './user-form.model.ts';

/** Add a user, or edit the one of a table row. */
export type UserFormTarget = { mode: 'create' } | { mode: 'edit'; row: User };

export interface UserFormDialogProps {
  target: UserFormTarget | null;
  /** The users collection URL of the page (see usersApiPath). */
  usersUrl: string;
  onClose(): void;
}

interface NamedItem {
  id: number;
  name: string;
}

const FORM_ID = 'user-form';

export function UserFormDialog({ target, usersUrl, onClose }: UserFormDialogProps) {
  const queryClient = useQueryClient();
  const shown = useRetained(target);
  const editing = shown?.mode === 'edit' ? shown.row : null;
  const save = useMutation({
    mutationFn: (body: UserInput | UserUpdate) =>
      editing ? apiJson<User>('PUT', `${usersUrl}/${editing.id}`, body) : apiJson<User>('POST', usersUrl, body),
    onSuccess: async (_user, body) => {
      const invited = !editing && 'invite' in body && body.invite;
      showToast({ severity: 'success', summary: 'Success', detail: editing ? 'User updated successfully.' : invited ? 'User created; the invitation is on its way.' : 'User created successfully.' });
      await queryClient.invalidateQueries({ queryKey: [usersUrl] });
      onClose();
    },
    onError: (error) => {
      showToast({ severity: 'error', summary: 'Error', detail: serverMessage(error) ?? (editing ? 'Failed to update user' : 'Failed to create user') });
    },
  });

  return (
    <CreateEditDialog visible={target !== null} editing={editing !== null} noun="User" formId={FORM_ID} pending={save.isPending} onClose={onClose}>
      {shown && (
        <UserFormLoader key={editing?.id ?? 'new'} row={editing} usersUrl={usersUrl} onSubmit={(body) => save.mutate(body)} />
      )}
    </CreateEditDialog>
  );
}

/** Loads the user's details for editing; when that fails the form opens with the row (spec 000 §2). */
function UserFormLoader({ row, usersUrl, onSubmit }: { row: User | null; usersUrl: string; onSubmit(body: UserInput | UserUpdate): void }) {
  const detailsUrl = row ? `${usersUrl}/${row.id}` : '';
  const details = useQuery<User | null>({ queryKey: [detailsUrl], enabled: row !== null, staleTime: 0, gcTime: 0 });
  if (!row) return <UserForm initial={EMPTY_USER_FORM} mode="create" onSubmit={onSubmit} />;
  if (details.isPending) return <ProgressSpinner className="form-dialog__spinner" aria-label="Loading" />;
  return <UserForm initial={userFormValues(details.data ?? row)} mode="edit" onSubmit={onSubmit} />;
}

interface UserFormProps {
  initial: UserFormValues;
  mode: 'create' | 'edit';
  onSubmit(body: UserInput | UserUpdate): void;
}

function UserForm({ initial, mode, onSubmit }: UserFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const roles = useQuery<Role[] | null>({ queryKey: [rolesApiPath()] });
  // Clients and report types belong to the directory service; until it answers, the lists are empty.
  const clientsUrl = clientsApiPath();
  const clients = useQuery({ queryKey: [clientsUrl], queryFn: ({ signal }) => getOptional<NamedItem[]>(clientsUrl, signal) });
  const reportTypesUrl = reportTypesApiPath();
  const reportTypes = useQuery({ queryKey: [reportTypesUrl], queryFn: ({ signal }) => getOptional<NamedItem[]>(reportTypesUrl, signal) });

  const set = <K extends keyof UserFormValues>(field: K, value: UserFormValues[K]) => setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkUserForm(values, mode);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) onSubmit(checked.data);
  };

  return (
    <form id={FORM_ID} className="user-form" onSubmit={submit} noValidate>
      <FormField label="Full Name" htmlFor="user-full-name" error={errors.fullName}>
        <InputText id="user-full-name" value={values.fullName} onChange={(event) => set('fullName', event.target.value)} invalid={Boolean(errors.fullName)} />
      </FormField>
      <FormField label="Username" htmlFor="user-username" error={errors.username}>
        <InputText
          id="user-username"
          value={values.username}
          onChange={(event) => set('username', event.target.value)}
          autoComplete="off"
          invalid={Boolean(errors.username)}
        />
      </FormField>
      <FormField label="Email" htmlFor="user-email" error={errors.email} hint="Optional. A Client user may sign in with a code sent here.">
        <InputText id="user-email" type="email" value={values.email} onChange={(event) => set('email', event.target.value)} autoComplete="off" invalid={Boolean(errors.email)} />
      </FormField>
      {mode === 'create' && (
        <div className="user-form__invite">
          <Checkbox inputId="user-invite" checked={values.invite} onChange={(event) => set('invite', Boolean(event.checked))} />
          <label htmlFor="user-invite">Send an invitation by e-mail instead of setting a password</label>
        </div>
      )}
      {!values.invite && <FormField
        label="Password"
        htmlFor="user-password"
        error={errors.password}
        hint={mode === 'edit' ? 'Leave blank to keep the current password.' : undefined}
      >
        <Password
          inputId="user-password"
          value={values.password}
          onChange={(event) => set('password', event.target.value)}
          autoComplete="new-password"
          invalid={Boolean(errors.password)}
          feedback={false}
          toggleMask
        />
      </FormField>}
      <FormField label="Role" htmlFor="user-role" error={errors.roleId}>
        <Dropdown
          inputId="user-role"
          value={values.roleId}
          options={roles.data ?? []}
          optionLabel="name"
          optionValue="id"
          onChange={(event) => set('roleId', event.value as number)}
          placeholder="Select a role"
          loading={roles.isPending}
          invalid={Boolean(errors.roleId)}
        />
      </FormField>
      <FormField label="Clients" htmlFor="user-clients" error={errors.clientIds}>
        <PickList inputId="user-clients" items={clients.data} value={values.clientIds} onChange={(ids) => set('clientIds', ids)} placeholder="Select clients" empty="No clients available" />
      </FormField>
      <FormField label="Report Types" htmlFor="user-report-types" error={errors.reportTypeIds}>
        <PickList
          inputId="user-report-types"
          items={reportTypes.data}
          value={values.reportTypeIds}
          onChange={(ids) => set('reportTypeIds', ids)}
          placeholder="Select report types"
          empty="No report types available"
        />
      </FormField>
    </form>
  );
}

interface PickListProps {
  inputId: string;
  items: NamedItem[] | null | undefined;
  value: number[];
  onChange(ids: number[]): void;
  placeholder: string;
  empty: string;
}

/** Spec 000 §9: pick lists scroll at 10rem and are searchable by name. */
function PickList({ inputId, items, value, onChange, placeholder, empty }: PickListProps) {
  return (
    <MultiSelect
      inputId={inputId}
      value={value}
      options={items ?? []}
      optionLabel="name"
      optionValue="id"
      onChange={(event) => onChange(event.value as number[])}
      placeholder={placeholder}
      filter
      filterBy="name"
      scrollHeight="10rem"
      display="chip"
      emptyMessage={empty}
      emptyFilterMessage={empty}
    />
  );
}
