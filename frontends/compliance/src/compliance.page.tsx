import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { TabPanel, TabView } from 'primereact/tabview';
import { useState } from 'react';
import type { ComplianceItem, ComplianceSchedule, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ComplianceCalendar } from './compliance-calendar.tsx';
import { STATUS_OPTIONS } from './compliance-view.ts';
import { useClients, useComplianceMutations, useDocumentRequestPushes, useOverdue, useSchedules, useTracker, useUpcoming } from './compliance.api.ts';
import { PresetDialog } from './preset-dialog.tsx';
import { ScheduleCards } from './schedule-cards.tsx';
import { ScheduleFormDialog } from './schedule-form-dialog.tsx';
import { TrackerStatusDialog } from './tracker-status-dialog.tsx';
import { TrackerTable } from './tracker-table.tsx';

function SummaryCard({ label, value, icon, tone }: { label: string; value: number; icon: string; tone: string }) {
  return (
    <div className={`compliance-summary compliance-summary--${tone}`}>
      <i className={icon} aria-hidden="true" />
      <div><span className="compliance-summary__value">{value}</span><span className="compliance-summary__label">{label}</span></div>
    </div>
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
  const [clientId, setClientId] = useState<number | undefined>(undefined);
  const [status, setStatus] = useState<TrackerStatus | undefined>(undefined);
  const [addOpen, setAddOpen] = useState(false);
  const [editingSchedule, setEditingSchedule] = useState<ComplianceSchedule | null>(null);
  const [presetOpen, setPresetOpen] = useState(false);
  const [editing, setEditing] = useState<ComplianceItem | null>(null);
  const [generating, setGenerating] = useState<number | 'all' | null>(null);
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

  const onGenerate = (s: ComplianceSchedule, year: number, from: string | undefined) => {
    setGenerating(s.id);
    // §8: a failed generate has no visible reaction.
    generate.mutate({ scheduleId: s.id, year, from }, {
      onSuccess: (r) => showToast({ severity: 'success', summary: 'Trackers Generated', detail: `${r.created} items created for ${s.reportTypeName} ${year}` }),
      onSettled: () => setGenerating(null),
    });
  };
  const onGenerateAll = (year: number, from: string | undefined) => {
    setGenerating('all');
    generateAll.mutate({ year, clientId, from }, {
      onSuccess: (r) => showToast({ severity: 'success', summary: 'Trackers Generated', detail: `${r.created} items created for ${r.schedules} schedules, ${year}` }),
      onSettled: () => setGenerating(null),
    });
  };
  const onDelete = (s: ComplianceSchedule, deleteItems: 'pending' | 'none') => deleteSchedule.mutate({ id: s.id, deleteItems }, {
    onSuccess: (r) => showToast({ severity: 'success', summary: 'Schedule Deleted', detail: `${s.reportTypeName} · ${r.deletedItems} pending items removed, ${r.keptItems} kept` }),
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: 'Failed to delete the schedule' }),
  });

  return (
    <div className="compliance-page">
      <PageHeading title="Compliance" subtitle={staff ? 'Statutory schedules, deadlines and filing status for your clients' : `Filing deadlines and status for ${ownCompany ?? 'your company'}`}
        actions={staff && (<>
          {canSetUpFirmWork(user) && <Button label="Statutory Calendars" icon="pi pi-globe" outlined onClick={() => setPresetOpen(true)} />}
          <Button label="Add Schedule" icon="pi pi-plus" onClick={() => setAddOpen(true)} />
        </>)} />
      <div className="compliance-filters">
        {staff && <Dropdown aria-label="Client" value={clientId ?? 'all'} filter options={[{ label: 'All Clients', value: 'all' }, ...clients.map((c) => ({ label: c.name, value: c.id }))]}
          onChange={(e) => { setClientId(e.value === 'all' ? undefined : e.value); setTrackerFirst(0); }} />}
        <Dropdown aria-label="Status" value={status ?? 'all'} options={[{ label: 'All', value: 'all' }, ...STATUS_OPTIONS]}
          onChange={(e) => { setStatus(e.value === 'all' ? undefined : e.value); setTrackerFirst(0); }} />
      </div>
      <div className="compliance-summaries">
        <SummaryCard label="Overdue Items" value={overdue.total} icon="pi pi-exclamation-triangle" tone="danger" />
        <SummaryCard label="Upcoming (30 days)" value={upcoming.total} icon="pi pi-clock" tone="warning" />
        {staff && <SummaryCard label="Active Schedules" value={schedules.filter((s) => s.isActive).length} icon="pi pi-calendar" tone="info" />}
      </div>
      <TabView>
        <TabPanel header="Calendar View"><ComplianceCalendar clientId={clientId} status={status} overdue={overdue} upcoming={upcoming} onOpen={staff ? setEditing : null} /></TabPanel>
        <TabPanel header="Compliance Tracker"><TrackerTable page={tracker} first={trackerFirst} onPage={setTrackerFirst} onEdit={staff ? setEditing : null} /></TabPanel>
        {staff && <TabPanel header="Schedules">
          <ScheduleCards schedules={schedules} actions={{ onGenerate, onGenerateAll, onEdit: setEditingSchedule, onDelete, generating }} />
        </TabPanel>}
      </TabView>
      {staff && <ScheduleFormDialog visible={addOpen || editingSchedule !== null} schedule={editingSchedule}
        onHide={() => { setAddOpen(false); setEditingSchedule(null); }} />}
      {staff && <PresetDialog visible={presetOpen} onHide={() => setPresetOpen(false)} />}
      <TrackerStatusDialog item={editing} onHide={() => setEditing(null)} />
    </div>
  );
}
