import { z } from 'zod';
import { idSchema, intSchema, isoDateSchema, textSchema } from './scalars.ts';

/*
 * E-signatures (issue 41): a firm asks named signers to sign one or more PDFs of a client;
 * each signer consents, views, adopts a signature, fills their fields and confirms after an
 * identity check the firm chose; the finished PDF carries a certificate of completion and
 * the installation's seal, and becomes a report of the client.
 */

export const SIGNATURE_STATUSES = ['draft', 'sent', 'completed', 'declined', 'voided', 'expired'] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];
export const SIGNER_STATUSES = ['pending', 'signed', 'declined'] as const;
export type SignerStatus = (typeof SIGNER_STATUSES)[number];
export const FIELD_TYPES = ['signature', 'initials', 'date', 'text', 'checkbox'] as const;
export type SignatureFieldType = (typeof FIELD_TYPES)[number];
export const IDENTITY_METHODS = ['sign_in_second_factor', 'knowledge', 'provider'] as const;
export type IdentityMethod = (typeof IDENTITY_METHODS)[number];

export const SIGNATURE_LIMITS = {
  documents: 10, signers: 10, fields: 200, knowledgeQuestions: 5,
  /** Wrong knowledge answers before the signer is locked out (the firm must void and resend). */
  knowledgeAttempts: 3,
  /** Wrong e-mailed codes before the code is spent (a new one can be asked for). */
  codeAttempts: 5,
  codeMinutes: 10,
  /** Link lifetime when the request has no due date. */
  linkDays: 30,
  /** A drawn signature's PNG (base64) at most. */
  drawnBytes: 200_000,
} as const;

/**
 * The ESIGN Act §101(c) consumer disclosure a signer accepts before signing (15 U.S.C.
 * 7001(c)(1)): the right to paper, the right to withdraw and its consequences, the scope of
 * the consent, how to update contact details and get a paper copy, and the hardware and
 * software needed. Versioned: the record keeps which text was accepted.
 */
export const ESIGN_DISCLOSURE_VERSION = '2027-01';
export const ESIGN_DISCLOSURE = [
  'You may receive and sign these documents on paper instead. To ask for paper copies, or to sign on paper, contact the firm that sent them; there is no fee.',
  'Your consent applies to the documents of this signature request only.',
  'You may withdraw your consent at any time before you sign by declining to sign; the firm will then arrange paper signing with you. Withdrawing does not undo documents you already signed electronically.',
  'To update your e-mail address, or to ask for a paper copy of a signed document after signing, contact the firm.',
  'To view and sign you need a current web browser (with JavaScript), a PDF reader to keep the signed copy, and an e-mail address you can read. Agreeing confirms you can open these documents and receive e-mail at the address the firm used.',
] as const;

export const SIGNATURE_MESSAGES = {
  notFound: 'Signature request not found',
  clientsCannotManage: 'Access denied. Client users cannot manage signature requests.',
  notDraft: 'Only a draft can be edited; void the request instead.',
  notSent: 'This signature request is not waiting for signatures.',
  cannotDelete: 'Only a draft, voided, declined or expired request can be deleted.',
  documentNotOfClient: 'Each document must be a PDF file of this client that you can see.',
  notPdf: 'This document is not a readable PDF.',
  fieldOutsidePage: 'A field lies outside its page, or on a page the document does not have.',
  fieldSigner: 'A field names a signer the request does not have.',
  noFieldsForSigner: 'Every signer needs at least one signature field.',
  signerNeedsUserOrEmail: 'A signer needs a userId, or a name and an e-mail address.',
  signerNotClientUser: 'A signer with a userId must be a Client user of this client.',
  knowledgeNeeded: 'With the knowledge check, every signer needs at least one question and answer.',
  providerUnavailable: 'No identity verification provider is configured on this installation, so the provider check is unavailable.',
  linkGone: 'This signing link has expired, was used, or the request is no longer open.',
  notYourTurn: 'Another signer signs first. You will be e-mailed when it is your turn.',
  alreadyDone: 'You have already signed or declined this request.',
  consentFirst: 'Agree to sign electronically first.',
  viewFirst: 'Open the documents before signing.',
  identityFirst: 'Confirm your identity first.',
  codeWrong: 'That code is not correct or has expired. Ask for a new code.',
  totpSignedInOnly: 'An authenticator code works only when you sign in the portal: use the e-mailed code.',
  totpNotForThisCheck: 'This request does not use a second factor: answer its identity check instead.',
  knowledgeWrong: 'The answers do not match what the firm has on record.',
  lockedOut: 'Too many wrong answers: identity checks for this signer are locked. Contact the firm.',
  fieldsMissing: 'Fill in every required field.',
  fieldValue: 'A field value does not fit its field type.',
  notSigner: 'You are not a signer of this request.',
  notCompleted: 'The signed document exists once every signer has signed.',
  adminsOnlyRelease: 'Only Admin users can hold a signed document until payment.',
  releaseInvoiceNotFound: 'Invoice not found among the sent invoices of this client',
  releaseInvoicePaid: 'That invoice is paid already: nothing to wait for',
  releaseInvoiceVoid: 'That invoice is void: nothing would release the document',
  voided: 'Signature request voided',
  deleted: 'Signature request deleted',
  sent: 'The signers have been e-mailed.',
  reminded: 'The signers who have not signed yet have been e-mailed again.',
  documentsNeeded: 'A request needs at least one document',
  roleNeeded: 'Every signer needs a role (taxpayer, spouse, officer…), or a template that names it.',
  templateNotFound: 'Signature template not found',
  templatesDenied: 'Access denied. Only an Admin or a DTA manages signature templates.',
  templateDeleted: 'Signature template deleted',
  templateNotFirmDocument: 'A template\'s PDF must be one of the firm\'s documents (Firm documents) that you can see.',
  unknownMergeFields: 'Unknown merge fields',
  missingMergeValues: 'Fill in the merge fields',
  feeNotAmount: 'fee must be an amount of money, such as 1500 or 1500.50',
  codeSent: 'A code is on its way to your e-mail address.',
  tooManyAttempts: 'Too many requests from this address or link. Try again in a minute.',
} as const;

