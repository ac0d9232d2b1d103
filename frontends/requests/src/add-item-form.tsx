import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRequestMutations } from './requests.api.ts';

/** Staff ask for one more document on an open request, sent or not; the client's users are told. */
export function AddItemForm({ request }: { request: DocumentRequest }) {
  const [title, setTitle] = useState('');
  const [required, setRequired] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const { addItem } = useRequestMutations();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) { setError('Title is required'); return; }
    setError(null);
    addItem.mutate({ id: request.id, item: { title: title.trim(), required } }, {
      onSuccess: () => {
        showToast({ severity: 'success', summary: 'Item Added', detail: `${title.trim()}: the client has been told.` });
        setTitle('');
        setRequired(true);
      },
      onError: (err) => setError(serverMessage(err) ?? 'Failed to add the item'),
    });
  };
  return (
    <form className="request-panel" onSubmit={submit} noValidate aria-labelledby="request-add-item">
      <h3 id="request-add-item">Ask for one more document</h3>
      <div className="request-add-item">
        <InputText aria-label="New item title" placeholder="e.g. Form 1098" value={title} onChange={(e) => setTitle(e.target.value)} invalid={error !== null} />
        <span className="request-form__required">
          <Checkbox inputId="request-add-item-required" checked={required} onChange={(e) => setRequired(!!e.checked)} />
          <label htmlFor="request-add-item-required">Required</label>
        </span>
        <Button type="submit" label="Add Item" icon="pi pi-plus" loading={addItem.isPending} />
      </div>
      {error && <small className="form-field__error" role="alert">{error}</small>}
    </form>
  );
}
