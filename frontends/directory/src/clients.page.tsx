import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { ENTITY_TYPE_LABELS, type Client } from '@ledgerline/contracts/directory.contracts.ts';
import { TAX_ID_RULES } from '@ledgerline/contracts/tax-ids.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { subdivisionLabel } from '@ledgerline/ui/subdivisions.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { clientDeletionEffects } from './client-deletion.ts';
import { clientFieldTexts, savedFieldRules, useClientFieldSettings } from './client-field-settings.query.ts';
import { ClientFormDialog, type ClientFormTarget } from './client-form-dialog.tsx';
import { clientCalendarSummary } from './client-form.model.ts';
import { ClientRowActions } from './client-row-actions.tsx';
import { emptyClientsMessage, filterClients } from './client-search.ts';
import { clientPath, clientsPath, downloadClientDocuments } from './directory.api.ts';
import { GoogleDriveSetupDialog } from './google-drive-setup-dialog.tsx';
import { copyPortalLink } from './portal-link.ts';
import { useSetupResultReturn } from './use-setup-result-return.ts';

/** "EIN •••••4321, SSN •••••6789": the list shows the last four only (the server sends no more). */
const taxIdsText = (client: Client): string =>
  (client.taxIds ?? []).map((t) => `${TAX_ID_RULES[t.type].label} ${t.masked}`).join(', ');

/** Spec 000 §9: the list is refetched 500 ms after a save. */
const REFRESH_AFTER_SAVE_MS = 500;

/** /clients and /{tenant}/clients (spec 000 §2 "Client Management"). */
export function ClientsPage() {
  const { state } = useAuth();
  useSetupResultReturn();
  const navigate = useNavigate();
  // Spec 000 §6: only the role value 'Admin' (capitalised) may manage clients. A DTA may import
  // them (issue 40), and this page is where they look for it.
  if (state.status !== 'authenticated' || state.user.role !== 'Admin') {
    const importer = state.status === 'authenticated' && state.user.role === 'DTA';
    return (
      <Card className="directory-page">
        <EmptyState icon="pi pi-lock" text="Access denied. Only Admin users can manage clients."
          action={importer && <Button label="Import clients" icon="pi pi-file-import" outlined onClick={() => navigate('import', { relative: 'path' })} />} />
      </Card>
    );
  }
  return <ClientManagement />;
}

function ClientManagement() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const clientsUrl = clientsPath();
  const clients = useQuery<Client[]>({ queryKey: [clientsUrl] });
  const settings = useClientFieldSettings();
  const texts = clientFieldTexts(settings.data);
  const [search, setSearch] = useState('');
  const [formTarget, setFormTarget] = useState<ClientFormTarget | null>(null);
  const [driveClient, setDriveClient] = useState<Client | null>(null);

  const refetchSoon = () => setTimeout(() => void queryClient.invalidateQueries({ queryKey: [clientsUrl] }), REFRESH_AFTER_SAVE_MS);

  const remove = useMutation({
    mutationFn: (client: Client) => apiJson('DELETE', clientPath(client.id)),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: 'Client deleted successfully' });
      await queryClient.invalidateQueries({ queryKey: [clientsUrl] });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to delete client: ${failureReason(error)}` }),
  });

  const askDelete = (client: Client) =>
    confirmDeletion({
      header: 'Delete Client',
      // The spec's sentence, then exactly what the services do on client.deleted.
      message: `Are you sure you want to delete this client? This will also delete all associated files and users. ${clientDeletionEffects(client.name)}`,
      onConfirm: () => remove.mutate(client),
    });

  const rows = filterClients(clients.data ?? [], search);
  return (
    <section className="directory-page">
      <PageHeading
        title="Client Management"
        subtitle="Manage your client companies and their information (Admin Access)"
        actions={(
          <>
            <Button label="Import" icon="pi pi-file-import" outlined onClick={() => navigate('import', { relative: 'path' })} />
            <Button label="Add Client" icon="pi pi-plus" onClick={() => setFormTarget({ mode: 'create' })} />
          </>
        )}
      />
      {clients.isError && <Message severity="error" text={failureReason(clients.error)} className="page-error" />}
      <Card>
        <div className="clients-toolbar">
          <IconField iconPosition="left" className="clients-toolbar__search">
            <InputIcon className="pi pi-search" />
            <InputText
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search clients by name, email, phone, federal ID..."
              aria-label="Search clients"
            />
          </IconField>
          {search && <Button icon="pi pi-times" label="Clear" text onClick={() => setSearch('')} />}
        </div>
        <DataTable
          value={rows}
          dataKey="id"
          loading={clients.isPending}
          emptyMessage={emptyClientsMessage(search)}
          stripedRows
          size="small"
          className="clients-table"
          paginator={rows.length > 25}
          rows={25}
        >
          <Column field="name" header="Client Name" sortable body={(client: Client) => <ClientNameCell client={client} />} />
          <Column field="email" header="Email" sortable className="clients-table__email" />
          <Column header={texts.phoneLabel} body={(client: Client) => client.phone || client.phoneNumber} />
          <Column field="federalId" header={texts.federalIdLabel} />
          <Column header="Tax IDs" body={(client: Client) => taxIdsText(client)} />
          <Column field="employeeCount" header="Employees" className="clients-table__number" />
          <Column field="startDate" header="Start Date" sortable body={(client: Client) => formatDate(client.startDate)} />
          <Column
            header="Actions"
            headerClassName="clients-table__actions"
            body={(client: Client) => (
              <ClientRowActions
                client={client}
                onEdit={() => setFormTarget({ mode: 'edit', client })}
                onGoogleDrive={() => setDriveClient(client)}
                onCopyLink={() => void copyPortalLink(client.id)}
                onDownloadDocuments={() => void downloadClientDocuments(client).catch((error: unknown) =>
                  showToast({ severity: 'error', summary: 'Failed to Download Documents', detail: failureReason(error) }))}
                onDelete={() => askDelete(client)}
              />
            )}
          />
        </DataTable>
      </Card>
      <ClientFormDialog
        target={formTarget}
        rules={savedFieldRules(settings.data)}
        texts={texts}
        onClose={() => setFormTarget(null)}
        onSaved={refetchSoon}
      />
      <GoogleDriveSetupDialog client={driveClient} onClose={() => setDriveClient(null)} />
      <ConfirmDialog />
    </section>
  );
}

function ClientNameCell({ client }: { client: Client }) {
  return (
    <div className="client-name">
      <span className="client-name__text">{client.name}</span>
      <small className="client-name__calendar">{clientCalendarSummary(client, (t) => ENTITY_TYPE_LABELS[t], subdivisionLabel)}</small>
      {client.uploadDestination === 'google_drive' && (
        <Tag
          value={client.googleDriveConfigured ? 'Google Drive' : 'Drive not set up'}
          severity={client.googleDriveConfigured ? 'success' : 'warning'}
          icon="pi pi-google"
          className="client-name__tag"
        />
      )}
    </div>
  );
}
