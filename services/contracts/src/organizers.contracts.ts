import { z } from 'zod';
import { idSchema, intSchema, isoDateSchema, textSchema } from './scalars.ts';
import { FIRM_COUNTRIES } from './firm-country.ts';

/*
 * Organizers (issue 42): a questionnaire a firm sends a client for a year's return. The
 * template is ours (the builder screen edits it); SurveyJS renders it in the browser and
 * validates it on the server, from the one JSON `organizerSurveyJson` makes of it, so the
 * page and the server agree on which questions show and which are required.
 */

export const ORGANIZER_STATUSES = ['draft', 'sent', 'in_progress', 'submitted', 'reviewed'] as const;
export type OrganizerStatus = (typeof ORGANIZER_STATUSES)[number];

export const QUESTION_TYPES = ['yes_no', 'text', 'number', 'money', 'date', 'single_choice', 'multiple_choice', 'group', 'file'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** A repeating group's fields: no groups within groups, no uploads inside a row. */
export const GROUP_FIELD_TYPES = ['yes_no', 'text', 'number', 'money', 'date', 'single_choice', 'multiple_choice'] as const;

export const ORGANIZER_DEFAULTS = { reminderEveryDays: 3, maxSections: 40, maxQuestionsPerSection: 60, maxChoices: 50, maxGroupRows: 30 } as const;

export const ORGANIZER_MESSAGES = {
  organizerNotFound: 'Organizer not found',
  templateNotFound: 'Organizer template not found',
  templatesDenied: 'Only Admin and DTA users can manage organizer templates.',
  clientsCannotManage: 'Access denied. Client users cannot manage organizers.',
  notOpenForAnswers: 'This organizer was submitted: ask the firm to reopen it to change an answer.',
  notSubmitted: 'Only a submitted organizer can be marked reviewed or reopened.',
  incomplete: 'Some required questions are not answered yet.',
  duplicateQuestionId: 'Each question id may appear once in a template',
  conditionForward: 'A condition may only look at a question asked earlier',
  choicesRequired: 'Single and multiple choice questions need at least one choice',
  fieldsRequired: 'A repeating group needs at least one field',
  builtInReadOnly: 'A shipped template cannot be changed: copy it and edit the copy.',
  templateInUse: 'This template has organizers: it can no longer be deleted.',
  alreadyExists: 'This client already has an organizer from this template for that year.',
  submitted: 'Thank you: your answers were sent to the firm.',
  sent: 'The client has been notified.',
  templateDeleted: 'Template deleted',
  notAFileQuestion: 'questionId must name a file question of this organizer',
  fileNotUploaded: 'A file answer may only name files uploaded to this organizer for that question.',
} as const;

/** One pattern, which also keeps out control characters: a schema of two patterns is hard to generate for (the fuzz stage). */
const questionIdSchema = (field: string) =>
  z.string({ error: `${field} must be text` }).regex(/^[a-z][a-z0-9_]{0,59}$/, `${field} must start with a letter, use only a-z, 0-9 and _, and be at most 60 characters`);
const label = (field: string, max = 300) => textSchema(field, max).trim().min(1, `${field} is required`);
const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));

/**
 * Shows a question or section only when an earlier answer says so: a yes/no answer is
 * `true`/`false`, a single choice its text; `includes` is for a multiple choice.
 */
export const conditionSchema = z.union([
  z.object({ questionId: questionIdSchema('showIf.questionId'), equals: z.union([z.boolean(), textSchema('showIf.equals', 300)]) }).strict(),
  z.object({ questionId: questionIdSchema('showIf.questionId'), includes: textSchema('showIf.includes', 300) }).strict(),
]);
export type OrganizerCondition = z.output<typeof conditionSchema>;

/** Answered a given way, the question adds a document request item on submit ("1099-B from your broker"). */
export const requestItemRuleSchema = z.object({
  when: z.union([z.boolean(), textSchema('requestItem.when', 300)]),
  title: label('requestItem.title', 200),
  description: optionalText('requestItem.description', 2000),
}).strict();
export type RequestItemRule = z.output<typeof requestItemRuleSchema>;

const baseQuestion = {
  id: questionIdSchema('question id'),
  title: label('question title', 500),
  help: optionalText('help', 2000),
  required: z.boolean().default(false),
  choices: z.array(label('choice', 300)).max(ORGANIZER_DEFAULTS.maxChoices).optional(),
  /** Bank account and routing numbers, a dependant's SSN: stored encrypted, masked outside the organizer. */
  sensitive: z.boolean().default(false),
  showIf: conditionSchema.nullish(),
};

// Strict, like every part of a template: the OpenAPI says so (no other keys), and a key the
// schema does not know is a 400 naming it instead of being dropped without a word.
export const groupFieldSchema = z.object({ ...baseQuestion, type: z.enum(GROUP_FIELD_TYPES, { error: `type must be one of ${GROUP_FIELD_TYPES.join(', ')}` }) }).strict();
export type OrganizerGroupField = z.output<typeof groupFieldSchema>;

