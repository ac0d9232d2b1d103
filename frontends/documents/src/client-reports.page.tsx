import { useState } from 'react';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { SelectButton } from 'primereact/selectbutton';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { ContentSearchField, useContentSearch } from './content-search.tsx';
import { DateRangeFields, type DateRange } from './date-range-fields.tsx';
import { useClientAccess, useClients, useReportTypes } from './documents.queries.ts';
import { FileNameCell } from './file-cells.tsx';
import { dateRangeQuery } from './file-filters.ts';
import { FileRowActions } from './file-row-actions.tsx';
import { usePagedFiles } from './use-paged-files.ts';

const NO_DATES: DateRange = { start: null, end: null };

type ClientDocumentKind = 'report' | 'company_document';
const CLIENT_DOCUMENT_KINDS: readonly { label: string; value: ClientDocumentKind }[] = [
  { label: 'Reports', value: 'report' },
  { label: 'Company Documents', value: 'company_document' },
];

/** Spec 001 §2 "Client reports screen": the subtitle names the client once it is known. */
export function clientReportsSubtitle(clientName: string | null | undefined): string {
  return clientName ? `Reports for ${clientName}` : 'Your company reports';
}

/**
 * The client whose reports are shown: the first of the user's client-access list, and only
 * while it is in that list (spec 001 §2); null means nothing is loaded.
 */
export function reportsClient(accessIds: readonly number[] | null | undefined): number | null {
  return accessIds?.[0] ?? null;
}

/** /client-reports and /{tenant}/client-reports (Client role). */
export function ClientReportsPage() {
  const { state } = useAuth();
  if (state.status !== 'authenticated') return null;
  return <ClientReports user={state.user} />;
}

function ClientReports({ user }: { user: StoredUser }) {
  const access = useClientAccess(user.id);
  const clients = useClients();
  const reportTypes = useReportTypes();
  const [showFilters, setShowFilters] = useState(false);
  const [reportTypeId, setReportTypeId] = useState<number | null>(null);
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  // Client users find their company documents here too, and search both by content.
  const [kind, setKind] = useState<ClientDocumentKind>('report');
  const { input: searchInput, setInput: setSearchInput, search } = useContentSearch();
  const clientId = reportsClient(access.data);
  const clientName = clients.data?.find((client) => client.id === clientId)?.name;
  const files = usePagedFiles(
    { clientId, fileType: kind, reportTypeId: kind === 'report' ? reportTypeId : null, search, ...dateRangeQuery(dates.start, dates.end) },
    { enabled: clientId !== null },
  );
  const resetFilters = () => {
    setReportTypeId(null);
    setDates(NO_DATES);
    setSearchInput('');
  };
  const loading = access.isPending || (clientId !== null && files.query.isPending);

  return (
    <section className="documents-page">
      <PageHeading
        title="Reports"
        subtitle={clientReportsSubtitle(clientName)}
        actions={
          <>
            <Button
              label={showFilters ? 'Hide Filters' : 'Show Filters'}
              icon="pi pi-filter"
              outlined
              aria-expanded={showFilters}
              onClick={() => setShowFilters((shown) => !shown)}
            />
            <Button label="Reset Filters" icon="pi pi-filter-slash" text onClick={resetFilters} />
          </>
        }
      />
      {showFilters && (
        <Card className="documents-filters">
          <div className="files-filters">
            <div className="files-filter">
              <label htmlFor="client-reports-type" className="files-filter__label">Report Type</label>
              <Dropdown
                inputId="client-reports-type"
                value={reportTypeId}
                options={(reportTypes.data ?? []).map((type) => ({ label: type.name, value: type.id }))}
                onChange={(event) => setReportTypeId((event.value as number | undefined) ?? null)}
                placeholder="All Report Types"
                showClear={reportTypeId !== null}
              />
            </div>
            <DateRangeFields idPrefix="client-reports" value={dates} onChange={setDates} />
          </div>
        </Card>
      )}
      <Card className="documents-filters">
        <div className="files-filters">
          <div className="files-filter">
            <span className="files-filter__label" id="client-documents-kind">Documents</span>
            <SelectButton
              aria-labelledby="client-documents-kind"
              value={kind}
              options={[...CLIENT_DOCUMENT_KINDS]}
              allowEmpty={false}
              onChange={(event) => setKind(event.value as ClientDocumentKind)}
            />
          </div>
          <ContentSearchField id="client-reports-search" value={searchInput} onChange={setSearchInput} />
        </div>
      </Card>
      <Card>
        {!loading && files.total === 0 ? (
          search ? (
            <EmptyState icon="pi pi-search" title={`No files match '${search}'`} />
          ) : kind === 'report' ? (
            <EmptyState icon="pi pi-file" title="No reports available" text="Reports will appear here when they are uploaded by your CPA" />
          ) : (
            <EmptyState icon="pi pi-folder" title="No company documents available" text="Company documents will appear here when your firm uploads them" />
          )
        ) : (
          <DataTable {...files.table} value={files.rows} dataKey="id" loading={loading || files.loading} stripedRows size="small" className="files-table table--key-and-actions">
            <Column header="File Name" body={(file: PortalFile) => <FileNameCell file={file} />} />
            {kind === 'report' && <Column header="Report Type" body={(file: PortalFile) => file.reportTypeName ?? '—'} />}
            <Column header="Upload Date" body={(file: PortalFile) => formatDate(file.uploadedAt)} />
            <Column header="Actions" headerClassName="files-table__actions" body={(file: PortalFile) => <FileRowActions file={file} chatFirst />} />
          </DataTable>
        )}
      </Card>
    </section>
  );
}
