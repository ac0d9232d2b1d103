import { z } from 'zod';
import { idSchema, intSchema, textSchema } from './scalars.ts';

/*
 * Messaging (spec 001 §2 Messages page, §3 Conversation / Participant / Message, §4 message
 * states, §5 conversation and message rules, §6, §7 "Messaging", §8 messaging texts, §9).
 */

export const MESSAGING_MESSAGES = {
  titleRequired: 'Please enter a conversation title',
  participantsRequired: 'Please select at least one participant',
  participantsNotAllowed: 'One or more participants cannot be added to this conversation',
  contentRequired: 'Message content is required',
  messageType: "messageType must be 'text'",
  conversationNotFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  replyNotInConversation: 'The message replied to is not in this conversation',
  senderOnly: 'Only the sender can edit or delete a message',
  deletedMessage: 'This message was deleted',
  fileNameRequired: 'fileName is required with fileId',
  // §8 (the screen's toasts)
  createFailed: 'Failed to create conversation',
  sendFailed: 'Failed to send message',
  updateFailed: 'Failed to update message',
  deleteFailed: 'Failed to delete message',
  created: 'Conversation created successfully',
  updated: 'Message updated successfully',
  deleted: 'Message deleted successfully',
  deleteConfirm: 'Are you sure you want to delete this message?',
  // Message the firm (issue 40)
  clientsOnly: 'Only Client users message the firm this way; staff start a conversation with the people they choose.',
  noClient: 'Your user has no client: ask the firm to give it one.',
  adminsOnly: 'Only Admins see the client inbox and assign its conversations.',
  notClientConversation: 'Conversation not found',
  assigneeNotAllowed: 'Assign the conversation to a staff member who has this client.',
} as const;

/** Longest title and message a person types. */
const TITLE_MAX = 200;
const CONTENT_MAX = 10_000;
/** How many participants one conversation holds. */
const PARTICIPANTS_MAX = 100;
/** §7's GET /conversations/{id}/messages without a cursor answers the newest page of this size. */
export const MESSAGE_PAGE_DEFAULT = 50;
const MESSAGE_PAGE_MAX = 200;

const trimmedText = (field: string, max: number, required: string) =>
  z.string({ error: required }).pipe(textSchema(field, max)).transform((v) => v.trim()).refine((v) => v.length > 0, required);

/** POST /conversations/firm: a Client user writes to their firm; the client's team receives it (issue 40). */
export const firmMessageSchema = z.object({ content: trimmedText('Content', CONTENT_MAX, MESSAGING_MESSAGES.contentRequired) });

/** POST /conversations/{id}/assign (Admin): who answers a client's conversation. */
export const conversationAssignSchema = z.object({ userId: idSchema('userId') });

/** A client's conversation with the firm as the Admins' inbox lists it (GET /conversations/client-inbox). */
export interface ClientConversation {
  id: number;
  title: string;
  clientId: number;
  createdById: number;
  participantIds: number[];
  participantNames: string[];
  assignedToId: number | null;
  lastMessage: string | null;
  lastMessageAt: string | null;
  createdAt: string;
}

/** POST /conversations. The creator is always a participant (the token), whatever the list says. */
export const conversationInputSchema = z.object({
  title: trimmedText('Title', TITLE_MAX, MESSAGING_MESSAGES.titleRequired),
  participantIds: z.array(idSchema('participantId', MESSAGING_MESSAGES.participantsRequired), { error: MESSAGING_MESSAGES.participantsRequired })
    .max(PARTICIPANTS_MAX, `A conversation holds at most ${PARTICIPANTS_MAX} participants`),
  type: z.literal('direct').default('direct'),
});
export type ConversationInput = z.output<typeof conversationInputSchema>;

/** POST /conversations/{id}/messages; an attachment is a file of the files service the sender can open. */
export const messageInputSchema = z.object({
  content: trimmedText('Content', CONTENT_MAX, MESSAGING_MESSAGES.contentRequired),
  messageType: z.literal('text', { error: MESSAGING_MESSAGES.messageType }).default('text'),
  replyToId: idSchema('replyToId').nullish().transform((v) => v ?? null),
  fileId: idSchema('fileId').nullish().transform((v) => v ?? null),
  fileName: textSchema('fileName', 500).nullish().transform((v) => (v?.trim() ? v.trim() : null)),
}).refine((m) => m.fileId === null || m.fileName !== null, { message: MESSAGING_MESSAGES.fileNameRequired, path: ['fileName'] });
export type MessageInput = z.output<typeof messageInputSchema>;

/** PUT /messages/{id}. */
export const messageEditSchema = z.object({ content: trimmedText('Content', CONTENT_MAX, MESSAGING_MESSAGES.contentRequired) });

/** Newest first; `before` (a message id) reads the page older than it. */
export const messagePageQuerySchema = z.object({
  before: idSchema('before').optional(),
  limit: intSchema('limit', 1, MESSAGE_PAGE_MAX).default(MESSAGE_PAGE_DEFAULT),
});
export type MessagePageQuery = z.output<typeof messagePageQuerySchema>;

/** Spec 001 §3 "Conversation", as listed for the caller. */
export interface Conversation {
  id: number;
  type: 'direct';
  title: string;
  createdById: number;
  participantIds: number[];
  participantNames: string[];
  lastMessage: string | null;
  lastMessageAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Messages from others the caller has not read. */
  unreadCount: number;
  /** Beyond §3: each participant's read position (the newest message id they have read, 0 for none), so a sender sees Sent or Read. */
  readPositions: ReadPosition[];
}

export type ReadPosition = Pick<ReadReceipt, 'userId' | 'lastReadMessageId'>;

/** Spec 001 §3 "Message". A deleted message keeps its place but not its content or attachment. */
export interface Message {
  id: number;
  conversationId: number;
  senderId: number;
  senderName: string;
  content: string | null;
  messageType: 'text';
  fileId: number | null;
  fileName: string | null;
  replyToId: number | null;
  replyToContent: string | null;
  replyToSender: string | null;
  isEdited: boolean;
  editedAt: string | null;
  sentAt: string;
  isDeleted: boolean;
  deletedAt: string | null;
}

/** A participant's read position (§3 Participant.lastReadAt; the read status of every message up to it). */
export interface ReadReceipt {
  conversationId: number;
  userId: number;
  lastReadMessageId: number;
  lastReadAt: string;
}

export interface UnreadMessages { count: number }

/** What `MESSAGING_PUSH.message` carries. */
export interface MessagePush {
  change: 'created' | 'edited' | 'deleted';
  message: Message;
}
