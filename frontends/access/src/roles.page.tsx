import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import type { Role } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { RecordActions } from '@ledgerline/ui/record-actions.tsx';
import { isBuiltInRole, useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { rolesApiPath } from './access.api.ts';
import { RoleFormDialog, type RoleFormTarget } from './role-form-dialog.tsx';

/** /roles and /{tenant}/roles (spec 000 §2 "Roles page"). */
export function RolesPage() {
  const rolesUrl = rolesApiPath();
  const queryClient = useQueryClient();
  const roles = useQuery<Role[] | null>({ queryKey: [rolesUrl] });
  const [formTarget, setFormTarget] = useState<RoleFormTarget | null>(null);
  const canChange = useCanAdministerFirm();

  const remove = useMutation({
    mutationFn: (role: Role) => apiJson('DELETE', rolesApiPath(`/${role.id}`)),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: 'Role deleted successfully' });
      await queryClient.invalidateQueries({ queryKey: [rolesUrl] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to delete role: ${failureReason(error)}` }),
  });

  // Issue 40: whether a role's users may see clients' whole tax IDs (Admin by default).
  const setReveal = useMutation({
    mutationFn: ({ role, revealTaxIds }: { role: Role; revealTaxIds: boolean }) => apiJson<Role>('PUT', rolesApiPath(`/${role.id}`), { name: role.name, revealTaxIds }),
    onSuccess: async (role) => {
      showToast({ severity: 'success', summary: 'Success', detail: `${role.name} ${role.revealTaxIds ? 'may now reveal' : 'may no longer reveal'} whole tax IDs` });
      await queryClient.invalidateQueries({ queryKey: [rolesUrl] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to update role: ${failureReason(error)}` }),
  });

  const askDelete = (role: Role) =>
    confirmDeletion({ header: 'Delete Role', message: `Are you sure you want to delete the role '${role.name}'?`, onConfirm: () => remove.mutate(role) });

  return (
    <section className="access-page">
      <PageHeading
        title="Roles"
        subtitle="Roles group what the firm's users may do"
        actions={canChange && <Button label="Add Role" icon="pi pi-plus" onClick={() => setFormTarget({ mode: 'create' })} />}
      />
      {roles.isError && <Message severity="error" text={failureReason(roles.error)} className="page-error" />}
      <Card>
        <DataTable value={roles.data ?? []} dataKey="id" loading={roles.isPending} emptyMessage="No roles found" stripedRows size="small">
          <Column field="name" header="Name" sortable />
          <Column
            header="Reveals tax IDs"
            body={(role: Role) => (canChange
              ? (
                <Checkbox
                  inputId={`role-reveal-${role.id}`}
                  checked={role.revealTaxIds}
                  aria-label={`${role.name} may reveal whole tax IDs`}
                  disabled={setReveal.isPending}
                  onChange={(event) => setReveal.mutate({ role, revealTaxIds: Boolean(event.checked) })}
                />
              )
              : (role.revealTaxIds ? 'Yes' : 'No'))}
          />
          {/* The server refuses changes by non-Admins and to the built-in Admin and Client roles. */}
          {canChange && (
            <Column
              header="Actions"
              headerClassName="access-page__actions"
              body={(role: Role) =>
                !isBuiltInRole(role.name) && <RecordActions name={role.name} onEdit={() => setFormTarget({ mode: 'edit', role })} onDelete={() => askDelete(role)} />
              }
            />
          )}
        </DataTable>
      </Card>
      <RoleFormDialog target={formTarget} onClose={() => setFormTarget(null)} />
      <ConfirmDialog />
    </section>
  );
}
