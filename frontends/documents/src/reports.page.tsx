import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { useNavigate, useParams } from 'react-router-dom';
import { extractionMessage, type ExtractContentResult, type PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { readSelectedReportType, restoreReportType, saveSelectedReportType } from '@ledgerline/ui/selected-report-type.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ClientPicker } from './client-picker.tsx';
import { ContentSearchField, useContentSearch } from './content-search.tsx';
import { DateRangeFields, type DateRange } from './date-range-fields.tsx';
import { otherTypesMatchNote, readDisplayAllReports, saveDisplayAllReports } from './display-all-reports.ts';
import { extractContentPath, fileListPath } from './documents.api.ts';
import { useClients, useFiles, useReportTypes } from './documents.queries.ts';
import { autoSelectedClient, dateRangeQuery, emptyFilesMessage } from './file-filters.ts';
import { FileNameCell, FileTypeTag } from './file-cells.tsx';
import { cappedMatchesNote } from './file-paging.ts';
import { FileRowActions } from './file-row-actions.tsx';
import { ReportTypeHoldControl } from './payment-hold.tsx';
import { UploadDialog } from './upload-dialog.tsx';
import { REPORT_DELETE_TEXTS, useDeleteConfirmation } from './use-delete-confirmation.ts';
import { usePagedFiles } from './use-paged-files.ts';

/** /cpa-dashboard, /{tenant}/cpa-dashboard and /cpa-dashboard/report/{id} (spec 001 §2 "Files screen"). */
export function ReportsPage() {
  const { state } = useAuth();
  const { id } = useParams();
  if (state.status !== 'authenticated') return null;
  // A new report-type address starts from its own report type.
  return <StaffReports key={id ?? 'all'} routeReportTypeId={id ? Number(id) : null} />;
}

/** What the report-type chips select; `undefined` until the user picks (then the stored choice applies). */
type ReportTypeChoice = number | undefined;

function StaffReports({ routeReportTypeId }: { routeReportTypeId: number | null }) {
  const navigate = useNavigate();
  const clients = useClients();
  const reportTypes = useReportTypes();
  // undefined: not chosen yet, so a single accessible client is chosen for the user.
  const [clientChoice, setClientChoice] = useState<number | null | undefined>(undefined);
  const [reportTypeChoice, setReportTypeChoice] = useState<ReportTypeChoice>(undefined);
  const [displayAll, setDisplayAllState] = useState(readDisplayAllReports);
  const setDisplayAll = (value: boolean) => {
    setDisplayAllState(value);
    saveDisplayAllReports(value);
  };
  const [dates, setDates] = useState<DateRange>({ start: null, end: null });
  const { input: searchInput, setInput: setSearchInput, search } = useContentSearch();
  const [uploading, setUploading] = useState(false);

  const clientId = clientChoice === undefined ? autoSelectedClient(clients.data) : clientChoice;
  const accessibleTypeIds = (reportTypes.data ?? []).map((type) => type.id);
  // The route's report type if the user may use it, else the stored choice, else the first accessible one.
  const reportTypeId = reportTypeChoice ?? restoreReportType([routeReportTypeId, readSelectedReportType()], accessibleTypeIds);
  const filteredType = displayAll ? null : reportTypeId;

  useEffect(() => {
    // Keep the stored choice in line with what is shown (a route's type, or the fallback).
    if (reportTypes.data && reportTypeId !== null) saveSelectedReportType(reportTypeId);
  }, [reportTypes.data, reportTypeId]);

  // The first list waits for the lookups its defaults come from, so it is asked for once.
  const filters = { clientId, search, ...dateRangeQuery(dates.start, dates.end) };
  const files = usePagedFiles({ ...filters, reportTypeId: filteredType }, { enabled: !reportTypes.isPending && !clients.isPending });
  // A search with no match in the highlighted report type: do the other types hold any?
  const searchedTypeEmpty = search !== '' && filteredType !== null && !files.loading && files.total === 0;
  const elsewhere = useFiles(fileListPath({ ...filters, limit: 1 }), { enabled: searchedTypeEmpty });
  const otherTypesMatches = searchedTypeEmpty ? (elsewhere.data?.total ?? 0) : 0;
  // Spec 001 §6: this screen shows Delete on every row (the role rule is the file panel's);
  // the server decides who may really delete, and its refusal is toasted like any failure.
  const askDelete = useDeleteConfirmation(REPORT_DELETE_TEXTS);

  const extract = useMutation({
    mutationFn: () => apiJson<ExtractContentResult>('POST', extractContentPath()),
    onSuccess: (result) => showToast({ severity: 'info', summary: 'Content Extraction', detail: extractionMessage(result?.filesToProcess ?? 0) }),
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to start content extraction: ${failureReason(error)}` }),
  });

  const chooseReportType = (id: number) => {
    setReportTypeChoice(id);
    setDisplayAll(false);
  };
  const reportTypeName = reportTypes.data?.find((type) => type.id === routeReportTypeId)?.name;

  return (
    <section className="documents-page">
      <PageHeading
        title={routeReportTypeId !== null && reportTypeName ? reportTypeName : 'Reports'}
        subtitle="Upload, search and manage your clients' reports and documents"
        actions={
          <>
            <Button label="Back to Dashboard" icon="pi pi-arrow-left" outlined onClick={() => navigate('/')} />
            <Button
              label="Extract Content from Existing Files"
              icon="pi pi-sync"
              severity="secondary"
              outlined
              loading={extract.isPending}
              onClick={() => extract.mutate()}
            />
            <Button label="Upload" icon="pi pi-upload" onClick={() => setUploading(true)} />
          </>
        }
      />
      <Card className="documents-filters">
        <div className="files-filters">
          <ContentSearchField id="files-search" value={searchInput} onChange={setSearchInput} />
          <div className="files-filter">
            <label htmlFor="files-client" className="files-filter__label">Client</label>
            <ClientPicker inputId="files-client" clients={clients.data} value={clientId} onChange={setClientChoice} loading={clients.isPending} placeholder="All Clients" />
          </div>
          <DateRangeFields idPrefix="files" value={dates} onChange={setDates} />
        </div>
        <div className="report-type-chips" role="group" aria-label="Report types">
          {(reportTypes.data ?? []).map((type) => (
            <Button
              key={type.id}
              label={type.name}
              rounded
              size="small"
              outlined={displayAll || type.id !== reportTypeId}
              aria-pressed={!displayAll && type.id === reportTypeId}
              onClick={() => chooseReportType(type.id)}
            />
          ))}
          <div className="report-type-chips__all">
            <Checkbox inputId="files-display-all" checked={displayAll} onChange={(event) => setDisplayAll(Boolean(event.checked))} />
            <label htmlFor="files-display-all">Display All Reports</label>
          </div>
        </div>
        {clientId !== null && filteredType !== null && (
          <ReportTypeHoldControl clientId={clientId} reportTypeId={filteredType}
            reportTypeName={reportTypes.data?.find((type) => type.id === filteredType)?.name ?? 'This report type'} />
        )}
      </Card>
      {otherTypesMatches > 0 && (
        <Message
          severity="info"
          className="page-error"
          content={
            <span className="files-elsewhere">
              {otherTypesMatchNote(otherTypesMatches, search)}
              <Button label="Search all report types" link size="small" onClick={() => setDisplayAll(true)} />
            </span>
          }
        />
      )}
      <Card>
        <DataTable
          {...files.table}
          value={files.rows}
          dataKey="id"
          loading={files.loading}
          emptyMessage={emptyFilesMessage(filteredType !== null, search)}
          stripedRows
          size="small"
          className="files-table table--key-and-actions"
        >
          <Column header="File Name" body={(file: PortalFile) => <FileNameCell file={file} />} />
          <Column header="Client Name" body={(file: PortalFile) => file.clientName ?? '—'} />
          <Column header="Upload Date" body={(file: PortalFile) => formatDate(file.uploadedAt)} />
          <Column header="File Type" body={(file: PortalFile) => <FileTypeTag file={file} />} />
          <Column
            header="Action"
            headerClassName="files-table__actions"
            body={(file: PortalFile) => <FileRowActions file={file} onDelete={() => askDelete(file)} />}
          />
        </DataTable>
        {files.capped && <p className="files-table-note">{cappedMatchesNote(files.total)}</p>}
      </Card>
      <UploadDialog
        visible={uploading}
        onClose={() => setUploading(false)}
        preset={{ fileType: 'report', clientId, reportTypeId }}
      />
      <ConfirmDialog />
    </section>
  );
}
