import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { clientProgressLabel, isDueToday, isOverdue, PRIORITY_LABELS, recurrenceLabel, STATUS_LABELS } from './task-view.ts';

export interface TaskActions {
  onEdit(task: Task): void;
  onClientStatus(task: Task): void;
  onToggleComplete(task: Task): void;
  onDelete(task: Task): void;
}

const PRIORITY_SEVERITY = { urgent: 'danger', high: 'warning', medium: 'info', low: 'success' } as const;

/** The due date, marked Overdue or Today once the firm's day is known. */
function DueCell({ task, today }: { task: Task; today: string | undefined }) {
  if (!task.dueDate) return <span>N/A</span>;
  const overdue = today !== undefined && isOverdue(task, today);
  return (
    <span className={overdue ? 'task-due task-due--overdue' : 'task-due'}>
      {formatDate(task.dueDate)}{overdue ? ' (Overdue)' : today !== undefined && isDueToday(task, today) ? ' (Today)' : ''}
    </span>
  );
}

/** The clients' names, how many are done, and the newest comment on one of them. */
function ClientsCell({ task }: { task: Task }) {
  const progress = clientProgressLabel(task);
  const comment = task.latestClientComment;
  return (
    <div className="task-clients">
      <span>{task.clientName ?? '—'}</span>
      {progress && <small className="task-clients__progress">{progress}</small>}
      {comment && (
        <small className="task-clients__comment" title={comment.comments}>
          <i className="pi pi-comment task-clients__icon" aria-hidden="true" />{comment.clientName ? `${comment.clientName}: ` : ''}“{comment.comments}”
        </small>
      )}
    </div>
  );
}

/** The List View's table with the quick actions of spec 001 §4. */
/** `today`: the firm's day (ui/firm-today.ts), undefined until its zone is read. */
export function TaskTable({ tasks, actions, today }: { tasks: readonly Task[]; actions: TaskActions; today: string | undefined }) {
  return (
    // Keyed by the firm's day: PrimeReact keeps a drawn row's cells when only a column's body
    // function changes, so rows drawn before the firm's zone was read would never mark overdue.
    <DataTable key={today ?? 'unread'} value={[...tasks]} dataKey="id" emptyMessage="No tasks found" size="small" className="task-table table--key-and-actions" rowClassName={(t: Task) => `task-row-${t.id}`}>
      <Column header="Task" body={(t: Task) => (<div><div className="task-table__title">{t.title}</div>{recurrenceLabel(t) && <small className="task-table__recurring"><i className="pi pi-replay" aria-hidden="true" /> {recurrenceLabel(t)}</small>}{t.description && <small>{t.description}</small>}</div>)} />
      <Column header="Priority" body={(t: Task) => <Tag value={PRIORITY_LABELS[t.priority]} severity={PRIORITY_SEVERITY[t.priority]} />} />
      <Column header="Status" body={(t: Task) => STATUS_LABELS[t.status]} />
      <Column header="Due Date" body={(t: Task) => <DueCell task={t} today={today} />} />
      <Column header="Assigned To" body={(t: Task) => t.assignedToName ?? 'Unassigned'} />
      <Column header="Clients" body={(t: Task) => <ClientsCell task={t} />} />
      <Column header="Actions" body={(t: Task) => (
        <div className="task-table__actions">
          <Button label={t.status === 'completed' ? 'Mark Pending' : 'Mark Complete'} size="small" text onClick={() => actions.onToggleComplete(t)} />
          <Button icon="pi pi-users" size="small" text aria-label="Update Client Status" tooltip="Update Client Status" onClick={() => actions.onClientStatus(t)} />
          <Button icon="pi pi-pencil" size="small" text aria-label="Edit task" onClick={() => actions.onEdit(t)} />
          <Button icon="pi pi-trash" size="small" text severity="danger" aria-label="Delete task" onClick={() => actions.onDelete(t)} />
        </div>
      )} />
    </DataTable>
  );
}
