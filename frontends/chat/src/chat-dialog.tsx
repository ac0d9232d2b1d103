import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useRef, useState } from 'react';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import type { ChatFile } from '@ledgerline/ui/file-chat-launcher.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { CHAT_MESSAGES, type ChatAssistantInfo, type ChatMessage, type ChatSession, type PromptTemplate } from '@ledgerline/contracts/chat.contracts.ts';
import {
  CHAT_SESSIONS_STALE_MS, ChatStreamError, chatAssistantPath, chatMessagesPath, chatSessionsPath, promptTemplatesPath, sendChatMessage,
} from './chat.api.ts';
import { ChatMessages, type PendingExchange } from './chat-messages.tsx';
import { sendableMessage, sendsOnKey } from './chat-keys.ts';
import { QuickPrompts } from './quick-prompts.tsx';

/** Spec 001 §9: the input shows 5 rows and grows to at most 200px. */
const INPUT_ROWS = 5;
const INPUT_MAX_HEIGHT = '200px';

/**
 * Spec 001 §2 "AI Chat dialog": session sidebar, message area, Quick Prompts and input.
 * With no session selected the first message creates one (spec 001 §4).
 */
export function ChatDialog({ file, onClose }: { file: ChatFile; onClose(): void }) {
  const queryClient = useQueryClient();
  const sessionsKey = [chatSessionsPath(file.id)];
  const sessions = useQuery<ChatSession[]>({ queryKey: sessionsKey, staleTime: CHAT_SESSIONS_STALE_MS });
  const templates = useQuery<PromptTemplate[]>({ queryKey: [promptTemplatesPath({ isActive: true })], staleTime: CHAT_SESSIONS_STALE_MS });
  const assistant = useQuery<ChatAssistantInfo>({ queryKey: [chatAssistantPath()], staleTime: Infinity });
  const withoutModel = assistant.data?.mode === 'excerpt';
  // On a phone the sessions sit behind a menu so the conversation takes the width.
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const [session, setSession] = useState<ChatSession | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState<PendingExchange | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const inflight = useRef<AbortController | null>(null);
  const messageEnd = useRef<HTMLDivElement | null>(null);
  const inputRef = useRef<HTMLTextAreaElement | null>(null);

  // Closing the dialog stops an answer still streaming (nothing of it is saved).
  useEffect(() => () => inflight.current?.abort(), []);
  useEffect(() => { messageEnd.current?.scrollIntoView?.({ block: 'end' }); }, [messages, pending]);

  const pick = async (s: ChatSession) => {
    setSession(s);
    setSessionsOpen(false);
    setMessages([]);
    setSendError(null);
    try {
      setMessages(await apiJson<ChatMessage[]>('GET', chatMessagesPath(s.id)));
    } catch {
      showToast({ severity: 'error', summary: 'Error', detail: CHAT_MESSAGES.loadFailed });
    }
  };

  const newChat = () => {
    setSession(null);
    setSessionsOpen(false);
    setMessages([]);
    setSendError(null);
  };

  const send = async () => {
    const question = sendableMessage(input);
    if (!question || pending) return;
    const controller = new AbortController();
    inflight.current = controller;
    setInput('');
    setSendError(null);
    setPending({ question, answer: '' });
    try {
      const result = await sendChatMessage(
        { fileId: file.id, sessionId: session?.id ?? null }, question,
        (text) => setPending((p) => (p ? { ...p, answer: p.answer + text } : p)),
        controller.signal,
      );
      if ('session' in result) setSession(result.session);
      setMessages((m) => [...m, result.userMessage, result.assistantMessage]);
      void queryClient.invalidateQueries({ queryKey: sessionsKey });
    } catch (error) {
      if (controller.signal.aborted) return;
      setInput(question); // what they typed is not lost
      setSendError(error instanceof ChatStreamError ? error.message : (serverMessage(error) ?? null));
      showToast({ severity: 'error', summary: 'Error', detail: CHAT_MESSAGES.sendFailed });
    } finally {
      setPending(null);
      inflight.current = null;
    }
  };

  const list = sessions.data ?? [];
  const conversationEmpty = messages.length === 0 && !pending;
  return (
    <Dialog visible onHide={onClose} header={`AI Chat - ${file.originalName}`} className="chat-dialog" modal dismissableMask={false}>
      <div className="chat-dialog__body">
        <Button
          type="button" className="chat-sessions__toggle" size="small" text icon="pi pi-bars"
          label={session ? session.title : 'Chat sessions'} aria-expanded={sessionsOpen} aria-controls="chat-sessions"
          onClick={() => setSessionsOpen((open) => !open)}
        />
        <aside id="chat-sessions" className={`chat-sessions${sessionsOpen ? ' chat-sessions--open' : ''}`} aria-label="Chat sessions">
          <Button type="button" label="New AI Chat" icon="pi pi-plus" size="small" onClick={newChat} disabled={pending !== null} />
          {sessions.isSuccess && list.length === 0 && <p className="chat-sessions__empty">{CHAT_MESSAGES.noSessions}</p>}
          <ul className="chat-sessions__list">
            {list.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className={`chat-session${session?.id === s.id ? ' chat-session--active' : ''}`}
                  aria-current={session?.id === s.id ? 'true' : undefined}
                  disabled={pending !== null}
                  onClick={() => void pick(s)}
                >
                  <span className="chat-session__title">{s.title}</span>
                  <span className="chat-session__date">{formatDate(s.updatedAt, { withTime: true })}</span>
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <section className="chat-main">
          <div className="chat-messages" aria-live="polite">
            {withoutModel && conversationEmpty && <p className="chat-messages__notice" role="note">{CHAT_MESSAGES.noModel}</p>}
            <ChatMessages messages={messages} pending={pending} fileName={file.originalName} />
            <div ref={messageEnd} />
          </div>
          <QuickPrompts
            templates={templates.data ?? []} withoutModel={withoutModel} startOpen={conversationEmpty}
            onPick={(content) => { setInput(content); inputRef.current?.focus(); }}
          />
          <div className="chat-input">
            <InputTextarea
              ref={inputRef}
              aria-label="Message"
              placeholder="Ask a question about this file... (Enter sends, Shift+Enter for a new line)"
              rows={INPUT_ROWS}
              style={{ maxHeight: INPUT_MAX_HEIGHT }}
              value={input}
              onChange={(e) => setInput(e.target.value)}
              onKeyDown={(e) => {
                if (!sendsOnKey({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing })) return;
                e.preventDefault();
                void send();
              }}
            />
            <Button type="button" label="Send" icon="pi pi-send" onClick={() => void send()} disabled={!sendableMessage(input) || pending !== null} loading={pending !== null} />
          </div>
          {sendError && <small className="chat-input__error" role="alert">{sendError}</small>}
        </section>
      </div>
    </Dialog>
  );
}
