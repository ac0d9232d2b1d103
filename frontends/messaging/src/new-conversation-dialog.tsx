import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { useEffect, useState } from 'react';
import { MESSAGING_MESSAGES, type Conversation } from '@ledgerline/contracts/messaging.contracts.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useMessagingActions, usePeople } from './messaging.api.ts';

const FORM_ID = 'new-conversation-form';

/**
 * 'Create New Conversation' (spec 001 §2, §5): a title and the participants. The picker offers
 * only the people the server lets the user add; the user is always a participant and is not
 * offered (nor removable).
 */
export function NewConversationDialog({ visible, me, onHide, onCreated }: { visible: boolean; me: number; onHide(): void; onCreated(c: Conversation): void }) {
  const [title, setTitle] = useState('');
  const [participantIds, setParticipantIds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const people = (usePeople(visible).data ?? []).filter((u) => u.id !== me);
  const { create } = useMessagingActions();
  useEffect(() => { if (visible) { setTitle(''); setParticipantIds([]); setError(null); } }, [visible]);

  const submit = () => {
    if (!title.trim()) { setError(MESSAGING_MESSAGES.titleRequired); return; }
    if (!participantIds.length) { setError(MESSAGING_MESSAGES.participantsRequired); return; }
    create.mutate({ title: title.trim(), participantIds }, {
      onSuccess: (c) => { showToast({ severity: 'success', summary: 'Success', detail: MESSAGING_MESSAGES.created }); onCreated(c); onHide(); },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? MESSAGING_MESSAGES.createFailed }),
    });
  };

  return (
    <Dialog header="Create New Conversation" visible={visible} onHide={onHide} className="conversation-dialog" breakpoints={{ '640px': '95vw' }}
      footer={<FormDialogFooter formId={FORM_ID} submitLabel="Create" pendingLabel="Creating..." pending={create.isPending} onCancel={onHide} />}>
      <form id={FORM_ID} className="conversation-form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <label htmlFor="conversation-title">Title</label>
        <InputText id="conversation-title" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
        <label htmlFor="conversation-participants">Participants</label>
        <MultiSelect inputId="conversation-participants" value={participantIds} onChange={(e) => setParticipantIds(e.value as number[])}
          options={people.map((u) => ({ label: u.fullName || u.username, value: u.id }))} filter display="chip" placeholder="Select participants" />
        {error && <p className="conversation-form__error" role="alert">{error}</p>}
      </form>
    </Dialog>
  );
}
