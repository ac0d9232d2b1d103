import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { conversationTime } from './message-time.ts';
import { useClientInbox, useMessagingActions, usePeople } from './messaging.api.ts';

/**
 * The Admins' client inbox (issue 40): every conversation a client started with "Message the
 * firm", whom it is with, and whom it is assigned to. Assigning adds that person to it; "Take
 * it" assigns it to the Admin, who can then answer from the conversation list.
 */
export function ClientInboxDialog({ visible, me, onHide, onOpen }: { visible: boolean; me: number; onHide(): void; onOpen(id: number): void }) {
  const inbox = useClientInbox(visible);
  const people = usePeople(visible).data ?? [];
  const { assign } = useMessagingActions();
  const nameOf = (id: number | null) => (id === null ? 'Nobody yet' : people.find((u) => u.id === id)?.fullName || `User ${id}`);
  const give = (id: number, userId: number, then?: () => void) => assign.mutate({ id, userId }, {
    onSuccess: () => { showToast({ severity: 'success', summary: 'Assigned', detail: `Assigned to ${nameOf(userId)}.` }); then?.(); },
    onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to assign the conversation' }),
  });
  return (
    <Dialog header="Client Inbox" visible={visible} onHide={onHide} className="client-inbox-dialog" breakpoints={{ '640px': '95vw' }} style={{ width: '48rem' }}>
      {inbox.isSuccess && inbox.data.length === 0 && <p>No client has written yet.</p>}
      <ul className="client-inbox">
        {(inbox.data ?? []).map((c) => (
          <li key={c.id} className="client-inbox__item">
            <span className="client-inbox__title">{c.title}</span>
            <span className="client-inbox__last">{c.lastMessage}</span>
            <small>With {c.participantNames.join(', ')} · assigned to {nameOf(c.assignedToId)}{c.lastMessageAt ? ` · ${conversationTime(c.lastMessageAt)}` : ''}</small>
            <span className="client-inbox__actions">
              <Dropdown aria-label={`Assign ${c.title}`} placeholder="Assign to…" value={c.assignedToId}
                options={people.filter((u) => (u.id !== me && !c.participantIds.includes(u.id)) || u.id === c.assignedToId).map((u) => ({ label: u.fullName || u.username, value: u.id }))}
                onChange={(e) => give(c.id, e.value as number)} />
              <Button type="button" size="small" label="Take it" onClick={() => give(c.id, me, () => { onOpen(c.id); onHide(); })} />
            </span>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
