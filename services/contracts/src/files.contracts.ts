import { z } from 'zod';
import { DB_INT_MAX, idSchema, intSchema } from './scalars.ts';

/*
 * Files API (spec 001 §2 Files screen, Upload dialog, Firm documents; §3 File; §5 upload
 * rules; §7 "Files"; §8 files messages). Shared by the files service, the activity
 * service (events) and the documents and dashboard screens.
 */

export const FILE_TYPES = ['report', 'company_document', 'firm_document'] as const;
export type FileType = (typeof FILE_TYPES)[number];
export const DEFAULT_UPLOAD_FILE_TYPE: FileType = 'report';

/** Firm document types (spec 001 §2 "Firm documents" badges); `other` is the default badge. */
export const FIRM_DOCUMENT_TYPES = {
  firm_registration_certificate: 'Firm Registration Certificate',
  pan_card: 'PAN Card',
  gst_registration: 'GST Registration',
  professional_license: 'Professional License',
  partnership_deed: 'Partnership Deed',
  memorandum_of_association: 'Memorandum of Association',
  articles_of_association: 'Articles of Association',
  other: 'Other Firm Document',
} as const;
export type FirmDocumentType = keyof typeof FIRM_DOCUMENT_TYPES;
export const DEFAULT_FIRM_DOCUMENT_TYPE: FirmDocumentType = 'other';

/** Spec 001 §5 and §8: the texts the upload dialog shows and the server answers with. */
export const UPLOAD_MESSAGES = {
  noClient: 'Please select a client',
  noFiles: 'Please select at least one file to upload',
  success: 'File uploaded successfully',
  badFileType: `File type must be one of ${FILE_TYPES.join(', ')}`,
  reportTypeOnlyForReports: 'A report type can only be given for reports',
  documentTypeOnlyForFirmDocuments: 'A document type can only be given for firm documents',
  badDocumentType: `Document type must be one of ${Object.keys(FIRM_DOCUMENT_TYPES).join(', ')}`,
} as const;

/** A stored file as every files call returns it (spec 001 §3 "File"). */
export interface PortalFile {
  id: number;
  /** The name the user uploaded (shown everywhere). */
  originalName: string;
  /** The sanitised name it is stored and served under. */
  filename: string;
  mimeType: string;
  /** Bytes. */
  size: number;
  clientId: number | null;
  clientName: string | null;
  fileType: FileType;
  documentType: FirmDocumentType | null;
  reportTypeId: number | null;
  reportTypeName: string | null;
  uploadedById: number;
  uploaderName: string;
  /** ISO timestamps. */
  uploadedAt: string;
  createdAt: string;
  /** When content extraction finished; null until then. */
  processedAt: string | null;
  /** Only on GET /api/files?search=: the best matching passage, see SNIPPET_MARK. */
  snippet?: string;
  /** Only while the file is released on payment of an invoice not yet paid (a Client user cannot open it until then). */
  waitingForPayment?: { invoiceId: number; invoiceNumber: string };
}

/** PUT /api/files/{id}/payment-hold: the file is released when this invoice (of the file's client) is paid. */
export const paymentHoldInputSchema = z.object({ invoiceId: idSchema('invoiceId') });
export const PAYMENT_HOLD_MESSAGES = {
  waiting: (number: string) => `This document is released once invoice ${number} is paid.`,
  invoiceNotFound: 'Invoice not found among the sent invoices of this file\'s client',
  clientInvoiceNotFound: 'Invoice not found among the sent invoices of this client',
  paidAlready: 'That invoice is paid already: nothing to wait for',
  voidInvoice: 'That invoice is void: nothing would release the documents',
  clientFileOnly: 'Only a client\'s document can wait for payment',
  noHold: 'This file is not waiting for payment',
  noReportTypeHold: 'This report type is not waiting for payment for this client',
  released: 'Released',
} as const;

/**
 * A report type of a client released on payment (PUT|DELETE /api/files/clients/{clientId}/report-types/{reportTypeId}/payment-hold,
 * GET /api/files/clients/{clientId}/payment-holds): every file of that client with that report
 * type, those there and those uploaded while it holds, waits for the invoice.
 */