export const questionSchema = z.object({
  ...baseQuestion,
  type: z.enum(QUESTION_TYPES, { error: `type must be one of ${QUESTION_TYPES.join(', ')}` }),
  fields: z.array(groupFieldSchema).max(30).optional(),
  requestItem: requestItemRuleSchema.nullish(),
}).strict();
export type OrganizerQuestion = z.output<typeof questionSchema>;

export const sectionSchema = z.object({
  id: questionIdSchema('section id'),
  title: label('section title', 200),
  description: optionalText('section description', 2000),
  showIf: conditionSchema.nullish(),
  questions: z.array(questionSchema).min(1, 'A section needs at least one question').max(ORGANIZER_DEFAULTS.maxQuestionsPerSection),
}).strict();
export type OrganizerSection = z.output<typeof sectionSchema>;

export const organizerTemplateInputSchema = z.object({
  name: label('name', 200),
  reportTypeId: idSchema('reportTypeId').nullish(),
  jurisdiction: z.enum(FIRM_COUNTRIES, { error: `jurisdiction must be one of ${FIRM_COUNTRIES.join(', ')}` }).nullish(),
  description: optionalText('description', 2000),
  sections: z.array(sectionSchema).min(1, 'A template needs at least one section').max(ORGANIZER_DEFAULTS.maxSections),
}).superRefine((template, ctx) => {
  for (const problem of templateProblems(template.sections)) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path });
});
export type OrganizerTemplateInput = z.output<typeof organizerTemplateInputSchema>;

/** Rules a schema per field cannot see: unique ids, conditions looking back, choices and fields present. */
export function templateProblems(sections: readonly OrganizerSection[]): { message: string; path: (string | number)[] }[] {
  const problems: { message: string; path: (string | number)[] }[] = [];
  const asked = new Set<string>();
  const seen = new Set<string>();
  sections.forEach((section, s) => {
    if (section.showIf && !asked.has(section.showIf.questionId)) problems.push({ message: ORGANIZER_MESSAGES.conditionForward, path: ['sections', s, 'showIf'] });
    section.questions.forEach((question, q) => {
      const path = ['sections', s, 'questions', q];
      if (seen.has(question.id)) problems.push({ message: ORGANIZER_MESSAGES.duplicateQuestionId, path: [...path, 'id'] });
      seen.add(question.id);
      if (question.showIf && !asked.has(question.showIf.questionId)) problems.push({ message: ORGANIZER_MESSAGES.conditionForward, path: [...path, 'showIf'] });
      if (isChoice(question.type) && !question.choices?.length) problems.push({ message: ORGANIZER_MESSAGES.choicesRequired, path: [...path, 'choices'] });
      if (question.type === 'group') {
        if (!question.fields?.length) problems.push({ message: ORGANIZER_MESSAGES.fieldsRequired, path: [...path, 'fields'] });
        const fieldIds = new Set<string>();
        question.fields?.forEach((field, f) => {
          if (fieldIds.has(field.id)) problems.push({ message: ORGANIZER_MESSAGES.duplicateQuestionId, path: [...path, 'fields', f, 'id'] });
          fieldIds.add(field.id);
          if (isChoice(field.type) && !field.choices?.length) problems.push({ message: ORGANIZER_MESSAGES.choicesRequired, path: [...path, 'fields', f, 'choices'] });
        });
      }
      asked.add(question.id);
    });
  });
  return problems;
}

const isChoice = (type: string): boolean => type === 'single_choice' || type === 'multiple_choice';