const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));
const requiredText = (field: string, max: number) => textSchema(field, max).trim().min(1, `${field} is required`);
const email = (field: string) => requiredText(field, 254).pipe(z.email({ error: `${field} must be an e-mail address` }));
const points = (field: string) => z.number({ error: `${field} must be a number of points` }).min(0, `${field} must not be negative`).max(14_400, `${field} is too large`);

export const signerInputSchema = z.object({
  userId: idSchema('userId').nullish(),
  name: optionalText('name', 200),
  email: email('email').nullish(),
  /** Required unless a template names the role of the signer at this position. */
  role: optionalText('role', 60),
  order: intSchema('order', 1, 10).optional(),
  /** For the knowledge check: questions and the answers the firm holds (compared ignoring case, spaces and punctuation). */
  knowledge: z.array(z.object({ question: requiredText('question', 200), answer: requiredText('answer', 200) })).max(SIGNATURE_LIMITS.knowledgeQuestions).optional(),
});
export type SignerInput = z.output<typeof signerInputSchema>;

export const fieldInputSchema = z.object({
  documentIndex: intSchema('documentIndex', 0, SIGNATURE_LIMITS.documents - 1),
  /** 1-based page number. */
  page: intSchema('page', 1, 10_000),
  /** Points from the page's top-left corner. */
  x: points('x'), y: points('y'), width: points('width'), height: points('height'),
  type: z.enum(FIELD_TYPES, { error: `type must be one of ${FIELD_TYPES.join(', ')}` }),
  signerIndex: intSchema('signerIndex', 0, SIGNATURE_LIMITS.signers - 1),
  required: z.boolean().default(true),
  label: optionalText('label', 100),
});
export type FieldInput = z.output<typeof fieldInputSchema>;

const signatureRequestFields = {
  clientId: idSchema('clientId'),
  title: requiredText('title', 200),
  message: optionalText('message', 2000),
  dueDate: isoDateSchema('dueDate').nullish(),
  reminderEveryDays: intSchema('reminderEveryDays', 1, 30).nullish(),
  reportTypeId: idSchema('reportTypeId'),
  trackerItemId: idSchema('trackerItemId').nullish(),
  /** Files of the client to sign; may be left out when a template brings the document (its PDF, or its letter rendered). */
  documents: z.array(z.object({ fileId: idSchema('fileId') })).max(SIGNATURE_LIMITS.documents).default([]),
  signers: z.array(signerInputSchema).min(1, 'A request needs at least one signer').max(SIGNATURE_LIMITS.signers),
  fields: z.array(fieldInputSchema).max(SIGNATURE_LIMITS.fields).default([]),
  identity: z.enum(IDENTITY_METHODS, { error: `identity must be one of ${IDENTITY_METHODS.join(', ')}` }),
  /** The signed PDF is filed held until this sent, unpaid invoice of the client is paid (issue 43; Admin); null: filed released. */
  releaseOnPaymentOf: idSchema('releaseOnPaymentOf').nullish(),
};

