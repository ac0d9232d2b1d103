import { z } from 'zod';
import { idSchema, intSchema, isoDateSchema, textSchema } from './scalars.ts';

/*
 * Document requests (issue 27): a checklist of documents a firm asks a client for, per-item
 * upload from the portal or from a link without an account, reminders until it is done.
 */

export const REQUEST_STATUSES = ['open', 'completed', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const ITEM_STATUSES = ['requested', 'uploaded', 'accepted', 'rejected', 'not_applicable'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const REQUEST_DEFAULTS = { reminderEveryDays: 3, linkDaysPastDue: 14, linkMaxDaysPastDue: 90, linkRenewEveryMinutes: 60, trackerLeadDays: 7 } as const;

export const REQUEST_MESSAGES = {
  requestNotFound: 'Document request not found',
  itemNotFound: 'Request item not found',
  templateNotFound: 'Request template not found',
  linkNotFound: 'Request link not found',
  templatesDenied: 'Only Admin and DTA users can manage request templates.',
  clientsCannotManage: 'Access denied. Client users cannot manage document requests.',
  itemsRequired: 'A request needs a templateId or at least one item',
  templateOrItems: 'Send either templateId or items, not both',
  notOpen: 'This request is not open',
  noTemplate: 'No request template for this report type: choose a template (templateId)',
  rejectionNeedsComment: 'A rejection needs a comment saying what is wrong',
  notApplicableNeedsComment: 'Say why this item does not apply',
  clientMayOnlyMarkNotApplicable: 'Client users can only mark an item as not applicable',
  staffDecision: 'Staff can accept or reject an item',
  nothingToAccept: 'Only an uploaded or not-applicable item can be accepted',
  assigneeNotStaff: 'Requests can only be assigned to staff users of this firm',
  linkGone: 'This link has expired or was revoked. Ask the firm for a new one.',
  linkTooLong: `A link may last at most ${REQUEST_DEFAULTS.linkMaxDaysPastDue} days past the request's due date`,
  newLinkOnItsWay: 'If this link was sent to an e-mail address, a new link is on its way there. It may take a few minutes.',
  nothingToSend: 'Nothing is still needed from the client, so nothing was sent.',
  requestDone: 'This request is complete or was cancelled: nothing more is needed.',
  tooManyAttempts: 'Too many requests from this address or link. Try again in a minute.',
  sent: 'The client has been notified.',
  linkRevoked: 'Link revoked',
  templateDeleted: 'Template deleted',
} as const;

const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));
const title = (field = 'title') => textSchema(field, 200).trim().min(1, `${field} is required`);

export const requestItemInputSchema = z.object({
  title: title(),
  description: optionalText('description', 2000),
  required: z.boolean().default(true),
  reportTypeId: idSchema('reportTypeId').nullish(),
});
export type RequestItemInput = z.input<typeof requestItemInputSchema>;
/** An item as the server has read it (POST /api/document-requests/{id}/items). */
export type RequestItemValues = z.output<typeof requestItemInputSchema>;

export const templateInputSchema = z.object({
  name: title('name'),
  reportTypeId: idSchema('reportTypeId').nullish(),
  items: z.array(requestItemInputSchema.omit({ reportTypeId: true }), { error: 'items must be a list' }).min(1, 'A template needs at least one item').max(100),
});

const reminderEveryDays = intSchema('reminderEveryDays', 1, 30);

export const requestInputSchema = z.object({
  clientId: idSchema('clientId'),
  title: title(),
  message: optionalText('message', 5000),
  dueDate: isoDateSchema('dueDate'),
  reminderEveryDays: reminderEveryDays.default(REQUEST_DEFAULTS.reminderEveryDays),
  reportTypeId: idSchema('reportTypeId').nullish(),
  assignedToId: idSchema('assignedToId').nullish(),
  templateId: idSchema('templateId').nullish(),
  items: z.array(requestItemInputSchema).max(100).optional(),
  sendNow: z.boolean().default(false),
}).superRefine((v, ctx) => {
  const hasItems = v.items !== undefined && v.items.length > 0;
  if (v.templateId && hasItems) ctx.addIssue({ code: 'custom', message: REQUEST_MESSAGES.templateOrItems, path: ['items'] });
  if (!v.templateId && !hasItems) ctx.addIssue({ code: 'custom', message: REQUEST_MESSAGES.itemsRequired, path: ['items'] });
});
export type RequestInput = z.output<typeof requestInputSchema>;

