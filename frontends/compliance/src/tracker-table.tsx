import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import type { ComplianceItem, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { useState } from 'react';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { TRACKER_PAGE_ROWS } from './compliance.api.ts';
import { SignedDocumentChip } from './signed-document-chip.tsx';
import { DocumentRequestChip, RequestDocumentsButton } from './document-request-action.tsx';
import { SendOrganizerButton } from './organizer-action.tsx';
import { RequestSignatureButton } from './signature-request-action.tsx';
import { TrackerBulkBar } from './tracker-bulk-bar.tsx';
import { daysLabel, movedDueNote, STATUS_LABELS, trackerDate } from './compliance-view.ts';
import { ExtendButton } from './extend-action.tsx';

export const STATUS_SEVERITY: Record<TrackerStatus, 'warning' | 'success' | 'danger' | 'info'> = { pending: 'warning', filed: 'success', delayed: 'danger', extended: 'info' };
export const NO_ITEMS = 'No compliance items found. Generate compliance trackers from schedules to start tracking.';

function DaysCell({ item }: { item: ComplianceItem }) {
  const today = useFirmToday();
  if (item.status === 'filed' || !today) return <span className="compliance-muted">—</span>;
  const { text, tone } = daysLabel(item, today);
  return <span className={`compliance-days compliance-days--${tone}`}>{text}</span>;
}

/** The business-day due date, why it moved off the statutory day, and the extended due date. */
export function DueDateCell({ item }: { item: ComplianceItem }) {
  const moved = movedDueNote(item);
  return (
    <div className="compliance-due">
      <span className="compliance-due__date">{trackerDate(item.dueDate)}</span>
      {moved && <small className="compliance-due__reason">{moved}</small>}
      {item.extendedDueDate && <Tag className="compliance-extension" severity="info" value={`Extended to ${trackerDate(item.extendedDueDate)}`} />}
    </div>
  );
}

/**
 * Compliance Tracker tab (spec 001 §2): the Actions column only for those who may change items.
 * A firm's tracker runs to tens of thousands of items, so each page is fetched on its own.
 */
export function TrackerTable({ page, first, onPage, onEdit }: {
  page: { items: readonly ComplianceItem[]; total: number };
  first: number;
  onPage: (first: number) => void;
  onEdit: ((item: ComplianceItem) => void) | null;
}) {
  const [selected, setSelected] = useState<ComplianceItem[]>([]);
  // Those who may change items may change several at once.
  // (DataTable's types tell its selection modes apart by literal; the props are passed whole.)
  const selection: object = onEdit ? { selectionMode: 'checkbox', selection: selected, onSelectionChange: (e: { value: ComplianceItem[] }) => setSelected(e.value) } : {};
  return (
    <>
    {onEdit && <TrackerBulkBar selected={selected} onDone={() => setSelected([])} />}
    {/* Below 768 px each row stacks into a card (compliance.css): client, return, period, due date, status and days all in view. */}
    <DataTable responsiveLayout="stack" breakpoint="767.98px" value={[...page.items]} dataKey="id" emptyMessage={NO_ITEMS} size="small" className="compliance-table" rowClassName={(i: ComplianceItem) => `compliance-row-${i.id}`}
      lazy paginator={page.total > TRACKER_PAGE_ROWS} first={first} rows={TRACKER_PAGE_ROWS} totalRecords={page.total} onPage={(e) => onPage(e.first)} {...selection}>
      {onEdit && <Column selectionMode="multiple" headerStyle={{ width: '2.5rem' }} />}
      <Column header="Client" field="clientName" />
      <Column header="Report Type" field="reportTypeName" />
      <Column header="Period" field="period" />
      <Column header="Due Date" body={(i: ComplianceItem) => <DueDateCell item={i} />} />
      <Column header="Status" body={(i: ComplianceItem) => <Tag value={STATUS_LABELS[i.status]} severity={STATUS_SEVERITY[i.status]} />} />
      <Column header="Days" body={(i: ComplianceItem) => <DaysCell item={i} />} />
      {/* Issue 42: staff read the firm's stage, a Client user the one clients see (the last visible one when it is hidden). */}
      <Column header="Stage" body={(i: ComplianceItem) => i.stageName ?? i.clientStage ?? <span className="compliance-muted">—</span>} />
      <Column header="Assigned To" body={(i: ComplianceItem) => i.assignedToName ?? 'Unassigned'} />
      <Column header="Documents" body={(i: ComplianceItem) => (i.documentRequest || i.signedDocument
        ? <><DocumentRequestChip request={i.documentRequest} /><SignedDocumentChip document={i.signedDocument} /></>
        : <span className="compliance-muted">—</span>)} />
      {onEdit && <Column header="Actions" body={(i: ComplianceItem) => (
        <div className="compliance-actions">
          <Button icon="pi pi-pencil" size="small" text aria-label={`Update ${i.reportTypeName} ${i.period}`} onClick={() => onEdit(i)} />
          <ExtendButton item={i} />
          <RequestDocumentsButton item={i} compact />
          <SendOrganizerButton item={i} compact />
          <RequestSignatureButton item={i} compact />
        </div>
      )} />}
    </DataTable>
    </>
  );
}