/*
 * Templates (issue 41): an engagement letter (a letter body with merge fields, rendered to a
 * PDF when a request is made, or a PDF of the firm's documents) or a saved field placement
 * for a form the firm's tax software prints (the 8879), re-used on each new upload.
 */
export const SIGNATURE_TEMPLATE_KINDS = ['engagement_letter', 'form_placement'] as const;
export type SignatureTemplateKind = (typeof SIGNATURE_TEMPLATE_KINDS)[number];
/** The merge fields a letter body may use, written {{client.name}}. */
export const MERGE_FIELDS = ['client.name', 'client.address', 'tax_year', 'fee', 'firm.name', 'date'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
/** Merge fields the portal fills itself; the others come from the request's mergeValues. */
export const AUTOMATIC_MERGE_FIELDS: readonly MergeField[] = ['client.name', 'client.address', 'firm.name', 'date'];
export const MERGE_FIELD_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The merge fields a text uses, in order of first use (known or not). */
export function mergeFieldsOf(text: string): string[] {
  return [...new Set([...text.matchAll(MERGE_FIELD_PATTERN)].map((m) => m[1]!))];
}
export const unknownMergeFields = (names: readonly string[]): string[] => names.filter((n) => !(MERGE_FIELDS as readonly string[]).includes(n));

export const templateSignerSchema = z.object({ role: requiredText('role', 60), order: intSchema('order', 1, 10).default(1) });

export const signatureTemplateInputSchema = z.object({
  name: requiredText('name', 200),
  reportTypeId: idSchema('reportTypeId').nullish(),
  kind: z.enum(SIGNATURE_TEMPLATE_KINDS, { error: `kind must be one of ${SIGNATURE_TEMPLATE_KINDS.join(', ')}` }),
  /** A PDF of the firm's documents (fileType firm_document); copied into the template when saved. */
  fileId: idSchema('fileId').nullish(),
  /** An engagement letter's text, with merge fields such as {{client.name}}. */
  body: optionalText('body', 20_000),
  signers: z.array(templateSignerSchema).min(1, 'A template needs at least one signer role').max(SIGNATURE_LIMITS.signers),
  /** Field placements on the template's PDF, or on each new upload of a form (documentIndex 0). A letter body places its own. */
  fields: z.array(fieldInputSchema).max(SIGNATURE_LIMITS.fields).default([]),
}).superRefine((v, ctx) => {
  if (v.kind === 'engagement_letter' && !v.body === !v.fileId) ctx.addIssue({ code: 'custom', path: ['body'], message: 'An engagement letter needs either a letter body or a PDF (fileId), not both.' });
  if (v.kind === 'form_placement' && v.body) ctx.addIssue({ code: 'custom', path: ['body'], message: 'A form placement has no letter body.' });
  if (v.kind === 'form_placement' && !v.fields.length) ctx.addIssue({ code: 'custom', path: ['fields'], message: 'A form placement needs at least one field.' });
  if (v.body && v.fields.length) ctx.addIssue({ code: 'custom', path: ['fields'], message: 'A letter body places its signature and date fields itself; give fields only with a PDF.' });
  if (v.fields.some((f) => f.signerIndex >= v.signers.length)) ctx.addIssue({ code: 'custom', path: ['fields'], message: SIGNATURE_MESSAGES.fieldSigner });
  const unknown = v.body ? unknownMergeFields(mergeFieldsOf(v.body)) : [];
  if (unknown.length) ctx.addIssue({ code: 'custom', path: ['body'], message: `${SIGNATURE_MESSAGES.unknownMergeFields}: ${unknown.join(', ')}` });
});
export type SignatureTemplateInput = z.output<typeof signatureTemplateInputSchema>;

export interface SignatureTemplate {
  id: number;
  name: string;
  reportTypeId: number | null;
  kind: SignatureTemplateKind;
  fileId: number | null;
  fileName: string | null;
  /** Pages of the template's PDF (null for a letter body, whose length depends on its merge values). */
  pages: number | null;
  body: string | null;
  /** The merge fields the body uses. */
  mergeFields: string[];
  signers: { role: string; order: number }[];
  fields: FieldInput[];
  createdByName: string;
  updatedAt: string;
}

/** Values of the merge fields the portal does not fill itself ({ tax_year: '2026', fee: 1500 }); any may also override. */
export const mergeValuesSchema = z.record(
  z.string().max(40, 'merge field names are short'),
  z.union([textSchema('merge value', 500), z.number({ error: 'merge values are text or numbers' }).finite()]),
).refine((v) => Object.keys(v).length <= 20, 'Too many merge values');

/** POST /signature-templates/{id}/preview: the document a request from the template would sign, for this client and these values. */
export const signatureTemplatePreviewSchema = z.object({
  clientId: idSchema('clientId'),
  title: optionalText('title', 200),
  mergeValues: mergeValuesSchema.optional(),
});

export const signatureRequestInputSchema = z.object({
  ...signatureRequestFields,
  sendNow: z.boolean().default(false),
  /** Build the document (when documents are left out), the signer roles and the fields (when fields are left out) from a template. */
  templateId: idSchema('templateId').nullish(),
  mergeValues: mergeValuesSchema.optional(),
});
export type SignatureRequestInput = z.output<typeof signatureRequestInputSchema>;

/** POST /compliance-tracker/{id}/signature-request: the item gives the client, report type and link; the title defaults to its return and period. */
export const trackerSignatureRequestInputSchema = signatureRequestInputSchema
  .omit({ clientId: true, reportTypeId: true, trackerItemId: true })
  .extend({ title: optionalText('title', 200) });

/** PATCH: edit a draft (any of the fields; clientId stays), or void a sent request. */
export const signatureRequestUpdateSchema = z.object(signatureRequestFields).omit({ clientId: true }).partial().extend({
  documents: z.array(z.object({ fileId: idSchema('fileId') })).min(1, SIGNATURE_MESSAGES.documentsNeeded).max(SIGNATURE_LIMITS.documents).optional(),
  status: z.literal('voided', { error: 'status can only be set to voided' }).optional(),
  voidReason: optionalText('voidReason', 500),
});
export type SignatureRequestUpdate = z.output<typeof signatureRequestUpdateSchema>;

export const signatureListQuerySchema = z.object({
  clientId: idSchema('clientId').optional(),
  status: z.enum(SIGNATURE_STATUSES, { error: 'unknown status' }).optional(),
  limit: intSchema('limit', 1, 500).default(100),
  offset: intSchema('offset', 0, 1_000_000).default(0),
});
export type SignatureListQuery = z.output<typeof signatureListQuerySchema>;

/* Signer steps (signed-in: /api/signature-requests/{id}/signing/…; link: /api/public/signing/{token}/…). */

export const declineSchema = z.object({ reason: requiredText('reason', 1000) });
export const identityAnswerSchema = z.object({
  /** The e-mailed code (sign_in_second_factor). */
  code: z.string().trim().regex(/^\d{6}$/, 'code must be 6 digits').optional(),
  /** A fresh code of the signer's authenticator app (sign_in_second_factor, signed-in Client users whose factors include totp). */
  totp: z.string().trim().regex(/^\d{6}$/, 'totp must be 6 digits').optional(),
  /** Answers in the order of the questions (knowledge). */
  answers: z.array(textSchema('answer', 200)).max(SIGNATURE_LIMITS.knowledgeQuestions).optional(),
});
export const adoptionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('typed'), text: requiredText('text', 100) }),
  z.object({ kind: z.literal('drawn'), png: z.string().max(SIGNATURE_LIMITS.drawnBytes, 'the drawing is too large').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'png must be base64') }),
], { error: 'kind must be typed or drawn' });
export type Adoption = z.output<typeof adoptionSchema>;
export const signSchema = z.object({
  adoption: adoptionSchema,
  /** Values of this signer's date/text/checkbox fields by their index in the request's fields (signature and initials take the adoption). */
  values: z.record(z.string().regex(/^\d{1,3}$/, 'values are keyed by field index'), z.union([textSchema('value', 500), z.boolean()])).default({}),
  /** The signer confirms: "I agree this is my signature". */
  confirm: z.literal(true, { error: 'Confirm that you sign' }),
});
export type SignInput = z.output<typeof signSchema>;