export interface ReportTypePaymentHold {
  clientId: number;
  reportTypeId: number;
  invoiceId: number;
  invoiceNumber: string;
  /** Files of the report type waiting for the invoice now. */
  filesWaiting: number;
}

/**
 * Search snippets wrap each matched word in these control characters rather than HTML,
 * so screens highlight without ever injecting markup from file contents.
 */
export const SNIPPET_MARK = { start: '\u0002', end: '\u0003' } as const;

/** Splits a snippet into plain and highlighted parts, in order. */
export function snippetParts(snippet: string): { text: string; highlighted: boolean }[] {
  const parts: { text: string; highlighted: boolean }[] = [];
  for (const piece of snippet.split(SNIPPET_MARK.start)) {
    const end = piece.indexOf(SNIPPET_MARK.end);
    if (end < 0) { if (piece) parts.push({ text: piece, highlighted: false }); continue; }
    parts.push({ text: piece.slice(0, end), highlighted: true });
    if (end + 1 < piece.length) parts.push({ text: piece.slice(end + 1), highlighted: false });
  }
  return parts;
}

/**
 * A date filter bound: a calendar day ('YYYY-MM-DD', a whole UTC day) or an exact instant
 * with its offset ('2024-03-01T00:00:00.000+05:30', '…Z'). The screens send instants: the
 * start and end of the days the user picked in their own time zone (spec 001 §5).
 */
const dateBound = z.string().trim().regex(
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/,
  'Dates must be YYYY-MM-DD or an ISO timestamp with a time zone',
);
const optionalId = (field: string) => z.union([z.literal('').transform(() => undefined), idSchema(field)]).optional();

export const FILE_LIST_DEFAULT_LIMIT = 200;
export const FILE_LIST_MAX_LIMIT = 1000;

/**
 * GET /api/files. startDate and endDate are inclusive: a day bound covers the whole UTC day
 * (from 00:00:00.000 to 23:59:59.999), an instant bound is exact; `_t` is the firm documents screen's cache buster. The reply is the
 * spec's bare array, newest first (or best match first with `search`); `limit`/`offset`
 * page it and the `X-Total-Count` header tells how many match.
 */
export const fileListQuerySchema = z.object({
  reportTypeId: optionalId('reportTypeId'),
  clientId: optionalId('clientId'),
  search: z.string().trim().max(200).optional(),
  fileType: z.enum(FILE_TYPES, { error: UPLOAD_MESSAGES.badFileType }).optional(),
  startDate: dateBound.optional(),
  endDate: dateBound.optional(),
  limit: intSchema('limit', 1, FILE_LIST_MAX_LIMIT).default(FILE_LIST_DEFAULT_LIMIT),
  offset: intSchema('offset', 0, DB_INT_MAX).default(0),
  _t: z.string().optional(),
});
export type FileListQuery = z.infer<typeof fileListQuerySchema>;

/**
 * The non-file fields of POST /api/files (multipart). Which of them may be sent depends on
 * fileType (spec 001 §5): clientId is required for a report, optional otherwise;
 * reportTypeId only for reports; documentType only for firm documents (default other).
 */
