import { MarkdownText } from '@ledgerline/ui/markdown-text.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import type { ChatMessage } from '@ledgerline/contracts/chat.contracts.ts';

export interface PendingExchange { question: string; answer: string }

function Bubble({ role, children, at }: { role: 'user' | 'assistant'; children: React.ReactNode; at?: string }) {
  return (
    <div className={`chat-message chat-message--${role}`} data-role={role}>
      <div className="chat-message__body">{children}</div>
      {at && <div className="chat-message__time">{formatDate(at, { withTime: true })}</div>}
    </div>
  );
}

/** The conversation: questions as typed, answers as sanitised Markdown; the answer being written streams in. */
export function ChatMessages({ messages, pending, fileName }: { messages: readonly ChatMessage[]; pending: PendingExchange | null; fileName: string }) {
  if (messages.length === 0 && !pending) {
    return <p className="chat-messages__hint">Ask a question about {fileName}, or pick a Quick Prompt.</p>;
  }
  return (
    <>
      {messages.map((m) => (
        <Bubble key={m.id} role={m.role} at={m.createdAt}>
          {m.role === 'assistant' ? <MarkdownText text={m.content} /> : <p className="chat-message__text">{m.content}</p>}
        </Bubble>
      ))}
      {pending && (
        <>
          <Bubble role="user"><p className="chat-message__text">{pending.question}</p></Bubble>
          <Bubble role="assistant">
            {pending.answer ? <MarkdownText text={pending.answer} /> : <i className="pi pi-spin pi-spinner" aria-label="Answering" />}
          </Bubble>
        </>
      )}
    </>
  );
}
