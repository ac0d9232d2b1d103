import { Button } from 'primereact/button';
import { confirmDialog, ConfirmDialog } from 'primereact/confirmdialog';
import { Dropdown } from 'primereact/dropdown';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TASK_PRIORITIES, TASK_SIDE_CARD_ITEMS, TASK_STATUSES, type Task, type TaskClientStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { TASK_LINK_PARAM } from '@ledgerline/contracts/tasks.constants.ts';
import { ApiError, apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { StatCard } from '@ledgerline/ui/stat-card.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ClientStatusDialog } from './client-status-dialog.tsx';
import { NotificationsPanel } from './notifications-panel.tsx';
import { TaskCalendar } from './task-calendar.tsx';
import { TaskFormDialog } from './task-form-dialog.tsx';
import { TaskTable } from './task-table.tsx';
import { activeFilterCount, clientsNotDoneQuestion, completionRate, dueWithin, PRIORITY_LABELS, STATUS_LABELS } from './task-view.ts';
import { useOverdueTasks, useStaffUsers, useTaskClients, useTaskMutations, useTasks, useTaskStats, type TaskFilters } from './tasks.api.ts';

function SideCard({ title, tasks }: { title: string; tasks: readonly Task[] }) {
  return (
    <section className="task-card">
      <h4>{title}</h4>
      {tasks.length === 0 ? <p className="tasks-empty">No tasks found</p> : (
        <ul className="task-mini-list">{tasks.slice(0, TASK_SIDE_CARD_ITEMS).map((t) => <li key={t.id}>{t.title} <small>{formatDate(t.dueDate)}</small></li>)}</ul>
      )}
    </section>
  );
}

/** The Tasks screen of spec 001 §2. */
export function TasksPage() {
  const [filters, setFilters] = useState<TaskFilters>({});
  const [editing, setEditing] = useState<Task | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [statusTask, setStatusTask] = useState<Task | null>(null);
  const tasks = useTasks(filters);
  const { logout } = useAuth();
  // §8: a signed-out list goes to the sign-in page (the firm's, else /login); other failures say so.
  const signedOut = tasks.error instanceof ApiError && tasks.error.status === 401;
  useEffect(() => { if (signedOut) logout(); }, [signedOut, logout]);
  useFailureToast(tasks, 'Failed to fetch tasks');
  const allTasks = useTasks({});
  // A notification's link (/tasks?task=12) opens that task, once.
  const [search, setSearch] = useSearchParams();
  const linkedTask = Number(search.get(TASK_LINK_PARAM)) || null;
  useEffect(() => {
    if (linkedTask === null || !allTasks.data) return;
    const task = allTasks.data.find((t) => t.id === linkedTask);
    if (task) { setEditing(task); setFormOpen(true); }
    else showToast({ severity: 'warn', summary: 'Task not found', detail: 'That task no longer exists or is not yours to see.' });
    setSearch((params) => { params.delete(TASK_LINK_PARAM); return params; }, { replace: true });
  }, [linkedTask, allTasks.data, setSearch]);
  const stats = useTaskStats().data;
  const overdue = useOverdueTasks().data ?? [];
  const today = useFirmToday();
  const users = useStaffUsers().data ?? [];
  const clients = useTaskClients().data ?? [];
  const { setStatus, remove } = useTaskMutations();
  const setFilter = <K extends keyof TaskFilters>(key: K, value: TaskFilters[K] | null) => setFilters((f) => ({ ...f, [key]: value ?? undefined }));
  const filterCount = activeFilterCount(filters);
  const failed = (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update task' });

  const actions = {
    onEdit: (t: Task) => { setEditing(t); setFormOpen(true); },
    onClientStatus: setStatusTask,
    onToggleComplete: async (t: Task) => {
      const toggle = () => setStatus.mutate({ id: t.id, status: t.status === 'completed' ? 'pending' : 'completed' }, { onError: failed });
      if (t.status === 'completed' || t.clientIds.length === 0) return toggle();
      // Completing a task its clients are not all done with is asked first.
      let question: string | null;
      try {
        question = clientsNotDoneQuestion(await apiJson<TaskClientStatus[]>('GET', apiPath(`tasks/${t.id}/client-statuses`)));
      } catch (err) {
        return failed(err);
      }
      if (!question) return toggle();
      confirmDialog({ header: 'Clients Not Done', message: question, icon: 'pi pi-exclamation-triangle', acceptLabel: 'Mark Complete', rejectLabel: 'Cancel', defaultFocus: 'reject', accept: toggle });
    },
    onDelete: (t: Task) => confirmDialog({
      message: `Are you sure you want to delete "${t.title}"?`, header: 'Delete Task', icon: 'pi pi-exclamation-triangle', acceptClassName: 'p-button-danger',
      accept: () => remove.mutate(t.id, { onError: failed }),
    }),
  };

  return (
    <div className="tasks-page">
      <ConfirmDialog />
      <PageHeading title="Tasks" subtitle="Organize and track your important tasks and deadlines"
        actions={<Button label="New Task" icon="pi pi-plus" onClick={() => { setEditing(null); setFormOpen(true); }} />} />
      <div className="task-stats">
        <StatCard label="Total Tasks" value={stats?.total ?? 0} icon="pi pi-list" />
        <StatCard label="Pending" value={stats?.pending ?? 0} icon="pi pi-clock" />
        <StatCard label="Overdue" value={stats?.overdue ?? 0} icon="pi pi-exclamation-circle" />
        <StatCard label="Completed" value={stats?.completed ?? 0} icon="pi pi-check-circle" />
      </div>
      <div className="task-filters">
        <Dropdown aria-label="Assigned To" placeholder="Assigned To" showClear value={filters.assignedToId ?? null} options={users.map((u) => ({ label: `${u.fullName} (${u.username})`, value: u.id }))} onChange={(e) => setFilter('assignedToId', e.value)} />
        <Dropdown aria-label="Client" placeholder="Client" showClear filter value={filters.clientId ?? null} options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setFilter('clientId', e.value)} />
        <Dropdown aria-label="Status" placeholder="Status" showClear value={filters.status ?? null} options={TASK_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: s }))} onChange={(e) => setFilter('status', e.value)} />
        <Dropdown aria-label="Priority" placeholder="Priority" showClear value={filters.priority ?? null} options={TASK_PRIORITIES.map((p) => ({ label: PRIORITY_LABELS[p], value: p }))} onChange={(e) => setFilter('priority', e.value)} />
        {filterCount > 0 && <span className="task-filters__count" data-testid="filter-count">{filterCount}</span>}
        <Button label="Clear All" text size="small" disabled={filterCount === 0} onClick={() => setFilters({})} />
      </div>
      <PageTabView>
        <TabPanel header="List View">
          <div className="tasks-list-view">
            <div>
              {tasks.isError ? <p className="tasks-error">Error loading tasks. Please try again.</p> : <TaskTable tasks={tasks.data ?? []} actions={actions} today={today} />}
            </div>
            <aside className="tasks-side">
              <SideCard title="Overdue Tasks" tasks={overdue} />
              <SideCard title="Due This Week" tasks={today ? dueWithin(allTasks.data ?? [], 7, today) : []} />
              <section className="task-card">
                <h4>Quick Stats</h4>
                <dl className="task-quick-stats">
                  <dt>Completion Rate</dt><dd>{stats ? completionRate(stats) : 0}%</dd>
                  <dt>In Progress</dt><dd>{stats?.in_progress ?? 0}</dd>
                  <dt>This Month</dt><dd>{stats?.thisMonth ?? 0}</dd>
                </dl>
              </section>
            </aside>
          </div>
        </TabPanel>
        <TabPanel header="Calendar View"><TaskCalendar tasks={allTasks.data ?? []} today={today} /></TabPanel>
        <TabPanel header="Notifications"><NotificationsPanel /></TabPanel>
      </PageTabView>
      <TaskFormDialog task={editing} visible={formOpen} onHide={() => setFormOpen(false)} />
      <ClientStatusDialog task={statusTask} onHide={() => setStatusTask(null)} />
    </div>
  );
}