export const requestUpdateSchema = z.object({
  title: title().optional(),
  message: optionalText('message', 5000).optional(),
  dueDate: isoDateSchema('dueDate').optional(),
  reminderEveryDays: reminderEveryDays.optional(),
  assignedToId: idSchema('assignedToId').optional(),
  status: z.enum(['open', 'cancelled'], { error: 'status must be open or cancelled' }).optional(),
});
export type RequestUpdate = z.output<typeof requestUpdateSchema>;

export const requestListQuerySchema = z.object({
  clientId: idSchema('clientId').optional(),
  status: z.enum(REQUEST_STATUSES, { error: `status must be one of ${REQUEST_STATUSES.join(', ')}` }).optional(),
  overdue: z.enum(['true', 'false'], { error: 'overdue must be true or false' }).optional(),
  limit: intSchema('limit', 1, 500).default(100),
  offset: intSchema('offset', 0, 1_000_000).default(0),
});
export type RequestListQuery = z.output<typeof requestListQuerySchema>;

export const itemDecisionSchema = z.object({
  status: z.enum(['accepted', 'rejected', 'not_applicable'], { error: 'status must be accepted, rejected or not_applicable' }),
  comment: optionalText('comment', 2000),
});

export const notApplicableSchema = z.object({ comment: optionalText('comment', 2000) });

export const linkInputSchema = z.object({
  email: textSchema('email', 320).trim().email('email must be an e-mail address').nullish(),
  /** Absent: until linkDaysPastDue days after the request's due date; at most linkMaxDaysPastDue past it (checked by the service). */
  expiresInDays: intSchema('expiresInDays', 1, 3650).nullish(),
});

/** POST /api/{t}/compliance-tracker/{id}/document-request (answered by compliance, made by requests). */
export const trackerRequestInputSchema = z.object({
  templateId: idSchema('templateId').nullish(),
  daysBefore: intSchema('daysBefore', 0, 365).default(REQUEST_DEFAULTS.trackerLeadDays),
  reminderEveryDays: reminderEveryDays.default(REQUEST_DEFAULTS.reminderEveryDays),
  sendNow: z.boolean().default(false),
});

/**
 * The requests service's internal call behind it (service port only, the caller's bearer
 * token forwarded): compliance checked the item is within the caller's reach and sends
 * what the request is made from.
 */
export const TRACKER_REQUEST_PATH = '/internal/tracker-document-requests';
export const trackerDocumentRequestSchema = trackerRequestInputSchema.extend({
  trackerItemId: idSchema('trackerItemId'),
  clientId: idSchema('clientId'),
  reportTypeId: idSchema('reportTypeId'),
  reportTypeName: textSchema('reportTypeName', 200),
  period: textSchema('period', 100),
  itemDueDate: isoDateSchema('itemDueDate'),
});

export interface RequestTemplate {
  id: number;
  name: string;
  reportTypeId: number | null;
  items: { title: string; description: string | null; required: boolean }[];
  createdAt: string;
  updatedAt: string;
}

export interface RequestItemFile {
  fileId: number;
  fileName: string;
  uploadedAt: string;
  uploadedByName: string;
  viaLink: boolean;
}

export interface RequestItem {
  id: number;
  title: string;
  description: string | null;
  required: boolean;
  reportTypeId: number | null;
  status: ItemStatus;
  clientComment: string | null;
  staffComment: string | null;
  files: RequestItemFile[];
}

export interface DocumentRequest {
  id: number;
  clientId: number;
  clientName: string;
  title: string;
  message: string | null;
  dueDate: string;
  status: RequestStatus;
  reminderEveryDays: number;
  reportTypeId: number | null;
  trackerItemId: number | null;
  assignedToId: number;
  assignedToName: string;
  createdById: number;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  /** Required items, those of them accepted or not applicable, and items (any) uploaded and waiting for review. */
  progress: { required: number; done: number; uploaded: number };
  items: RequestItem[];
}

