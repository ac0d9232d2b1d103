import { z } from 'zod';
import { idSchema, textSchema } from './scalars.ts';

/** Spec 001 §3 "Chat session", "Chat message", "Prompt template"; §7 "Chat". */

export interface ChatSession {
  id: number;
  userId: number;
  fileId: number;
  title: string;
  userName: string;
  createdAt: string;
  updatedAt: string;
}

export type ChatRole = 'user' | 'assistant';

export interface ChatMessage {
  id: number;
  sessionId: number;
  role: ChatRole;
  content: string;
  timestamp: string;
  createdAt: string;
}

export interface ChatExchange {
  userMessage: ChatMessage;
  assistantMessage: ChatMessage;
}

export interface ChatAskResult extends ChatExchange {
  session: ChatSession;
}

/** GET /api/admin/chat-sessions (spec 001 §7: fileId, userId) for the administrator dashboard. */
export interface AdminChatSession {
  id: number;
  fileId: number;
  userId: number;
  tenantName: string;
  createdAt: string;
}

/** The longest question the chat accepts (the model's window also holds the document). */
export const CHAT_MESSAGE_MAX_CHARS = 4000;
/** Session titles are the question, cut to this length. */
export const CHAT_TITLE_MAX_CHARS = 80;

export const CHAT_MESSAGES = {
  emptyMessage: 'Please enter a message.',
  sessionNotFound: 'Chat session not found',
  fileNotFound: 'File not found',
  adminOnly: 'Access denied. Only platform administrators can see chat sessions across firms.',
  notExtracted: (name: string) =>
    `The text of "${name}" has not been extracted yet, so I cannot answer questions about it. Please try again in a few minutes, or start 'Extract Content from Existing Files' on the Reports page.`,
  noText: (name: string) => `No text could be extracted from "${name}", so there is nothing in it to answer from.`,
  /** The dialog's texts (spec 001 §2, §8). */
  loadFailed: 'Failed to load conversation history',
  sendFailed: 'Failed to send message',
  noSessions: 'No AI chat sessions found for this file',
  noTemplates: 'No templates available in this category',
  noModel: 'No language model is configured for this firm. Answers quote the lines of the document that contain the words of your question, and a request for a summary gets an extractive summary: the opening, the headings and the most central sentences, with their line numbers.',
  /** How a Quick Prompt is answered without a model. */
  promptAsSummary: 'Without a model: answered with an extractive summary (opening, headings, central sentences).',
  promptAsQuotes: 'Without a model: answered by quoting the lines that contain its words.',
} as const;

/**
 * A question asking for a summary of the document ('Summarise this document', 'give me an
 * overview', 'what is this document about?'). Without a model such a question gets an
 * extractive summary, since quoting the lines that match its words would say nothing.
 */
export function asksForSummary(question: string): boolean {
  return /\b(summar(y|ies|ise|ize|ising|izing)|overview|gist|tl;?dr)\b|\bwhat('s| is) (this|the) (document|file) about\b/i.test(question);
}

/** GET /api/chat/assistant: whether a language model answers, or the document's own lines (no model configured). */
export interface ChatAssistantInfo {
  mode: 'model' | 'excerpt';
}

/** Spec 001 §5 "Chat send": trimmed, non-empty. */
const messageSchema = textSchema('Message', CHAT_MESSAGE_MAX_CHARS).trim().min(1, CHAT_MESSAGES.emptyMessage);

export const chatAskSchema = z.object({
  fileId: idSchema('fileId'),
  message: z.string({ error: CHAT_MESSAGES.emptyMessage }).pipe(messageSchema),
});
export type ChatAskInput = z.infer<typeof chatAskSchema>;

export const chatFollowUpSchema = z.object({
  message: z.string({ error: CHAT_MESSAGES.emptyMessage }).pipe(messageSchema),
});

export const chatSessionsQuerySchema = z.object({ fileId: idSchema('fileId') });

/**
 * Streaming (server-sent events) for the POST calls when the request accepts
 * `text/event-stream`: `delta` events carry pieces of the answer as it is produced,
 * then one `done` with the call's usual reply, or one `error` with `{ message }`.
 */
export const CHAT_STREAM_EVENTS = { delta: 'delta', done: 'done', error: 'error' } as const;
export interface ChatStreamDelta { text: string }

// ---------------------------------------------------------------- prompt templates

export const PROMPT_CATEGORIES = ['document_management', 'compliance_tax', 'business_insights'] as const;
export type PromptCategory = (typeof PROMPT_CATEGORIES)[number];
export const PROMPT_CATEGORY_LABELS: Record<PromptCategory, string> = {
  document_management: 'Document Management',
  compliance_tax: 'Compliance & Tax',
  business_insights: 'Business Insights',
};

export interface PromptTemplate {
  id: number;
  title: string;
  description: string | null;
  content: string;
  category: PromptCategory;
  isActive: boolean;
  createdById: number | null;
  createdAt: string;
  updatedAt: string;
}

export const PROMPT_TEMPLATE_MESSAGES = {
  notFound: 'Prompt template not found',
  adminOnly: 'Access denied. Only Admin users can manage prompt templates.',
  titleRequired: 'Title is required',
  contentRequired: 'Content is required',
  badCategory: `Category must be one of ${PROMPT_CATEGORIES.join(', ')}`,
} as const;

const required = (field: string, max: number, message: string) => textSchema(field, max).trim().min(1, message);

const templateFields = {
  title: z.string({ error: PROMPT_TEMPLATE_MESSAGES.titleRequired }).pipe(required('Title', 120, PROMPT_TEMPLATE_MESSAGES.titleRequired)),
  // Empty means none.
  description: textSchema('Description', 500).trim().nullable().transform((v) => v || null),
  content: z.string({ error: PROMPT_TEMPLATE_MESSAGES.contentRequired }).pipe(required('Content', CHAT_MESSAGE_MAX_CHARS, PROMPT_TEMPLATE_MESSAGES.contentRequired)),
  category: z.enum(PROMPT_CATEGORIES, { error: PROMPT_TEMPLATE_MESSAGES.badCategory }),
  isActive: z.boolean({ error: 'isActive must be true or false' }),
};

export const promptTemplateInputSchema = z.object({
  ...templateFields,
  description: templateFields.description.optional().transform((v) => v ?? null),
  isActive: templateFields.isActive.default(true),
});
export type PromptTemplateInput = z.infer<typeof promptTemplateInputSchema>;

/** PUT: any of the fields; those left out keep their value (deactivate with `{ isActive: false }`). */
export const promptTemplateUpdateSchema = z.object(templateFields).partial();
export type PromptTemplateUpdate = z.infer<typeof promptTemplateUpdateSchema>;

export const promptTemplateQuerySchema = z.object({
  isActive: z.enum(['true', 'false'], { error: 'isActive must be true or false' }).optional(),
  category: z.enum(PROMPT_CATEGORIES, { error: PROMPT_TEMPLATE_MESSAGES.badCategory }).optional(),
});
