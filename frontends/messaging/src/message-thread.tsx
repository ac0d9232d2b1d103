import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { Fragment, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { MESSAGING_MESSAGES, type Conversation, type Message } from '@ledgerline/contracts/messaging.contracts.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { AttachFileDialog } from './attach-file-dialog.tsx';
import { dayLabel, messageTime, startsDay } from './message-time.ts';
import { readByOthers, useMessagingActions, useThread, type Attachment } from './messaging.api.ts';

const failed = (fallback: string) => (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? fallback });
const succeeded = (detail: string) => () => showToast({ severity: 'success', summary: 'Success', detail });

/** Enter sends (or saves); Shift+Enter is a new line. */
const onEnter = (action: () => void) => (e: KeyboardEvent<HTMLTextAreaElement>) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); action(); }
};

/** On the sender's own messages: Read once every other participant has read it, else Sent. */
function ReadStatus({ read }: { read: boolean }) {
  return read
    ? <span className="message__status message__status--read"><i className="pi pi-check-circle" aria-hidden="true" /> Read</span>
    : <span className="message__status"><i className="pi pi-check" aria-hidden="true" /> Sent</span>;
}

function MessageItem({ message, own, read, onReply }: { message: Message; own: boolean; read: boolean; onReply(m: Message): void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const { edit, remove } = useMessagingActions();
  const save = () => {
    if (!draft.trim()) return;
    edit.mutate({ id: message.id, content: draft.trim() }, { onSuccess: () => { setEditing(false); succeeded(MESSAGING_MESSAGES.updated)(); }, onError: failed(MESSAGING_MESSAGES.updateFailed) });
  };
  const askDelete = () => confirmDeletion({
    header: 'Delete Message', message: MESSAGING_MESSAGES.deleteConfirm,
    // Not mutate's callbacks: they are dropped when the message (this component) leaves the thread first.
    onConfirm: () => void remove.mutateAsync(message).then(succeeded(MESSAGING_MESSAGES.deleted), failed(MESSAGING_MESSAGES.deleteFailed)),
  });
  return (
    <li className={own ? 'message message--own' : 'message'} data-message-id={message.id}>
      <div className="message__head">
        <strong className="message__sender">{message.senderName}</strong>
        <time dateTime={message.sentAt}>{messageTime(message.sentAt)}</time>
        {message.isEdited && <span className="message__edited">(edited)</span>}
        {own && <ReadStatus read={read} />}
      </div>
      {message.replyToId !== null && (
        <blockquote className="message__quote">
          <span className="message__quote-sender">{message.replyToSender}</span>
          <span>{message.replyToContent ?? MESSAGING_MESSAGES.deletedMessage}</span>
        </blockquote>
      )}
      {editing ? (
        <div className="message__edit">
          <InputTextarea aria-label="Edit message" value={draft} onChange={(e) => setDraft(e.target.value)} onKeyDown={onEnter(save)} autoResize rows={2} autoFocus />
          <div className="message__actions">
            <Button label="Save" size="small" onClick={save} disabled={!draft.trim()} loading={edit.isPending} />
            <Button label="Cancel" size="small" outlined onClick={() => setEditing(false)} />
          </div>
        </div>
      ) : (
        // A file sent alone carries its name as the text: the attachment line below says it.
        (message.fileId === null || message.content !== message.fileName) && <p className="message__content">{message.content}</p>
      )}
      {message.fileId !== null && message.fileName && (
        // Opened through the files service's own checks, like a file anywhere else in the portal.
        <p className="message__file">
          <i className="pi pi-paperclip" aria-hidden="true" /> {message.fileName}
          <FileAccessButton file={{ id: message.fileId, originalName: message.fileName }} kind="view" />
          <FileAccessButton file={{ id: message.fileId, originalName: message.fileName }} kind="download" />
        </p>
      )}
      {!editing && (
        <div className="message__actions">
          {own ? (
            <>
              <Button label="Edit" icon="pi pi-pencil" size="small" text onClick={() => { setDraft(message.content ?? ''); setEditing(true); }} />
              <Button label="Delete" icon="pi pi-trash" size="small" text severity="danger" onClick={askDelete} />
            </>
          ) : (
            <Button label="Reply" icon="pi pi-reply" size="small" text onClick={() => onReply(message)} />
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The open conversation (spec 001 §2, §4, §6): its messages oldest first, edit and delete on
 * the user's own, reply on others'; messages from others are marked read while it is open.
 * Mounted once per conversation (keyed), so a draft or a reply never follows the user to another.
 */
export function MessageThread({ conversation, me }: { conversation: Conversation; me: number }) {
  const { messages, isLoading } = useThread(conversation.id);
  const { send, markRead } = useMessagingActions();
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [picking, setPicking] = useState(false);
  const end = useRef<HTMLLIElement>(null);

  const readUpTo = readByOthers(conversation, me);
  const newest = messages.at(-1);
  useEffect(() => { end.current?.scrollIntoView({ block: 'end' }); }, [newest?.id]);
  // §4: messages from others are read while the conversation is open.
  const newestFromOthers = messages.findLast((m) => m.senderId !== me);
  const markedUpTo = useRef(0);
  useEffect(() => {
    if (!newestFromOthers || newestFromOthers.id <= markedUpTo.current) return;
    markedUpTo.current = newestFromOthers.id;
    markRead.mutate(newestFromOthers.id);
  }, [newestFromOthers, markRead]);

  // A file may go alone: its name is then the message's text (the server wants some).
  const content = text.trim() || attachment?.name || '';
  const submit = () => {
    if (!content) return;
    send.mutate({ conversationId: conversation.id, content, replyToId: replyTo?.id ?? null, file: attachment }, {
      onSuccess: () => { setText(''); setReplyTo(null); setAttachment(null); },
      onError: failed(MESSAGING_MESSAGES.sendFailed),
    });
  };

  return (
    <section className="thread" aria-label={`Conversation ${conversation.title}`}>
      <header className="thread__head">
        <h3>{conversation.title}</h3>
        <p className="thread__people">{conversation.participantNames.join(', ')}</p>
      </header>
      <ul className="thread__messages">
        {isLoading && <li className="thread__empty">Loading...</li>}
        {!isLoading && messages.length === 0 && <li className="thread__empty">No messages yet</li>}
        {messages.map((m, i) => (
          <Fragment key={m.id}>
            {startsDay(m.sentAt, messages[i - 1]?.sentAt) && <li className="thread__day">{dayLabel(m.sentAt)}</li>}
            <MessageItem message={m} own={m.senderId === me} read={m.id <= readUpTo} onReply={setReplyTo} />
          </Fragment>
        ))}
        <li ref={end} aria-hidden="true" />
      </ul>
      <div className="composer">
        {replyTo && (
          <div className="composer__reply">
            <span>Replying to {replyTo.senderName}</span>
            <q>{replyTo.content}</q>
            <Button label="Cancel reply" size="small" text onClick={() => setReplyTo(null)} />
          </div>
        )}
        {attachment && (
          <div className="composer__attachment">
            <i className="pi pi-paperclip" aria-hidden="true" /> <span>{attachment.name}</span>
            <Button icon="pi pi-times" aria-label="Remove attachment" size="small" text rounded onClick={() => setAttachment(null)} />
          </div>
        )}
        <div className="composer__row">
          <Button icon="pi pi-paperclip" aria-label="Attach file" outlined onClick={() => setPicking(true)} />
          <InputTextarea aria-label="Message" placeholder="Type a message..." value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onEnter(submit)} rows={2} autoResize />
          <Button icon="pi pi-send" aria-label="Send" onClick={submit} disabled={!content} loading={send.isPending} />
        </div>
        <AttachFileDialog visible={picking} onHide={() => setPicking(false)} onPick={setAttachment} />
      </div>
    </section>
  );
}
