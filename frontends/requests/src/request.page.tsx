import { Button } from 'primereact/button';
import { confirmDialog, ConfirmDialog } from 'primereact/confirmdialog';
import { Tag } from 'primereact/tag';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { useClientDateCountry } from '@ledgerline/ui/client-date-country.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { AddItemForm } from './add-item-form.tsx';
import { ClientItems } from './client-items.tsx';
import { RequestLinks } from './request-links.tsx';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { RequestProgress } from './request-progress.tsx';
import { isOverdue, receivedProgress, REQUEST_STATUS_LABELS, REQUEST_STATUS_SEVERITY } from './request-view.ts';
import { useRequest, useRequestMutations } from './requests.api.ts';
import { StaffItems } from './staff-item.tsx';

/** Send now, cancel and reopen: staff only. */
function StaffActions({ request }: { request: DocumentRequest }) {
  const { send, update } = useRequestMutations();
  const failed = (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update the request' });
  const setStatus = (status: 'open' | 'cancelled') => update.mutate({ id: request.id, change: { status } }, {
    onSuccess: () => showToast({ severity: 'success', summary: status === 'cancelled' ? 'Request Cancelled' : 'Request Reopened', detail: request.title }),
    onError: failed,
  });
  if (request.status === 'completed') return null;
  if (request.status === 'cancelled') return <Button label="Reopen" icon="pi pi-replay" outlined loading={update.isPending} onClick={() => setStatus('open')} />;
  return (
    <>
      <Button label="Send Now" icon="pi pi-send" loading={send.isPending}
        onClick={() => send.mutate(request.id, { onSuccess: (r) => showToast({ severity: 'success', summary: 'Sent', detail: r.message }), onError: failed })} />
      <Button label="Cancel Request" icon="pi pi-ban" severity="danger" outlined onClick={() => confirmDialog({
        header: 'Cancel Request', message: `Cancel "${request.title}"? Reminders stop and its links no longer open it.`, icon: 'pi pi-exclamation-triangle',
        acceptLabel: 'Cancel Request', rejectLabel: 'Keep It', acceptClassName: 'p-button-danger', defaultFocus: 'reject', accept: () => setStatus('cancelled'),
      })} />
    </>
  );
}

/**
 * A document request: staff review each item (view, download, accept, reject with a reason)
 * and manage its upload links; a Client user sends what is still needed, or says it does not apply.
 */
export function RequestPage() {
  const id = Number(useParams().id) || 0;
  const { state } = useAuth();
  const user = state.status === 'authenticated' ? state.user : null;
  const staff = !!user && (user.platformAdmin === true || !isClientRole(user.role));
  const request = useRequest(id);
  const today = useFirmToday();
  // A Client user reads the due date as the firm's country writes it (issue 40).
  const country = useClientDateCountry();
  usePushRefresh(true, DOCUMENT_REQUEST_PUSH, ['document-requests']);
  const back = <Link to={inCurrentFirm('/requests')} className="request-back"><i className="pi pi-arrow-left" aria-hidden="true" /> All requests</Link>;

  if (request.isError || id === 0) {
    const missing = id === 0 || (request.error instanceof ApiError && request.error.status === 404);
    return (
      <div className="request-page">{back}
        <EmptyState icon="pi pi-inbox" title={missing ? 'Request not found' : 'Error loading the request'}
          text={missing ? 'It does not exist or is not yours to see.' : serverMessage(request.error) ?? 'Please try again.'} />
      </div>
    );
  }
  const r = request.data;
  if (!r) return <div className="request-page">{back}<p>Loading...</p></div>;
  const overdue = today !== undefined && isOverdue(r, today);
  return (
    <div className="request-page">
      <ConfirmDialog />
      {back}
      <header className="request-summary">
        <div className="request-summary__head">
          <div>
            <h2 className="request-summary__title">{r.title}</h2>
            <p className="request-summary__meta">
              {staff && <span>{r.clientName}</span>}
              <span className={overdue ? 'request-due--overdue' : undefined}>Due {formatDate(r.dueDate, { country })}{overdue ? ' (Overdue)' : ''}</span>
              {staff && <span>Reviewer {r.assignedToName}</span>}
              {staff && r.status === 'open' && <span>Reminders every {r.reminderEveryDays} day{r.reminderEveryDays === 1 ? '' : 's'}</span>}
            </p>
          </div>
          <span className="request-summary__status"><Tag value={REQUEST_STATUS_LABELS[r.status]} severity={REQUEST_STATUS_SEVERITY[r.status]} data-testid="request-status" /></span>
        </div>
        {r.message && <p className="request-summary__message">{r.message}</p>}
        {staff ? <RequestProgress progress={r.progress} /> : <RequestProgress progress={receivedProgress(r.items)} verb="in" />}
        {staff && <div className="request-summary__actions"><StaffActions request={r} /></div>}
        {!staff && r.status !== 'open' && (
          <p className="request-panel__hint">{r.status === 'completed' ? 'Everything is in. Thank you!' : 'This request was cancelled: nothing more is needed.'}</p>
        )}
      </header>
      {staff ? (
        <div className="request-layout">
          <div className="request-layout__items">
            <StaffItems request={r} />
            {r.status === 'open' && <AddItemForm request={r} />}
          </div>
          <RequestLinks request={r} />
        </div>
      ) : <ClientItems request={r} />}
    </div>
  );
}
