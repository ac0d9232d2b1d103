import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { Tag } from 'primereact/tag';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ComplianceItem, ComplianceSchedule, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ComplianceCalendar } from './compliance-calendar.tsx';
import { itemDateRows, STATUS_LABELS, STATUS_OPTIONS, trackerDate } from './compliance-view.ts';
import { useClients, useComplianceMutations, useDocumentRequestPushes, useOverdue, useSchedules, useTracker, useUpcoming } from './compliance.api.ts';
import { GenerationOutcomePanel, type GenerationOutcome } from './generation-outcome.tsx';
import { PresetDialog } from './preset-dialog.tsx';
import { ScheduleCards, type GenerationStart } from './schedule-cards.tsx';
import { ScheduleFormDialog } from './schedule-form-dialog.tsx';
import { StageBoard } from './stage-board.tsx';
import { TrackerStatusDialog } from './tracker-status-dialog.tsx';
import { STATUS_SEVERITY, TrackerTable } from './tracker-table.tsx';

/** Links into the page: ?item=12 opens that tracker item (an insight's period, a notification), ?client=5 filters by a client. */
const ITEM_PARAM = 'item';
const CLIENT_PARAM = 'client';

function SummaryCard({ label, value, icon, tone }: { label: string; value: number; icon: string; tone: string }) {
  return (
    <div className={`compliance-summary compliance-summary--${tone}`}>
      <i className={icon} aria-hidden="true" />
      <div><span className="compliance-summary__value">{value}</span><span className="compliance-summary__label">{label}</span></div>
    </div>
  );
}

/** A Client user's view of one item: what it covers, when it is due and where it stands (they change nothing). */
function TrackerItemDetails({ item, onHide }: { item: ComplianceItem | null; onHide(): void }) {
  const rows: [string, string][] = item ? [
    ['Company', item.clientName],
    ['Report Type', item.reportTypeName],
    ...(item.clientStage ? [['Stage', item.clientStage] as [string, string]] : []),
    ...itemDateRows(item),
    ...(item.filedDate ? [['Filed', trackerDate(item.filedDate.slice(0, 10))] as [string, string]] : []),
    ['Handled By', item.assignedToName ?? 'Your firm'],
    ...(item.remarks ? [['Remarks', item.remarks] as [string, string]] : []),
  ] : [];
  return (
    <Dialog header="Compliance Item" visible={item !== null} onHide={onHide} style={{ width: 'min(30rem, 95vw)' }}
      footer={<Button label="Close" outlined onClick={onHide} />}>
      {item && (
        <div className="compliance-details">
          <Tag value={STATUS_LABELS[item.status]} severity={STATUS_SEVERITY[item.status]} />
          <dl>{rows.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}</dl>
        </div>
      )}
    </Dialog>
  );
}

/**
 * The Compliance screen of spec 001 §2. Staff manage schedules and items within their lists
 * (Admins and DTAs also apply statutory calendars); Client users read their own client's items,
 * so they get neither the schedule actions nor the Schedules tab.
 */
