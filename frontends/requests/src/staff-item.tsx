import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState } from 'react';
import { REQUEST_MESSAGES, type DocumentRequest, type RequestItem } from '@ledgerline/contracts/requests.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ItemFiles } from './item-files.tsx';
import { ItemHeading } from './item-heading.tsx';
import { staffDecisions } from './request-view.ts';
import { useRequestMutations } from './requests.api.ts';

/** Sending an item back needs a reason, which the client reads beside the item. */
function RejectDialog({ request, item, onHide }: { request: DocumentRequest; item: RequestItem | null; onHide(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { decide } = useRequestMutations();
  const close = () => { setReason(''); setError(null); onHide(); };
  const submit = () => {
    if (!item) return;
    if (!reason.trim()) { setError(REQUEST_MESSAGES.rejectionNeedsComment); return; }
    decide.mutate({ id: request.id, itemId: item.id, decision: { status: 'rejected', comment: reason.trim() } }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Item Returned', detail: `${item.title} went back to the client.` }); close(); },
      onError: (err) => setError(serverMessage(err) ?? 'Failed to return the item'),
    });
  };
  return (
    <Dialog header={`Reject ${item?.title ?? ''}`} visible={item !== null} onHide={close} style={{ width: 'min(32rem, 95vw)' }}
      footer={<div><Button label="Cancel" text onClick={close} /><Button label="Reject Item" severity="danger" loading={decide.isPending} onClick={submit} /></div>}>
      <div className="request-form">
        {error && <p className="request-form__error" role="alert">{error}</p>}
        <label htmlFor="reject-reason">Reason (the client sees it) *</label>
        <InputTextarea id="reject-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
      </div>
    </Dialog>
  );
}

/** Staff review of a request's items: the files to view or download, Accept, and Reject with a reason. */
export function StaffItems({ request }: { request: DocumentRequest }) {
  const [rejecting, setRejecting] = useState<RequestItem | null>(null);
  const { decide } = useRequestMutations();
  const open = request.status === 'open';
  const accept = (item: RequestItem) => decide.mutate({ id: request.id, itemId: item.id, decision: { status: 'accepted', comment: null } }, {
    onSuccess: (r) => showToast({ severity: 'success', summary: 'Item Accepted', detail: r.status === 'completed' ? `${item.title}: the request is complete.` : item.title }),
    onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to accept the item' }),
  });
  return (
    <>
      <ul className="request-items">
        {request.items.map((item) => {
          const may = staffDecisions(item);
          return (
            <li key={item.id} className={`request-item request-item-${item.id}`} aria-label={item.title}>
              <ItemHeading item={item} />
              <ItemFiles files={item.files} />
              {open && item.status === 'requested' && <p className="request-panel__hint">Waiting for the client.</p>}
              {open && (may.accept || may.reject) && (
                <div className="request-item__actions">
                  <Button label="Accept" icon="pi pi-check" size="small" severity="success" onClick={() => accept(item)} disabled={decide.isPending} />
                  <Button label="Reject" icon="pi pi-times" size="small" severity="danger" outlined onClick={() => setRejecting(item)} />
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <RejectDialog request={request} item={rejecting} onHide={() => setRejecting(null)} />
    </>
  );
}