export const uploadFieldsSchema = z.object({
  fileType: z.enum(FILE_TYPES, { error: UPLOAD_MESSAGES.badFileType }).default(DEFAULT_UPLOAD_FILE_TYPE),
  clientId: optionalId('clientId'),
  reportTypeId: optionalId('reportTypeId'),
  documentType: z.union([z.literal('').transform(() => undefined), z.enum(Object.keys(FIRM_DOCUMENT_TYPES) as [FirmDocumentType, ...FirmDocumentType[]])], { error: UPLOAD_MESSAGES.badDocumentType }).optional(),
}).superRefine((v, ctx) => {
  if (v.fileType === 'report' && v.clientId === undefined) ctx.addIssue({ code: 'custom', message: UPLOAD_MESSAGES.noClient, path: ['clientId'] });
  if (v.fileType !== 'report' && v.reportTypeId !== undefined) ctx.addIssue({ code: 'custom', message: UPLOAD_MESSAGES.reportTypeOnlyForReports, path: ['reportTypeId'] });
  if (v.fileType !== 'firm_document' && v.documentType !== undefined) ctx.addIssue({ code: 'custom', message: UPLOAD_MESSAGES.documentTypeOnlyForFirmDocuments, path: ['documentType'] });
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** Reply of POST /api/files (201): every file of the request, in the order sent. */
export interface UploadResult {
  message: typeof UPLOAD_MESSAGES.success;
  files: PortalFile[];
}

/** Reply of POST /api/files/extract-content (spec 001 §7). */
export interface ExtractContentResult {
  filesToProcess: number;
}

/** Spec 001 §8 extraction texts for the reports screen. */
export const extractionMessage = (filesToProcess: number): string => (filesToProcess === 0
  ? 'All documents already have searchable content extracted!'
  : `Started content extraction for ${filesToProcess} documents. This will happen in the background - refresh the page in a few minutes to see updated search results.`);

/**
 * Reply of POST /api/files/{id}/public-link: a signed, expiring URL under
 * /api/public/files/{id} that opens the file without a bearer token (e.g. in a new tab).
 */
export interface PublicFileLink {
  url: string;
  expiresAt: string;
}

/** GET /api/files/{id}: inline by default (view); `download=1` asks for an attachment. */
export const fileDownloadQuerySchema = z.object({
  download: z.enum(['0', '1', 'true', 'false'], { error: 'download must be 1 or 0' }).optional(),
});

/** GET /api/public/files/{id}?token=… (the `url` of a PublicFileLink; no bearer token). */
export const publicFileQuerySchema = fileDownloadQuerySchema.extend({
  token: z.string().max(2000).optional(),
});

// ---------------------------------------------------------------- events

export const FILE_UPLOADED = 'file.uploaded';
export const FILE_DELETED = 'file.deleted';
/** Extraction finished (text stored, possibly empty); carries no content. */
export const FILE_CONTENT_EXTRACTED = 'file.content-extracted';
/** Internal to the files service: (re-)extract a stored file's content in the background. */
export const FILE_EXTRACTION_REQUESTED = 'file.extraction-requested';

/** Payload of file.uploaded and the base of file.deleted: the file as stored, names included. */
export type FileEvent = Omit<PortalFile, 'snippet' | 'processedAt' | 'filename'>;

/** Who deleted files no user asked to delete (they went with their client): not a user, never counted as one. */
export const SYSTEM_ACTOR = { id: 0, name: 'System' } as const;

export interface FileDeletedEvent extends FileEvent {
  /** The deleter's actorId, or SYSTEM_ACTOR.id. */
  deletedById: number;
  deletedByName: string;
  deletedAt: string;
}

export interface FileContentExtractedEvent { id: number; processedAt: string; characters: number }
export interface FileExtractionRequestedEvent { id: number }

// ---------------------------------------------------------------- internal: a file's text for the AI services

/**
 * GET on the files service's own port (never routed by the gateway), with the caller's
 * bearer token and tenant header: the file's text, if the caller may open the file
 * (DESIGN §7: chat and insights never read the files service's tables). `?have=` a
 * version the caller already holds leaves the text out when it is still current.
 */
export const fileTextPath = (fileId: number | string): string => `/internal/files/${fileId}/text`;

/**
 * Work no user waits on (the insights service reading a report when its text is extracted,
 * and nightly) sends, instead of a bearer token, a service assertion: a signed token (key
 * purpose below, derived from the portal's master key) binding `{ t: tenant, f: fileId }`.
 */
export const FILE_TEXT_ASSERTION_HEADER = 'x-portal-file-text-assertion';
export const FILE_TEXT_KEY_PURPOSE = 'file-text-access';
export interface FileTextAssertion extends Record<string, unknown> { t: string; f: number }

export interface FileText {
  file: Pick<PortalFile, 'id' | 'originalName' | 'clientId' | 'clientName' | 'fileType'>;
  /** When the text was extracted (the text's version); null while extraction has not run. */
  version: string | null;
  /** The extracted text ('' when the file had none); left out when `have` named this version. */
  text?: string;
}
