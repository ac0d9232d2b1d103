import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useState } from 'react';
import { MESSAGING_MESSAGES, type Conversation } from '@ledgerline/contracts/messaging.contracts.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useMessagingActions } from './messaging.api.ts';

const FORM_ID = 'message-firm-form';

/** "Message the firm" (issue 40): a Client user writes; the firm decides who answers (the client's team, the Admins' inbox). */
export function MessageFirmDialog({ visible, onHide, onSent }: { visible: boolean; onHide(): void; onSent(c: Conversation): void }) {
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { messageFirm } = useMessagingActions();
  useEffect(() => { if (visible) { setContent(''); setError(null); } }, [visible]);
  const submit = () => {
    if (!content.trim()) { setError(MESSAGING_MESSAGES.contentRequired); return; }
    messageFirm.mutate(content.trim(), {
      onSuccess: (c) => { showToast({ severity: 'success', summary: 'Sent', detail: 'Your message is with your team at the firm.' }); onSent(c); onHide(); },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? MESSAGING_MESSAGES.sendFailed }),
    });
  };
  return (
    <Dialog header="Message the Firm" visible={visible} onHide={onHide} className="conversation-dialog" breakpoints={{ '640px': '95vw' }}
      footer={<FormDialogFooter formId={FORM_ID} submitLabel="Send" pendingLabel="Sending..." pending={messageFirm.isPending} onCancel={onHide} />}>
      <form id={FORM_ID} className="conversation-form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <label htmlFor="message-firm-content">Your message</label>
        <InputTextarea id="message-firm-content" rows={5} value={content} onChange={(e) => setContent(e.target.value)} autoFocus />
        {error && <p className="conversation-form__error" role="alert">{error}</p>}
      </form>
    </Dialog>
  );
}