/** What the template list and editor read. `builtIn` names a shipped template (read-only; copy it to change it). */
export interface OrganizerTemplate extends OrganizerTemplateInput {
  id: number;
  builtIn: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An answer per question id; a group's answer is its rows; a file question's answer is the files uploaded for it. */
export type OrganizerAnswers = Record<string, unknown>;
export interface OrganizerFileAnswer { fileId: number; name: string }

/**
 * The text fields of a file question's upload (POST organizers/{id}/files, multipart): the
 * question it answers, sent before the `file` part.
 */
export const organizerUploadFieldsSchema = z.object({ questionId: questionIdSchema('questionId') });

export const answersSchema = z.object({
  answers: z.record(questionIdSchema('answer key'), z.unknown(), { error: 'answers must be an object keyed by question id' }),
});

const reminderEveryDays = intSchema('reminderEveryDays', 1, 30);

export const organizerInputSchema = z.object({
  clientId: idSchema('clientId'),
  templateId: idSchema('templateId'),
  year: intSchema('year', 2000, 2100),
  title: optionalText('title', 200),
  message: optionalText('message', 5000),
  dueDate: isoDateSchema('dueDate'),
  reminderEveryDays: reminderEveryDays.default(ORGANIZER_DEFAULTS.reminderEveryDays),
  reportTypeId: idSchema('reportTypeId').nullish(),
  trackerItemId: idSchema('trackerItemId').nullish(),
  sendNow: z.boolean().default(false),
});
export type OrganizerInput = z.output<typeof organizerInputSchema>;

/** PATCH: edit, send (`status: 'sent'` from draft) or mark reviewed (`status: 'reviewed'` from submitted). */
export const organizerUpdateSchema = z.object({
  title: optionalText('title', 200).optional(),
  message: optionalText('message', 5000).optional(),
  dueDate: isoDateSchema('dueDate').optional(),
  reminderEveryDays: reminderEveryDays.optional(),
  status: z.enum(['sent', 'reviewed'], { error: 'status must be sent or reviewed' }).optional(),
});
export type OrganizerUpdate = z.output<typeof organizerUpdateSchema>;

export const organizerListQuerySchema = z.object({
  clientId: idSchema('clientId').optional(),
  year: intSchema('year', 2000, 2100).optional(),
  status: z.enum(ORGANIZER_STATUSES, { error: `status must be one of ${ORGANIZER_STATUSES.join(', ')}` }).optional(),
  limit: intSchema('limit', 1, 500).default(100),
  offset: intSchema('offset', 0, 1_000_000).default(0),
});
export type OrganizerListQuery = z.output<typeof organizerListQuerySchema>;

/** POST /api/{t}/compliance-tracker/{id}/organizer (answered by compliance, made by requests). */
export const trackerOrganizerInputSchema = z.object({
  templateId: idSchema('templateId').nullish(),
  dueDate: isoDateSchema('dueDate').nullish(),
  reminderEveryDays: reminderEveryDays.default(ORGANIZER_DEFAULTS.reminderEveryDays),
  sendNow: z.boolean().default(true),
});

export interface OrganizerSummary {
  id: number;
  clientId: number;
  clientName: string;
  templateId: number;
  templateName: string;
  year: number;
  title: string;
  status: OrganizerStatus;
  dueDate: string;
  reportTypeId: number | null;
  trackerItemId: number | null;
  /** The document request its answers added items to, once submitted. */
  requestId: number | null;
  /** The answers' PDF filed as a report of the client, once submitted. */
  reportFileId: number | null;
  answeredCount: number;
  questionCount: number;
  sentAt: string | null;
  submittedAt: string | null;
  reviewedAt: string | null;
  updatedAt: string;
}

/** GET /organizers/{id}: the template as it was sent (later edits to the template do not change it) and the answers so far. */
export interface OrganizerDetail extends OrganizerSummary {
  message: string | null;
  reminderEveryDays: number;
  sections: OrganizerSection[];
  answers: OrganizerAnswers;
  /** Answers copied from last year's organizer from the same template, when there was one. */
  prefilledFromId: number | null;
  currency: string | null;
}

/** Organizer events (outbox), for activity, pushes and the tracker's automatic stage moves. */
export const ORGANIZER_EVENTS = {
  sent: 'organizer.sent',
  submitted: 'organizer.submitted',
  reopened: 'organizer.reopened',
  reviewed: 'organizer.reviewed',
  /** A link to the organizer no longer opens it; the organizer itself is unchanged. */
  linkRevoked: 'organizer.link_revoked',
} as const;

/** A masked view of a sensitive answer, for the PDF and anything outside the organizer: "•••• 6789". */
export function maskSensitive(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text.length <= 4 ? '••••' : `•••• ${text.slice(-4)}`;
}

type SurveyElement = Record<string, unknown>;

/**
 * The SurveyJS JSON of a template: one page per section, our question types mapped to
 * SurveyJS's, our conditions as its `visibleIf` expressions. The browser renders it and the
 * server validates answers against it, so both read the same rules.
 */
export function organizerSurveyJson(sections: readonly OrganizerSection[], options: { currency?: string | null } = {}): SurveyElement {
  return {
    showQuestionNumbers: 'off',
    checkErrorsMode: 'onComplete',
    pages: sections.map((section) => ({
      name: section.id,
      title: section.title,
      ...(section.description ? { description: section.description } : {}),
      ...(section.showIf ? { visibleIf: conditionExpression(section.showIf) } : {}),
      elements: section.questions.map((question) => surveyElement(question, options.currency ?? null)),
    })),
  };
}

function surveyElement(question: OrganizerQuestion | OrganizerGroupField, currency: string | null): SurveyElement {
  const common: SurveyElement = {
    name: question.id,
    title: question.title,
    isRequired: question.required,
    ...(question.help ? { description: question.help } : {}),
    ...(question.showIf ? { visibleIf: conditionExpression(question.showIf) } : {}),
  };
  switch (question.type) {
    case 'yes_no': return { ...common, type: 'boolean', renderAs: 'radio', labelTrue: 'Yes', labelFalse: 'No' };
    case 'text': return { ...common, type: 'text' };
    case 'number': return { ...common, type: 'text', inputType: 'number' };
    case 'money': return { ...common, type: 'text', inputType: 'number', min: 0, step: 0.01, ...(currency ? { title: `${question.title} (${currency})` } : {}) };
    case 'date': return { ...common, type: 'text', inputType: 'date' };
    case 'single_choice': return { ...common, type: 'radiogroup', choices: question.choices ?? [] };
    case 'multiple_choice': return { ...common, type: 'checkbox', choices: question.choices ?? [] };
    case 'file': return { ...common, type: 'file', allowMultiple: true, storeDataAsText: false, waitForUpload: true };
    case 'group': {
      const fields = 'fields' in question ? question.fields ?? [] : [];
      return {
        ...common,
        type: 'paneldynamic',
        templateElements: fields.map((field) => surveyElement(field, currency)),
        panelCount: 0,
        maxPanelCount: ORGANIZER_DEFAULTS.maxGroupRows,
        panelAddText: 'Add',
        panelRemoveText: 'Remove',
      };
    }
  }
}

/** SurveyJS's expression for a condition; quotes in a choice's text are escaped. */
export function conditionExpression(condition: OrganizerCondition): string {
  const literal = (value: string | boolean) => (typeof value === 'boolean' ? String(value) : `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`);
  return 'equals' in condition
    ? `{${condition.questionId}} = ${literal(condition.equals)}`
    : `{${condition.questionId}} contains ${literal(condition.includes)}`;
}

/** The payload of every ORGANIZER_EVENTS event: the organizer as the change leaves it. */
export interface OrganizerChanged {
  organizerId: number;
  clientId: number;
  clientName: string;
  title: string;
  year: number;
  status: OrganizerStatus;
  reportTypeId: number | null;
  trackerItemId: number | null;
  /** The document request the submitted answers added items to (submitted only). */
  requestId: number | null;
  /**
   * Submitted: whether documents are still outstanding on the client's open request for the
   * same tracker item (its own request included), so the tracker keeps the item waiting on the
   * client without waiting for the request's events (the bus keeps no order between them).
   */
  documentsOutstanding?: boolean;
  actorId: number;
  actorName: string;
}

/** What ORGANIZER_PUSH (organizers.constants.ts) carries to the user rooms of those who reach the organizer. */
export interface OrganizerPush {
  organizerId: number;
  clientId: number;
  trackerItemId: number | null;
  title: string;
  status: OrganizerStatus;
  /** The event's type (ORGANIZER_EVENTS). */
  event: string;
  actorName: string;
}

/**
 * The requests service's internal call behind POST /compliance-tracker/{id}/organizer
 * (service port only, the caller's bearer token): compliance has checked the item is within
 * the caller's reach and says what the organizer is for.
 */
export const TRACKER_ORGANIZER_PATH = '/internal/tracker-organizers';
export const trackerOrganizerInternalSchema = trackerOrganizerInputSchema.extend({
  trackerItemId: idSchema('trackerItemId'),
  clientId: idSchema('clientId'),
  reportTypeId: idSchema('reportTypeId'),
  reportTypeName: textSchema('reportTypeName', 200),
  period: textSchema('period', 100),
  year: intSchema('year', 2000, 2100),
  itemDueDate: isoDateSchema('itemDueDate'),
  daysBefore: intSchema('daysBefore', 0, 365),
});
export type TrackerOrganizerInternal = z.output<typeof trackerOrganizerInternalSchema>;

/**
 * Organizer links (the link form for people without an account): the kit's link-token scheme
 * as document requests use it; the public page lives at `/organizer/{token}` and calls
 * `/api/public/organizers/{token}` (GET the organizer, PUT …/answers, POST …/submit).
 */
export const ORGANIZER_LINK_MESSAGES = {
  linkNotFound: 'Organizer link not found',
  linkGone: 'This link has expired or was revoked. Ask the firm for a new one.',
  organizerDone: 'This organizer was already submitted: thank you.',
  linkRevoked: 'Link revoked',
} as const;
export const ORGANIZER_PUBLIC_PAGE_PREFIX = '/organizer/';
export const organizerLinkInputSchema = z.object({
  email: textSchema('email', 320).trim().email('email must be an e-mail address').nullish(),
  expiresInDays: intSchema('expiresInDays', 1, 90).nullish(),
});
export interface CreatedOrganizerLink { id: number; url: string; expiresAt: string }
/** GET /api/public/organizers/{token}: the organizer as its client sees it, with the firm's name. */
export interface PublicOrganizer extends OrganizerDetail { firmName: string }
