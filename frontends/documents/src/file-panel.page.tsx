import { useState } from 'react';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import type { FileType, PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { ClientPicker } from './client-picker.tsx';
import { DateRangeFields, type DateRange } from './date-range-fields.tsx';
import { useClients } from './documents.queries.ts';
import { dateRangeQuery, emptyFilesMessage, PANEL_FILE_TYPES } from './file-filters.ts';
import { canDeleteFiles } from './file-permissions.ts';
import { FileNameCell } from './file-cells.tsx';
import { FileRowActions } from './file-row-actions.tsx';
import { UploadDialog } from './upload-dialog.tsx';
import { TABLE_DELETE_TEXTS, useDeleteConfirmation } from './use-delete-confirmation.ts';
import { usePagedFiles } from './use-paged-files.ts';

const NO_DATES: DateRange = { start: null, end: null };

/** /file-upload (spec 001 §2: "A separate file panel ..."): reports or company documents with filters. */
export function FilePanelPage() {
  const { state } = useAuth();
  const clients = useClients();
  const [fileType, setFileType] = useState<FileType>('report');
  const [clientId, setClientId] = useState<number | null>(null);
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  const [uploading, setUploading] = useState(false);
  const files = usePagedFiles({ fileType, clientId, ...dateRangeQuery(dates.start, dates.end) });
  const askDelete = useDeleteConfirmation(TABLE_DELETE_TEXTS);
  const mayDelete = state.status === 'authenticated' && canDeleteFiles(state.user);

  const clearFilters = () => {
    setClientId(null);
    setDates(NO_DATES);
  };

  return (
    <section className="documents-page">
      <PageHeading title="File Upload" subtitle="Reports and company documents of your clients" />
      <Card className="documents-filters">
        <div className="files-filters">
          <div className="files-filter">
            <span className="files-filter__label" id="panel-file-type-label">Show</span>
            <SelectButton
              value={fileType}
              options={[...PANEL_FILE_TYPES]}
              onChange={(event) => { if (event.value) setFileType(event.value as FileType); }}
              aria-labelledby="panel-file-type-label"
            />
          </div>
          <div className="files-filter">
            <label htmlFor="panel-client" className="files-filter__label">Client</label>
            <ClientPicker inputId="panel-client" clients={clients.data} value={clientId} onChange={setClientId} loading={clients.isPending} allClients />
          </div>
          <DateRangeFields idPrefix="panel" value={dates} onChange={setDates} />
          <div className="files-filter">
            <Button label="Clear Filters" icon="pi pi-filter-slash" text onClick={clearFilters} />
          </div>
        </div>
      </Card>
      <Card>
        <div className="files-list-heading">
          <h3 className="files-list-heading__title">Uploaded Files</h3>
          <Button label="Upload Files" icon="pi pi-upload" onClick={() => setUploading(true)} />
        </div>
        <DataTable
          {...files.table}
          value={files.rows}
          dataKey="id"
          loading={files.loading}
          emptyMessage={emptyFilesMessage(false)}
          stripedRows
          size="small"
          className="files-table"
        >
          <Column header="File Name" body={(file: PortalFile) => <FileNameCell file={file} />} />
          <Column header="Client Name" body={(file: PortalFile) => file.clientName ?? '—'} />
          {fileType === 'report' && <Column header="Report Type" body={(file: PortalFile) => file.reportTypeName ?? '—'} />}
          <Column header="Upload Date" body={(file: PortalFile) => formatDate(file.uploadedAt)} />
          <Column
            header="Actions"
            headerClassName="files-table__actions"
            body={(file: PortalFile) => <FileRowActions file={file} onDelete={mayDelete ? () => askDelete(file) : undefined} />}
          />
        </DataTable>
      </Card>
      <UploadDialog visible={uploading} onClose={() => setUploading(false)} preset={{ fileType, clientId }} />
      <ConfirmDialog />
    </section>
  );
}