/** A row of the list: the request without its items. */
export type DocumentRequestSummary = Omit<DocumentRequest, 'items'>;

export interface RequestLink {
  id: number;
  email: string | null;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

/** POST .../links: the URL is shown once (only its hash is stored). */
export interface CreatedRequestLink {
  id: number;
  url: string;
  expiresAt: string;
}

/** GET /api/public/document-requests/{token}: nothing of the firm's other data, no file names. */
export interface PublicDocumentRequest {
  firmName: string;
  clientName: string;
  title: string;
  message: string | null;
  dueDate: string;
  /** The due date as the firm's country writes it ("Apr 8, 2027", "8 Apr 2027"). */
  dueDateText: string;
  /** Nothing required is still needed from the client (all in, waiting for the firm, or accepted). */
  allDone: boolean;
  /** returnedReason: why the firm returned the item, while it waits for the client again. */
  items: { id: number; title: string; description: string | null; required: boolean; status: ItemStatus; fileCount: number; returnedReason: string | null }[];
}

/** Events (outbox): every change to a request, with the request's state after it. */
export const DOCUMENT_REQUEST_CHANGED = 'document-request.changed';
export type DocumentRequestAction =
  'created' | 'updated' | 'sent' | 'item_added' | 'item_uploaded' | 'item_accepted' | 'item_rejected' | 'item_not_applicable' | 'completed' | 'cancelled' | 'reopened' | 'link_created' | 'link_revoked';
/** An item of a request as its change event carries it. */
export interface DocumentRequestItemState { id: number; reportTypeId: number | null; required: boolean; status: ItemStatus }
export interface DocumentRequestChanged {
  requestId: number;
  clientId: number;
  clientName: string;
  title: string;
  reportTypeId: number | null;
  trackerItemId: number | null;
  status: RequestStatus;
  progress: { required: number; done: number };
  /**
   * Every item's report type and state after the change: whoever passes the event on to a
   * CPA or custom role shows them only the items of their report types (and their progress).
   * Absent in events published before it was added.
   */
  items?: DocumentRequestItemState[];
  /** Counts up with every event of the request: a read model keeps the highest it has seen (deliveries may come out of order). */
  revision: number;
  action: DocumentRequestAction;
  itemId?: number;
  itemTitle?: string;
  /** item_uploaded: the files the upload made (the files service's ids). */
  files?: { fileId: number; fileName: string }[];
  /** Who did it: a user's actorId; for a link upload, the request's creator (who let them in). */
  actorId: number;
  actorName: string;
  /** staffComment of a rejection, clientComment of "does not apply". */
  comment?: string | null;
  viaLink?: boolean;
  /** A link upload's address and browser. */
  address?: string;
  userAgent?: string;
}

/**
 * Pushed over the realtime endpoint (event name DOCUMENT_REQUEST_PUSH, requests.constants.ts) to the staff who reach
 * the request and to the client's users after every change: the screens re-read what changed.
 * Never the address or browser of a link upload. Pushes are made by concurrent consumers and
 * may arrive out of order: a screen that shows a push's state keeps the highest `revision`.
 */
export type DocumentRequestPush = Pick<DocumentRequestChanged, 'requestId' | 'clientId' | 'trackerItemId' | 'title' | 'status' | 'progress' | 'revision' | 'action' | 'itemId' | 'actorName'>;

/**
 * The files service's internal upload for a request item (never routed by the gateway):
 * the requests service forwards the multipart body with a service assertion naming the
 * firm, client, report type and uploader; the file becomes a report of that client.
 */
export const REQUEST_UPLOAD_PATH = '/internal/document-request-uploads';
export const REQUEST_UPLOAD_ASSERTION_HEADER = 'x-portal-request-upload-assertion';
export const REQUEST_UPLOAD_KEY_PURPOSE = 'document-request-upload';
export interface RequestUploadAssertion extends Record<string, unknown> {
  /** firm */ t: string;
  /** client */ c: number;
  /** report type (optional) */ r: number | null;
  /** uploader id, as stored for uploadedById */ u: number;
  /** uploader name */ n: string;
  /** held until this invoice is paid (issue 43: a signed document released on payment), with its number */ h?: { i: number; n: string };
}
