import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { useLocation } from 'react-router-dom';
import type { InvitationSent, User } from '@ledgerline/contracts/identity.contracts.ts';
import { Tag } from 'primereact/tag';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { RecordActions } from '@ledgerline/ui/record-actions.tsx';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { canAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { clientCountLabel, usersApiPath } from './access.api.ts';
import { UserFormDialog, type UserFormTarget } from './user-form-dialog.tsx';

/** /users and /{tenant}/users (spec 000 §2 "User Management"). */
export function UsersPage() {
  const { pathname } = useLocation();
  const usersUrl = usersApiPath(pathname);
  const queryClient = useQueryClient();
  const users = useQuery<User[] | null>({ queryKey: [usersUrl] });
  const [formTarget, setFormTarget] = useState<UserFormTarget | null>(null);
  const { state } = useAuth();
  const me = state.status === 'authenticated' ? state.user : null;
  const canChange = canAdministerFirm(me);

  const remove = useMutation({
    mutationFn: (user: User) => apiJson('DELETE', `${usersUrl}/${user.id}`),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: 'User deleted successfully.' });
      await queryClient.invalidateQueries({ queryKey: [usersUrl] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to delete user: ${failureReason(error)}` }),
  });

  const invitation = useMutation({
    mutationFn: ({ user, revoke }: { user: User; revoke: boolean }) => apiJson<InvitationSent | { message: string }>(revoke ? 'DELETE' : 'POST', `${usersUrl}/${user.id}/invite`),
    onSuccess: async (reply, { revoke }) => {
      showToast({ severity: 'success', summary: 'Success', detail: revoke ? 'Invitation revoked.' : `Invitation sent to ${(reply as InvitationSent).sentTo}.` });
      await queryClient.invalidateQueries({ queryKey: [usersUrl] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
  });

  const askDelete = (user: User) =>
    confirmDeletion({ header: 'Delete User', message: 'Are you sure you want to delete this user?', onConfirm: () => remove.mutate(user) });

  return (
    <section className="access-page">
      <PageHeading
        title="User Management"
        subtitle="Manage the people who can sign in to this firm's portal"
        actions={canChange && <Button label="Add User" icon="pi pi-plus" onClick={() => setFormTarget({ mode: 'create' })} />}
      />
      {users.isError && <Message severity="error" text={failureReason(users.error)} className="page-error" />}
      <Card>
        <DataTable value={users.data ?? []} dataKey="id" loading={users.isPending} emptyMessage="No users found" stripedRows size="small">
          <Column field="fullName" header="Full Name" sortable />
          <Column field="username" header="Username" sortable />
          <Column field="roleName" header="Role" sortable />
          <Column header="Client" body={(user: User) => clientCountLabel(user.clientIds)} />
          <Column header="Status" body={(user: User) => <UserStatusTag user={user} />} />
          {canChange && (
            <Column
              header="Actions"
              headerClassName="access-page__actions"
              body={(user: User) => (
                <span className="access-page__row-actions">
                  {user.status !== 'active' && (
                    <Button
                      type="button" text size="small" icon="pi pi-send"
                      label={user.status === 'invited' ? 'Resend' : 'Invite'}
                      aria-label={`${user.status === 'invited' ? 'Resend the invitation to' : 'Invite'} ${user.fullName || user.username}`}
                      disabled={invitation.isPending}
                      onClick={() => invitation.mutate({ user, revoke: false })}
                    />
                  )}
                  {user.status === 'invited' && (
                    <Button
                      type="button" text size="small" severity="secondary" icon="pi pi-times"
                      aria-label={`Revoke the invitation of ${user.fullName || user.username}`}
                      disabled={invitation.isPending}
                      onClick={() => invitation.mutate({ user, revoke: true })}
                    />
                  )}
                <RecordActions
                  name={user.fullName || user.username}
                  onEdit={() => setFormTarget({ mode: 'edit', row: user })}
                  // The server refuses an Admin's deletion of their own account.
                  onDelete={user.id === me?.id && !me.platformAdmin ? undefined : () => askDelete(user)}
                />
                </span>
              )}
            />
          )}
        </DataTable>
      </Card>
      <UserFormDialog target={formTarget} usersUrl={usersUrl} onClose={() => setFormTarget(null)} />
      <ConfirmDialog />
    </section>
  );
}

const STATUS_LABEL = { active: 'Active', invited: 'Invited', disabled: 'No sign-in' } as const;

/** Whether the user can sign in yet; an invited one says since when. */
function UserStatusTag({ user }: { user: User }) {
  const since = user.invitedAt ? ` ${new Date(user.invitedAt).toLocaleDateString()}` : '';
  return (
    <Tag
      value={`${STATUS_LABEL[user.status]}${user.status === 'invited' ? since : ''}`}
      severity={user.status === 'active' ? 'success' : user.status === 'invited' ? 'info' : 'warning'}
    />
  );
}
