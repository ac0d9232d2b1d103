import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import { useEffect, useState } from 'react';
import type { Conversation } from '@ledgerline/contracts/messaging.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { firmActorId, isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { badgeText } from '@ledgerline/ui/notification-bell.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { MessageThread } from './message-thread.tsx';
import { conversationTime } from './message-time.ts';
import { useConversations, useMessagingPushes } from './messaging.api.ts';
import { NewConversationDialog } from './new-conversation-dialog.tsx';
import { MessageFirmDialog } from './message-firm-dialog.tsx';
import { ClientInboxDialog } from './client-inbox-dialog.tsx';

const matches = (c: Conversation, term: string) =>
  [c.title, c.lastMessage ?? '', ...c.participantNames].some((text) => text.toLowerCase().includes(term.toLowerCase()));

function ConversationItem({ conversation, selected, onSelect }: { conversation: Conversation; selected: boolean; onSelect(): void }) {
  const c = conversation;
  return (
    <li>
      <button type="button" className={selected ? 'conversation conversation--selected' : 'conversation'} aria-current={selected ? 'true' : undefined} onClick={onSelect}>
        <span className="conversation__top">
          <span className="conversation__title">{c.title}</span>
          {c.unreadCount > 0 && <span className="conversation__badge" aria-label={`${c.unreadCount} unread`}>{badgeText(c.unreadCount)}</span>}
        </span>
        <span className="conversation__last">{c.lastMessage ?? c.participantNames.join(', ')}</span>
        <time className="conversation__time" dateTime={c.lastMessageAt ?? c.updatedAt}>{conversationTime(c.lastMessageAt ?? c.updatedAt)}</time>
      </button>
    </li>
  );
}

/** The Messages page of spec 001 §2: conversations on the left, the open one on the right. */
export function MessagesPage() {
  const { state } = useAuth();
  const user = state.status === 'authenticated' ? state.user : null;
  const me = user ? firmActorId(user) : 0;
  useMessagingPushes();
  const conversations = useConversations();
  useFailureToast(conversations, 'Failed to fetch conversations');
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [writing, setWriting] = useState(false);
  const [inboxOpen, setInboxOpen] = useState(false);
  const isClient = isClientRole(user?.role);
  const isAdmin = user?.role?.trim().toLowerCase() === 'admin';
  const all = conversations.data ?? [];
  const shown = search.trim() ? all.filter((c) => matches(c, search.trim())) : all;
  // §2: the first conversation is selected when none is.
  useEffect(() => {
    if (selectedId === null && all[0]) setSelectedId(all[0].id);
  }, [selectedId, all]);
  const selected = all.find((c) => c.id === selectedId) ?? null;

  return (
    <div className="messages-page">
      <ConfirmDialog />
      <PageHeading title="Messages" subtitle="Conversations with your team and clients"
        actions={isClient
          // A client writes to the firm; the firm decides who answers (issue 40).
          ? <Button label="Message the Firm" icon="pi pi-send" onClick={() => setWriting(true)} />
          : (
            <span className="messages-page__actions">
              {isAdmin && <Button label="Client Inbox" icon="pi pi-inbox" outlined onClick={() => setInboxOpen(true)} />}
              <Button label="New" icon="pi pi-plus" onClick={() => setCreating(true)} />
            </span>
          )} />
      <div className="messages-layout">
        <aside className="conversations" aria-label="Conversations">
          <IconField iconPosition="left" className="conversations__search">
            <InputIcon className="pi pi-search" />
            <InputText aria-label="Search conversations" placeholder="Search conversations..." value={search} onChange={(e) => setSearch(e.target.value)} />
          </IconField>
          {search.trim() && shown.length === 0 && <p className="conversations__empty">No conversations found matching "{search.trim()}"</p>}
          {!search.trim() && conversations.isSuccess && all.length === 0 && <p className="conversations__empty">No conversations yet</p>}
          <ul className="conversations__list">
            {shown.map((c) => <ConversationItem key={c.id} conversation={c} selected={c.id === selectedId} onSelect={() => setSelectedId(c.id)} />)}
          </ul>
        </aside>
        {selected
          ? <MessageThread key={selected.id} conversation={selected} me={me} />
          : <section className="thread thread--empty"><p>Select a conversation to start messaging</p></section>}
      </div>
      <NewConversationDialog visible={creating} me={me} onHide={() => setCreating(false)} onCreated={(c) => setSelectedId(c.id)} />
      <MessageFirmDialog visible={writing} onHide={() => setWriting(false)} onSent={(c) => setSelectedId(c.id)} />
      {isAdmin && <ClientInboxDialog visible={inboxOpen} me={me} onHide={() => setInboxOpen(false)} onOpen={(id) => setSelectedId(id)} />}
    </div>
  );
}
