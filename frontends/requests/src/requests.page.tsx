import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { REQUEST_STATUSES, type DocumentRequestSummary } from '@ledgerline/contracts/requests.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { useClientDateCountry } from '@ledgerline/ui/client-date-country.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { toReviewText } from '@ledgerline/ui/document-requests.ts';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { CreateRequestDialog } from './create-request-dialog.tsx';
import { RequestProgress } from './request-progress.tsx';
import { isOverdue, REQUEST_STATUS_LABELS, REQUEST_STATUS_SEVERITY } from './request-view.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { useRequestClients, useRequests, type RequestFilters } from './requests.api.ts';

function DueCell({ request, today, country }: { request: DocumentRequestSummary; today: string | undefined; country: string | undefined }) {
  const overdue = today !== undefined && isOverdue(request, today);
  return <span className={overdue ? 'request-due request-due--overdue' : 'request-due'}>{formatDate(request.dueDate, { country })}{overdue ? ' (Overdue)' : ''}</span>;
}

/**
 * The Requests page: staff see the requests within their reach, with filters and (every
 * staff role may ask for documents) the create dialog; a Client user sees their client's.
 */
export function RequestsPage() {
  const { state } = useAuth();
  const user = state.status === 'authenticated' ? state.user : null;
  const staff = !!user && (user.platformAdmin === true || !isClientRole(user.role));
  const [filters, setFilters] = useState<RequestFilters>({});
  const [creating, setCreating] = useState(false);
  const requests = useRequests(filters);
  usePushRefresh(true, DOCUMENT_REQUEST_PUSH, ['document-requests']);
  useFailureToast(requests, 'Failed to fetch document requests');
  const clients = useRequestClients(staff).data ?? [];
  const today = useFirmToday();
  // A Client user reads due dates as the firm's country writes them (issue 40).
  const country = useClientDateCountry();
  const setFilter = <K extends keyof RequestFilters>(key: K, value: RequestFilters[K] | null) => setFilters((f) => ({ ...f, [key]: value ?? undefined }));

  return (
    <div className="requests-page">
      <PageHeading title="Requests" subtitle={staff ? 'Documents asked of your clients, item by item' : 'Documents your firm has asked you for'}
        actions={staff ? (
          <>
            <Link className="p-button p-button-outlined" to={inCurrentFirm('/requests/organizers')}><i className="pi pi-list-check p-button-icon-left" aria-hidden="true" /><span className="p-button-label">Organizers</span></Link>
            <Link className="p-button p-button-outlined" to={inCurrentFirm('/requests/templates')}><i className="pi pi-list p-button-icon-left" aria-hidden="true" /><span className="p-button-label">Templates</span></Link>
            <Button label="New Request" icon="pi pi-plus" onClick={() => setCreating(true)} />
          </>
        ) : undefined} />
      <div className="request-filters">
        {staff && (
          <Dropdown aria-label="Client" placeholder="Client" showClear filter value={filters.clientId ?? null}
            options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setFilter('clientId', e.value)} />
        )}
        <Dropdown aria-label="Status" placeholder="Status" showClear value={filters.status ?? null}
          options={REQUEST_STATUSES.map((s) => ({ label: REQUEST_STATUS_LABELS[s], value: s }))} onChange={(e) => setFilter('status', e.value)} />
        <span className="request-filters__check">
          <Checkbox inputId="requests-overdue" checked={!!filters.overdue} onChange={(e) => setFilter('overdue', e.checked ? true : null)} />
          <label htmlFor="requests-overdue">Overdue only</label>
        </span>
      </div>
      {requests.isError ? <p className="requests-error">Error loading requests. Please try again.</p> : (
        // Keyed by the client's date country: PrimeReact keeps a drawn row's cells when only a
        // column's body function changes, so rows drawn before /info answered would keep the staff format.
        <DataTable key={country ?? 'staff'} value={requests.data ?? []} dataKey="id" loading={requests.isLoading} emptyMessage="No document requests found" size="small"
          className="request-table table--key-and-actions" rowClassName={(r: DocumentRequestSummary) => `request-row-${r.id}`}>
          <Column header="Request" body={(r: DocumentRequestSummary) => (
            <div><Link className="request-table__title" to={inCurrentFirm(`/requests/${r.id}`)}>{r.title}</Link>{staff && <small className="request-table__client">{r.clientName}</small>}</div>
          )} />
          <Column header="Due Date" body={(r: DocumentRequestSummary) => <DueCell request={r} today={today} country={country} />} />
          <Column header="Progress" body={(r: DocumentRequestSummary) => (
            <div>
              <RequestProgress progress={r.progress} compact />
              {staff && r.progress.uploaded > 0 && <Tag className="request-table__review" severity="info" value={toReviewText(r.progress.uploaded)} />}
            </div>
          )} />
          <Column header="Status" body={(r: DocumentRequestSummary) => <Tag value={REQUEST_STATUS_LABELS[r.status]} severity={REQUEST_STATUS_SEVERITY[r.status]} />} />
          <Column header="Last Activity" body={(r: DocumentRequestSummary) => formatDate(r.lastActivityAt, { withTime: true })} />
          <Column header="Actions" body={(r: DocumentRequestSummary) => (
            <Link className="p-button p-button-sm p-button-text" to={inCurrentFirm(`/requests/${r.id}`)} aria-label={`Open ${r.title}`}>Open</Link>
          )} />
        </DataTable>
      )}
      {staff && <CreateRequestDialog visible={creating} onHide={() => setCreating(false)} />}
    </div>
  );
}