export interface SignatureField extends FieldInput { index: number }

export interface SignerView {
  index: number;
  userId: number | null;
  name: string;
  email: string;
  role: string;
  order: number;
  status: SignerStatus;
  viewedAt: string | null;
  consentedAt: string | null;
  identityVerifiedAt: string | null;
  signedAt: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  identityResult: string | null;
  address: string | null;
  browser: string | null;
  lockedOut: boolean;
  /** Staff only: how many knowledge questions the firm entered (answers are never shown). */
  knowledgeQuestions: number;
}

export interface SignatureEvent { at: string; action: string; signerIndex: number | null; actor: string; detail: string | null; address: string | null }

export interface SignatureRequest {
  id: number;
  clientId: number;
  clientName: string;
  title: string;
  message: string | null;
  status: SignatureStatus;
  dueDate: string | null;
  reminderEveryDays: number | null;
  reportTypeId: number;
  trackerItemId: number | null;
  identity: IdentityMethod;
  /** fileId: the file the document was copied from (null for a letter rendered from a template). */
  documents: { fileId: number | null; name: string; sha256: string; pages: number }[];
  signers: SignerView[];
  fields: SignatureField[];
  createdById: number;
  createdByName: string;
  createdAt: string;
  sentAt: string | null;
  completedAt: string | null;
  voidReason: string | null;
  signedFileId: number | null;
  signedSha256: string | null;
  /** The invoice whose payment releases the signed PDF to the client, and its number; null when it is filed released. */
  releaseOnPaymentOf: number | null;
  releaseInvoiceNumber: string | null;
  events: SignatureEvent[];
}

