import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState } from 'react';
import { TASK_MESSAGES, TASK_STATUSES, type Task, type TaskClientStatus, type TaskStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { STATUS_LABELS } from './task-view.ts';
import { useClientStatuses, useTaskMutations } from './tasks.api.ts';

function ClientStatusRow({ task, row }: { task: Task; row: TaskClientStatus }) {
  const [status, setStatus] = useState<TaskStatus>(row.status);
  const [comments, setComments] = useState(row.comments ?? '');
  const { setClientStatus } = useTaskMutations();
  useEffect(() => { setStatus(row.status); setComments(row.comments ?? ''); }, [row]);
  const save = () => setClientStatus.mutate({ taskId: task.id, clientId: row.clientId, status, comments }, {
    // §8: 'Status Updated' / 'Client status has been updated successfully.'; 'Error' with the message or 'Failed to update status'.
    onSuccess: () => showToast({ severity: 'success', summary: 'Status Updated', detail: TASK_MESSAGES.statusUpdated }),
    onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update status' }),
  });
  return (
    <li className="client-status" data-client-id={row.clientId}>
      <div className="client-status__head">
        <strong>{row.clientName ?? `Client ${row.clientId}`}</strong>
        {row.updatedByName && <small>Updated by {row.updatedByName} · {formatDate(row.updatedAt, { withTime: true })}</small>}
      </div>
      <Dropdown aria-label={`Status of ${row.clientName ?? row.clientId}`} value={status} options={TASK_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: s }))} onChange={(e) => setStatus(e.value)} />
      <InputTextarea aria-label={`Comments for ${row.clientName ?? row.clientId}`} rows={2} value={comments} placeholder="Comments" onChange={(e) => setComments(e.target.value)} />
      <Button label="Update" size="small" loading={setClientStatus.isPending} onClick={save} />
    </li>
  );
}

/** The per-task 'Update Client Status' dialog (spec 001 §2): one row per client of the task. */
export function ClientStatusDialog({ task, onHide }: { task: Task | null; onHide(): void }) {
  const statuses = useClientStatuses(task?.id ?? null);
  useFailureToast(statuses, 'Failed to fetch client statuses');
  return (
    <Dialog header="Update Client Status" visible={task !== null} onHide={onHide} style={{ width: 'min(36rem, 95vw)' }}>
      {task && <p className="client-status__task">{task.title}</p>}
      {statuses.data && statuses.data.length === 0 && <p className="tasks-empty">No clients assigned to this task</p>}
      <ul className="client-status-list">{task && statuses.data?.map((row) => <ClientStatusRow key={row.id} task={task} row={row} />)}</ul>
    </Dialog>
  );
}
