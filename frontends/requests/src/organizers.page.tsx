import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { ProgressBar } from 'primereact/progressbar';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ORGANIZER_STATUSES, type OrganizerSummary } from '@ledgerline/contracts/organizers.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { ORGANIZER_PUSH } from '@ledgerline/contracts/organizers.constants.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { answeredPercent, answeredText, ORGANIZER_STATUS_LABELS, ORGANIZER_STATUS_SEVERITY } from './organizer-view.ts';
import { useOrganizers, type OrganizerFilters } from './organizers.api.ts';
import { useRequestClients } from './requests.api.ts';
import { SendOrganizerDialog } from './send-organizer-dialog.tsx';

/** The organizers sent to clients (staff), filtered by client, year and status, with how far each client got. */
export function OrganizersPage() {
  const [filters, setFilters] = useState<OrganizerFilters>({});
  const [sending, setSending] = useState(false);
  const organizers = useOrganizers(filters);
  useFailureToast(organizers, 'Failed to fetch organizers');
  // A client's answers and submissions show as they happen (the requests service pushes each step).
  usePushRefresh(true, ORGANIZER_PUSH, ['organizers']);
  const clients = useRequestClients(true).data ?? [];
  const setFilter = <K extends keyof OrganizerFilters>(key: K, value: OrganizerFilters[K] | null) => setFilters((f) => ({ ...f, [key]: value ?? undefined }));
  const open = (o: OrganizerSummary) => inCurrentFirm(`/requests/organizers/${o.id}`);

  return (
    <div className="requests-page">
      <PageHeading title="Organizers" subtitle="Questionnaires your clients answer for their returns"
        actions={(
          <>
            <Link className="p-button p-button-outlined" to={inCurrentFirm('/requests/organizer-templates')}><i className="pi pi-list p-button-icon-left" aria-hidden="true" /><span className="p-button-label">Templates</span></Link>
            <Button label="Send organizer" icon="pi pi-send" onClick={() => setSending(true)} />
          </>
        )} />
      <div className="request-filters">
        <Dropdown aria-label="Client" placeholder="Client" showClear filter value={filters.clientId ?? null}
          options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setFilter('clientId', e.value)} />
        <InputNumber aria-label="Year" placeholder="Year" value={filters.year ?? null} min={2000} max={2100} useGrouping={false}
          onValueChange={(e) => setFilter('year', e.value ?? null)} />
        <Dropdown aria-label="Status" placeholder="Status" showClear value={filters.status ?? null}
          options={ORGANIZER_STATUSES.map((s) => ({ label: ORGANIZER_STATUS_LABELS[s], value: s }))} onChange={(e) => setFilter('status', e.value)} />
      </div>
      {organizers.isError ? <p className="requests-error">Error loading organizers. Please try again.</p> : (
        <DataTable value={organizers.data ?? []} dataKey="id" loading={organizers.isLoading} emptyMessage="No organizers found" size="small"
          className="request-table table--key-and-actions" rowClassName={(o: OrganizerSummary) => `organizer-row-${o.id}`}>
          <Column header="Organizer" body={(o: OrganizerSummary) => (
            <div><Link className="request-table__title" to={open(o)}>{o.title}</Link><small className="request-table__client">{o.clientName} · {o.year}</small></div>
          )} />
          <Column header="Due Date" body={(o: OrganizerSummary) => formatDate(o.dueDate)} />
          <Column header="Progress" body={(o: OrganizerSummary) => (
            <div className="request-progress request-progress--compact">
              <small>{answeredText(o)}</small>
              <ProgressBar value={answeredPercent(o)} showValue={false} aria-label={answeredText(o)} />
            </div>
          )} />
          <Column header="Status" body={(o: OrganizerSummary) => <Tag value={ORGANIZER_STATUS_LABELS[o.status]} severity={ORGANIZER_STATUS_SEVERITY[o.status]} />} />
          <Column header="Actions" body={(o: OrganizerSummary) => (
            <Link className="p-button p-button-sm p-button-text" to={open(o)} aria-label={`Open ${o.title}`}>Open</Link>
          )} />
        </DataTable>
      )}
      <SendOrganizerDialog visible={sending} onHide={() => setSending(false)} />
    </div>
  );
}