export function CompliancePage() {
  const { state } = useAuth();
  const user = state.status === 'authenticated' ? state.user : null;
  const staff = !!user && (user.platformAdmin === true || !isClientRole(user.role));
  const [search, setSearch] = useSearchParams();
  // Only staff filter by client; a Client user's page is their own client's whatever the link says.
  const [clientId, setClientId] = useState<number | undefined>(() => (staff ? Number(search.get(CLIENT_PARAM)) || undefined : undefined));
  const [status, setStatus] = useState<TrackerStatus | undefined>(undefined);
  const [addOpen, setAddOpen] = useState(false);
  const [editingSchedule, setEditingSchedule] = useState<ComplianceSchedule | null>(null);
  const [presetOpen, setPresetOpen] = useState(false);
  const [editing, setEditing] = useState<ComplianceItem | null>(null);
  const [generating, setGenerating] = useState<number | 'all' | null>(null);
  const [outcome, setOutcome] = useState<GenerationOutcome | null>(null);
  const [trackerFirst, setTrackerFirst] = useState(0);
  const tracker = useTracker({ clientId, status }, trackerFirst);
  useDocumentRequestPushes();
  const overdue = useOverdue(clientId);
  const upcoming = useUpcoming(clientId);
  const schedules = useSchedules(clientId, staff).data;
  const clients = useClients().data;
  const { generate, generateAll, deleteSchedule } = useComplianceMutations();
  // A Client user's page is about their own company: no client filter, and it says so.
  const ownCompany = !staff ? clients[0]?.name : undefined;
  // A link's item opens once it is read (staff: to update it; a Client user: to read it); one out of reach says so.
  const linkedItemId = Number(search.get(ITEM_PARAM)) || null;
  const linkedItem = useQuery<ComplianceItem>({ queryKey: [apiPath(`compliance-tracker/${linkedItemId}`)], enabled: linkedItemId !== null && !!user, retry: false });
  useEffect(() => {
    if (linkedItemId === null || linkedItem.isPending) return;
    if (linkedItem.data) setEditing(linkedItem.data);
    else showToast({ severity: 'warn', summary: 'Item not found', detail: 'That compliance item no longer exists or is not yours to see.' });
    setSearch((params) => { params.delete(ITEM_PARAM); return params; }, { replace: true });
  }, [linkedItemId, linkedItem.isPending, linkedItem.data, setSearch]);

  const onGenerate = (s: ComplianceSchedule, year: number, start: GenerationStart) => {
    setGenerating(s.id);
    // §8: a failed generate has no visible reaction.
    generate.mutate({ scheduleId: s.id, year, ...start }, {
      onSuccess: (r) => {
        showToast({ severity: 'success', summary: 'Trackers Generated', detail: `${r.created} items created for ${s.reportTypeName} ${year}${filedNote(r.createdFiled)}` });
        setOutcome({ title: `${s.clientName} ${s.reportTypeName}, ${year}`, created: r.created, leftOut: r.leftOut ?? [] });
      },
      onSettled: () => setGenerating(null),
    });
  };
  const onGenerateAll = (year: number, start: GenerationStart) => {
    setGenerating('all');
    generateAll.mutate({ year, clientId, ...start }, {
      onSuccess: (r) => {
        showToast({ severity: 'success', summary: 'Trackers Generated', detail: `${r.created} items created for ${r.schedules} schedules, ${year}${filedNote(r.createdFiled)}` });
        setOutcome({ title: `${r.schedules} schedules, ${year}`, created: r.created, leftOut: r.leftOut ?? [] });
      },
      onSettled: () => setGenerating(null),
    });
  };
  const onDelete = (s: ComplianceSchedule, deleteItems: 'pending' | 'none') => deleteSchedule.mutate({ id: s.id, deleteItems }, {
    onSuccess: (r) => showToast({ severity: 'success', summary: 'Schedule Deleted', detail: `${s.reportTypeName} · ${r.deletedItems} pending items removed, ${r.keptItems} kept` }),
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: 'Failed to delete the schedule' }),
  });

  return (
    <div className="compliance-page">
      <PageHeading title={staff || !ownCompany ? 'Compliance' : `Compliance · ${ownCompany}`} subtitle={staff ? 'Statutory schedules, deadlines and filing status for your clients' : `Filing deadlines and status for ${ownCompany ?? 'your company'}`}
        actions={staff && (<>
          {canSetUpFirmWork(user) && <Button label="Statutory Calendars" icon="pi pi-globe" outlined onClick={() => setPresetOpen(true)} />}
          <Button label="Add Schedule" icon="pi pi-plus" onClick={() => setAddOpen(true)} />
        </>)} />
      <div className="compliance-filters">
        {staff && <Dropdown aria-label="Client" value={clientId ?? 'all'} filter options={[{ label: 'All Clients', value: 'all' }, ...clients.map((c) => ({ label: c.name, value: c.id }))]}
          onChange={(e) => {
            setClientId(e.value === 'all' ? undefined : e.value);
            setTrackerFirst(0);
            setSearch((params) => { params.delete(CLIENT_PARAM); return params; }, { replace: true });
          }} />}
        <Dropdown aria-label="Status" value={status ?? 'all'} options={[{ label: 'All', value: 'all' }, ...STATUS_OPTIONS]}
          onChange={(e) => { setStatus(e.value === 'all' ? undefined : e.value); setTrackerFirst(0); }} />
      </div>
      <div className="compliance-summaries">
        <SummaryCard label="Overdue Items" value={overdue.total} icon="pi pi-exclamation-triangle" tone="danger" />
        <SummaryCard label="Upcoming (30 days)" value={upcoming.total} icon="pi pi-clock" tone="warning" />
        {staff && <SummaryCard label="Active Schedules" value={schedules.filter((s) => s.isActive).length} icon="pi pi-calendar" tone="info" />}
      </div>
      <PageTabView>
        <TabPanel header="Calendar View"><ComplianceCalendar clientId={clientId} status={status} overdue={overdue} upcoming={upcoming} onOpen={setEditing} /></TabPanel>
        <TabPanel header="Compliance Tracker"><TrackerTable page={tracker} first={trackerFirst} onPage={setTrackerFirst} onEdit={staff ? setEditing : null} /></TabPanel>
        {staff && <TabPanel header="Board"><StageBoard clientId={clientId} /></TabPanel>}
        {staff && <TabPanel header="Schedules">
          <GenerationOutcomePanel outcome={outcome} onDismiss={() => setOutcome(null)} />
          <ScheduleCards schedules={schedules} actions={{ onGenerate, onGenerateAll, onEdit: setEditingSchedule, onDelete, generating }} />
        </TabPanel>}
      </PageTabView>
      {staff && <ScheduleFormDialog visible={addOpen || editingSchedule !== null} schedule={editingSchedule}
        onHide={() => { setAddOpen(false); setEditingSchedule(null); }} />}
      {staff && <PresetDialog visible={presetOpen} onHide={() => setPresetOpen(false)} />}
      {staff ? <TrackerStatusDialog item={editing} onHide={() => setEditing(null)} /> : <TrackerItemDetails item={editing} onHide={() => setEditing(null)} />}
    </div>
  );
}

/** The toast's note on the earlier periods made as filed, if any. */
function filedNote(createdFiled: number): string {
  return createdFiled ? ` (${createdFiled} earlier periods as filed)` : '';
}
