import { useState } from 'react';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { formatMegabytes } from '@ledgerline/ui/file-size.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { ClientPicker } from './client-picker.tsx';
import { useClients } from './documents.queries.ts';
import { FileNameCell } from './file-cells.tsx';
import { canDeleteFirmDocument } from './file-permissions.ts';
import { FileRowActions } from './file-row-actions.tsx';
import { documentTypeLabel, documentTypeSeverity } from './firm-document.model.ts';
import { UploadDialog } from './upload-dialog.tsx';
import { NO_CLIENT } from './upload-form.model.ts';
import { FIRM_DOCUMENT_DELETE_TEXTS, useDeleteConfirmation } from './use-delete-confirmation.ts';
import { usePagedFiles } from './use-paged-files.ts';

/** /firm-documents and /{tenant}/firm-documents (spec 001 §2 "Firm documents screen"). */
export function FirmDocumentsPage() {
  const { state } = useAuth();
  if (state.status !== 'authenticated') return null;
  return <FirmDocuments user={state.user} />;
}

function FirmDocuments({ user }: { user: StoredUser }) {
  const clients = useClients();
  const [clientId, setClientId] = useState<number | null>(null);
  const [uploading, setUploading] = useState(false);
  // GET /api/files?fileType=firm_document[&clientId] with the spec's `_t` cache buster (spec 001 §7).
  const documents = usePagedFiles({ fileType: 'firm_document', clientId }, { bustCache: true, failureDetail: 'Failed to fetch documents' });
  const askDelete = useDeleteConfirmation(FIRM_DOCUMENT_DELETE_TEXTS);

  return (
    <section className="documents-page">
      <PageHeading
        title="Firm Documents"
        subtitle="Your firm's registration, licences and other official documents"
        actions={<Button label="Upload Document" icon="pi pi-upload" onClick={() => setUploading(true)} />}
      />
      <Card>
        <div className="files-filters">
          <div className="files-filter">
            <label htmlFor="firm-documents-client" className="files-filter__label">Client</label>
            <ClientPicker inputId="firm-documents-client" clients={clients.data} value={clientId} onChange={setClientId} loading={clients.isPending} allClients />
          </div>
        </div>
        <DataTable
          {...documents.table}
          value={documents.rows}
          dataKey="id"
          loading={documents.loading}
          emptyMessage="No firm documents found"
          stripedRows
          size="small"
          className="files-table"
        >
          <Column header="Document Name" body={(file: PortalFile) => <FileNameCell file={file} />} />
          <Column header="Document Type" body={(file: PortalFile) => <DocumentTypeBadge type={file.documentType} />} />
          <Column header="Client" body={(file: PortalFile) => file.clientName ?? '—'} />
          <Column header="Size" className="files-table__number" body={(file: PortalFile) => formatMegabytes(file.size)} />
          <Column header="Uploaded By" body={(file: PortalFile) => file.uploaderName} />
          <Column header="Upload Date" body={(file: PortalFile) => formatDate(file.uploadedAt)} />
          <Column
            header="Actions"
            headerClassName="files-table__actions"
            body={(file: PortalFile) => (
              <FileRowActions file={file} chat={false} onDelete={canDeleteFirmDocument(user, file) ? () => askDelete(file) : undefined} />
            )}
          />
        </DataTable>
      </Card>
      <UploadDialog
        visible={uploading}
        onClose={() => setUploading(false)}
        allowFirmDocument
        preset={{ fileType: 'firm_document', clientId: clientId ?? NO_CLIENT }}
      />
      <ConfirmDialog />
    </section>
  );
}

export function DocumentTypeBadge({ type }: { type: string | null | undefined }) {
  return <Tag value={documentTypeLabel(type)} severity={documentTypeSeverity(type)} className="document-type-badge" />;
}
