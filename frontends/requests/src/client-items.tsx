import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { REQUEST_MESSAGES, type DocumentRequest, type RequestItem } from '@ledgerline/contracts/requests.contracts.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ItemFiles } from './item-files.tsx';
import { ItemHeading } from './item-heading.tsx';
import { ItemUpload } from './item-upload.tsx';
import { clientMayAnswer } from './request-view.ts';
import { useRequestMutations } from './requests.api.ts';

/** "This does not apply": the client says why, for optional and required items alike. */
function NotApplicable({ request, item }: { request: DocumentRequest; item: RequestItem }) {
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { decide } = useRequestMutations();
  if (!open) return <Button label="This does not apply" text size="small" onClick={() => setOpen(true)} />;
  const submit = () => {
    if (!comment.trim()) { setError(REQUEST_MESSAGES.notApplicableNeedsComment); return; }
    decide.mutate({ id: request.id, itemId: item.id, decision: { status: 'not_applicable', comment: comment.trim() } }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Marked Not Applicable', detail: item.title }); setOpen(false); setComment(''); },
      onError: (err) => setError(serverMessage(err) ?? 'Failed to save'),
    });
  };
  return (
    <div className="request-item__not-applicable">
      <label htmlFor={`na-${item.id}`}>Why does this not apply? *</label>
      <InputTextarea id={`na-${item.id}`} rows={2} value={comment} onChange={(e) => { setComment(e.target.value); setError(null); }} autoFocus />
      {error && <small className="form-field__error" role="alert">{error}</small>}
      <span className="request-item__actions">
        <Button label="Cancel" text size="small" onClick={() => { setOpen(false); setError(null); }} />
        <Button label="Save" size="small" loading={decide.isPending} onClick={submit} />
      </span>
    </div>
  );
}

/** The client user's items: what is still needed, the reason of a returned item, upload or "does not apply". */
export function ClientItems({ request }: { request: DocumentRequest }) {
  const queryClient = useQueryClient();
  const refresh = () => void invalidateApiResources(queryClient, ['document-requests']);
  const open = request.status === 'open';
  return (
    <ul className="request-items">
      {request.items.map((item) => (
        <li key={item.id} className={`request-item request-item-${item.id}`} aria-label={item.title}>
          <ItemHeading item={item} />
          <ItemFiles files={item.files} />
          {open && clientMayAnswer(item) && (
            <>
              <ItemUpload requestId={request.id} itemId={item.id} itemTitle={item.title} onUploaded={refresh} />
              {item.status !== 'not_applicable' && <NotApplicable request={request} item={item} />}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
