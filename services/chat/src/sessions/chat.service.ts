import type { AiAssistant, AiMode, AiPassage, AiTurn } from '@ledgerline/kit/ai/ai-assistant.ts';
import type { PassageIndex } from '@ledgerline/kit/ai/passage-index.ts';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { FILE_CHATTED, type FileChattedEvent } from '@ledgerline/contracts/activity.contracts.ts';
import {
  CHAT_MESSAGES, CHAT_TITLE_MAX_CHARS, asksForSummary, type ChatAskResult, type ChatExchange, type ChatMessage, type ChatSession,
} from '@ledgerline/contracts/chat.contracts.ts';
import type { FileText } from '@ledgerline/contracts/files.contracts.ts';
import type { FileTextClient } from '../files/file-text.client.ts';
import type { ChatSessionStore } from './chat-session.store.ts';

/** What the product asks of a model; the file's name and text travel only as data. */
export const CHAT_INSTRUCTIONS = 'Answer the question about the document in the data block, for a member of an accounting firm or their client. Be concise and use Markdown for lists and tables.';
/**
 * An excerpt answer picks its lines (and a form's boxes) from the passages that match the
 * question best: enough of them that a whole form (a W-2 is three) is read at once.
 */
const EXCERPT_PASSAGES = 8;
/** Without a model, a summary reads the document up to this many passages (about 1.2 MB of text). */
const SUMMARY_PASSAGES = 2000;


export interface AnswerStream {
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * Spec 001 §4 "Chat": the first question about a file creates a session, further ones
 * append to it. Each exchange is saved (session, both messages and the `file.chatted`
 * event in one transaction) only once the whole answer is there: a provider failure
 * leaves nothing behind.
 */
export class ChatService {
  readonly #sessions: ChatSessionStore;
  readonly #files: FileTextClient;
  readonly #passages: PassageIndex;
  readonly #assistant: AiAssistant;
  readonly #historyMaxMessages: number;
  readonly #modelPassages: number;

  constructor(deps: { sessions: ChatSessionStore; files: FileTextClient; passages: PassageIndex; assistant: AiAssistant; historyMaxMessages: number; modelPassages: number }) {
    this.#sessions = deps.sessions;
    this.#files = deps.files;
    this.#passages = deps.passages;
    this.#assistant = deps.assistant;
    this.#historyMaxMessages = deps.historyMaxMessages;
    this.#modelPassages = deps.modelPassages;
  }

  /** Whether a model answers or, with none configured, the document's own lines. */
  get assistantMode(): AiMode {
    return this.#assistant.mode;
  }

  /** The caller's own sessions on a file they may open. */
  async sessionsOf(t: TenantRequest, fileId: number): Promise<ChatSession[]> {
    await this.#fileText(t, fileId);
    return this.#sessions.listOwn(t.db, actorId(t.claims), fileId);
  }

  async messagesOf(t: TenantRequest, sessionId: number): Promise<ChatMessage[]> {
    const session = await this.#ownSession(t, sessionId);
    await this.#fileText(t, session.fileId);
    return this.#sessions.messages(t.db, session.id);
  }

  async ask(t: TenantRequest, fileId: number, question: string, stream: AnswerStream = {}): Promise<ChatAskResult> {
    const r = await this.#exchange(t, fileId, null, question, stream);
    return { session: r.session, userMessage: r.userMessage, assistantMessage: r.assistantMessage };
  }

  async followUp(t: TenantRequest, sessionId: number, question: string, stream: AnswerStream = {}): Promise<ChatExchange> {
    const session = await this.#ownSession(t, sessionId);
    const r = await this.#exchange(t, session.fileId, session, question, stream);
    return { userMessage: r.userMessage, assistantMessage: r.assistantMessage };
  }

  async #ownSession(t: TenantRequest, sessionId: number): Promise<ChatSession> {
    const session = await this.#sessions.findOwn(t.db, actorId(t.claims), sessionId);
    if (!session) throw new NotFound(CHAT_MESSAGES.sessionNotFound);
    return session;
  }

