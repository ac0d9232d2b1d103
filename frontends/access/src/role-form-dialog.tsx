import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InputText } from 'primereact/inputtext';
import { roleInputSchema, type Role } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { validateForm } from '@ledgerline/ui/form-validation.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { rolesApiPath } from './access.api.ts';

/** Add a role, or rename the one of a table row. */
export type RoleFormTarget = { mode: 'create' } | { mode: 'edit'; role: Role };

const FORM_ID = 'role-form';

export function RoleFormDialog({ target, onClose }: { target: RoleFormTarget | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const shown = useRetained(target);
  const editing = shown?.mode === 'edit' ? shown.role : null;
  const verb = editing ? 'update' : 'create';
  const save = useMutation({
    mutationFn: (body: { name: string }) =>
      editing ? apiJson<Role>('PUT', rolesApiPath(`/${editing.id}`), body) : apiJson<Role>('POST', rolesApiPath(), body),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: `Role ${verb}d successfully` });
      await queryClient.invalidateQueries({ queryKey: [rolesApiPath()] });
      onClose();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to ${verb} role: ${failureReason(error)}` }),
  });

  return (
    <CreateEditDialog visible={target !== null} editing={editing !== null} noun="Role" formId={FORM_ID} pending={save.isPending} onClose={onClose}>
      {shown && <RoleForm key={editing?.id ?? 'new'} initialName={editing?.name ?? ''} onSubmit={(body) => save.mutate(body)} />}
    </CreateEditDialog>
  );
}

function RoleForm({ initialName, onSubmit }: { initialName: string; onSubmit(body: { name: string }): void }) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(roleInputSchema, { name });
    setError(checked.ok ? undefined : checked.errors.name);
    if (checked.ok) onSubmit(checked.data);
  };

  return (
    <form id={FORM_ID} onSubmit={submit} noValidate>
      <FormField label="Role Name" htmlFor="role-name" error={error}>
        <InputText id="role-name" value={name} onChange={(event) => setName(event.target.value)} invalid={Boolean(error)} autoFocus />
      </FormField>
    </form>
  );
}