export type SignatureRequestSummary = Omit<SignatureRequest, 'fields' | 'events' | 'documents'> & { documentCount: number };

/** What a signer sees of a request (their own steps and fields; other signers by name, role and status only). */
/** The fresh second factors a signer may prove at the moment of signing. */
export type SignerFactor = 'totp' | 'email';
/** What the certificate and audit trail call an authenticator code's identity check. */
export const TOTP_IDENTITY_METHOD = 'authenticator app (TOTP)';

export interface SigningView {
  requestId: number;
  firmName: string;
  title: string;
  message: string | null;
  status: SignatureStatus;
  identity: IdentityMethod;
  disclosure: { version: string; paragraphs: readonly string[] };
  you: Pick<SignerView, 'index' | 'name' | 'email' | 'role' | 'status' | 'viewedAt' | 'consentedAt' | 'identityVerifiedAt' | 'signedAt' | 'lockedOut'> & {
    yourTurn: boolean;
    /** sign_in_second_factor: how the signer may prove it (totp: a signed-in user with an authenticator app); empty for other checks. */
    factors: SignerFactor[];
  };
  knowledgeQuestions: string[];
  signers: Pick<SignerView, 'name' | 'role' | 'status' | 'order'>[];
  documents: { name: string; pages: number }[];
  fields: SignatureField[];
}

// ---------------------------------------------------------------- events and pushes

/**
 * Published through the outbox on every step of a request others follow: the activity log
 * records it, compliance moves a linked tracker item ("Ready to sign" on sending), and the
 * signatures service pushes it to the browsers of those who reach the client.
 */
export const SIGNATURE_REQUEST_CHANGED = 'signature-request.changed';
/** `filed`: the sealed PDF of a completed request became a report of the client (signedFileId). */
export const SIGNATURE_ACTIONS = ['sent', 'signed', 'completed', 'filed', 'declined', 'voided', 'expired'] as const;
export type SignatureAction = (typeof SIGNATURE_ACTIONS)[number];
export interface SignatureRequestChanged {
  requestId: number;
  title: string;
  clientId: number;
  clientName: string;
  reportTypeId: number;
  trackerItemId: number | null;
  action: SignatureAction;
  status: SignatureStatus;
  /** The signer who signed or declined (signed, declined). */
  signerName: string | null;
  /** Client users among the signers: of a client's users, only they follow the request. */
  signerUserIds: number[];
  /** When every signer had signed (completed, filed); absent on events older than the field. */
  completedAt?: string | null;
  /** The client's report holding the sealed PDF (filed). */
  signedFileId?: number | null;
  /** Who did it: a staff member, a signed-in signer, or the System (id 0) for a link signer's step and for completion. */
  actorId: number;
  actorName: string;
}

/**
 * A signer's identity check failed at signing (a wrong e-mailed code, wrong knowledge
 * answers, a provider's refusal) or locked them out: identity records it in the firm's
 * security events, beside sign-in failures. (A wrong authenticator code is identity's own
 * `second-factor-check-failed`.)
 */
export const SIGNING_IDENTITY_FAILED = 'signature.identity-failed';
export interface SigningIdentityFailed {
  requestId: number;
  title: string;
  /** The signer: a Client user's id, or null for a link signer (named by name and e-mail). */
  userId: number | null;
  signerName: string;
  signerEmail: string;
  /** What failed: 'e-mailed code', 'knowledge answers', or the provider's name. */
  check: string;
  lockedOut: boolean;
  address: string | null;
  browser: string | null;
}

export type SignaturePush = Pick<SignatureRequestChanged, 'requestId' | 'clientId' | 'trackerItemId' | 'title' | 'action' | 'status' | 'signerName'>;