  /** The file's text through the files service (its access rules), indexed here once per version. */
  async #fileText(t: TenantRequest, fileId: number): Promise<FileText> {
    const have = await this.#passages.version(t.db, fileId);
    const text = await this.#files.get({ tenant: t.shortName, bearer: t.token }, fileId, have);
    if (text.version !== null && text.text !== undefined) await this.#passages.ensure(t.db, fileId, text.version, text.text);
    return text;
  }

  async #exchange(t: TenantRequest, fileId: number, session: ChatSession | null, question: string, stream: AnswerStream): Promise<ChatAskResult> {
    const askedAt = new Date();
    const file = await this.#fileText(t, fileId);
    const history = session ? await this.#sessions.recentMessages(t.db, session.id, this.#historyMaxMessages) : [];
    const answer = await this.#answer(t, file, history, question, stream);
    const answeredAt = new Date();
    const userId = actorId(t.claims);
    const userName = actorName(t.claims);
    return t.db.transaction(async (tx) => {
      const s = session ?? await this.#sessions.create(tx, { userId, userName, fileId, title: titleOf(question), at: askedAt });
      const [userMessage, assistantMessage] = await this.#sessions.append(tx, s.id, [
        { role: 'user', content: question, at: askedAt },
        { role: 'assistant', content: answer, at: answeredAt },
      ], answeredAt);
      const event: FileChattedEvent = {
        fileId, fileName: file.file.originalName, clientId: file.file.clientId, clientName: file.file.clientName,
        userId, userName, sessionId: s.id, occurredAt: answeredAt.toISOString(),
      };
      await enqueueEvents(tx, [newEvent(FILE_CHATTED, t.shortName, event)]);
      return { session: { ...s, updatedAt: answeredAt.toISOString() }, userMessage: userMessage!, assistantMessage: assistantMessage! };
    });
  }

  async #answer(t: TenantRequest, file: FileText, history: ChatMessage[], question: string, stream: AnswerStream): Promise<string> {
    const { db } = t;
    const name = file.file.originalName;
    const model = this.#assistant.mode === 'model';
    // A model reads the document's opening too; the excerpt mode only needs to know there is text.
    const opening = file.version === null ? [] : await this.#passages.leading(db, file.file.id, model ? this.#modelPassages : 1);
    // Not the model's to explain: the file has no text (yet) to answer from.
    const notice = file.version === null ? CHAT_MESSAGES.notExtracted(name) : opening.length ? null : CHAT_MESSAGES.noText(name);
    if (notice) {
      stream.onDelta?.(notice);
      return notice;
    }
    const summarise = asksForSummary(question);
    const passages = model ? await this.#modelPassagesFor(db, file.file.id, history, question, opening) : summarise
      // An extractive summary reads the whole document in order.
      ? await this.#passages.leading(db, file.file.id, SUMMARY_PASSAGES)
      // Quotes match this question's words only: mixed with the one before, a question
      // matching nothing would quote the previous answer again as if it answered it.
      : await this.#passages.rank(db, file.file.id, question, EXCERPT_PASSAGES);
    const turns: AiTurn[] = history.map((m) => ({ role: m.role, content: m.content }));
    const answer = await this.#assistant.answer(
      { instructions: CHAT_INSTRUCTIONS, documents: [{ name, passages }], history: turns, question, summarise },
      { firm: t.shortName, user: String(actorId(t.claims)), ...(stream.onDelta ? { onDelta: stream.onDelta } : {}), ...(stream.signal ? { signal: stream.signal } : {}) },
    );
    return answer.text;
  }

  /**
   * A model gets whole passages and the document's opening (a summary needs it even when
   * no word matches); a follow-up ('and the tax?') is ranked with the question before it too.
   */
  async #modelPassagesFor(db: TenantRequest['db'], fileId: number, history: ChatMessage[], question: string, opening: AiPassage[]): Promise<AiPassage[]> {
    const previous = [...history].reverse().find((m) => m.role === 'user')?.content;
    const query = previous ? `${question}\n${previous}` : question;
    return unique([...await this.#passages.rank(db, fileId, query, this.#modelPassages), ...opening]);
  }
}

const unique = (passages: AiPassage[]): AiPassage[] => {
  const seen = new Set<string>();
  return passages.filter((p) => { const key = `${p.line}\n${p.text}`; return !seen.has(key) && !!seen.add(key); }).map((p) => ({ line: p.line, text: p.text }));
};

/** Spec 001 §7: the session is titled from its first question. */
export function titleOf(question: string): string {
  const line = question.split('\n').find((l) => l.trim())!.trim();
  return line.length > CHAT_TITLE_MAX_CHARS ? `${line.slice(0, CHAT_TITLE_MAX_CHARS - 1).trimEnd()}…` : line;
}
