import { z } from 'zod';
import { CLIENT_JURISDICTIONS, CLIENT_REGISTRATIONS, ENTITY_TYPES, type ClientJurisdiction, type ClientRegistration } from './directory.contracts.ts';
import { DB_INT_MAX, idSchema, intSchema, isoDateSchema, isoInstantSchema, textSchema } from './scalars.ts';

/*
 * Compliance (spec 001 §2 Compliance page, §3 Compliance schedule and tracker item, §4 tracker
 * transitions, §5 schedule rules, §7 "Compliance", §8, §9 compliance constants), the statutory
 * presets, and the events the compliance service publishes and consumes.
 */

export const COMPLIANCE_FREQUENCIES = ['monthly', 'quarterly', 'yearly'] as const;
export type ComplianceFrequency = (typeof COMPLIANCE_FREQUENCIES)[number];
export const TRACKER_STATUSES = ['pending', 'filed', 'delayed', 'extended'] as const;
export type TrackerStatus = (typeof TRACKER_STATUSES)[number];

/** §9 compliance constants. */
export const COMPLIANCE_UPCOMING_DAYS = 30;
export const COMPLIANCE_WARNING_DAYS = 7;
export const COMPLIANCE_ITEMS_PER_DAY = 3;
export const COMPLIANCE_CLIENT_NAME_CHARS = 15;
export const DEFAULT_DUE_DAY = 15;
export const DEFAULT_REMINDER_DAYS = 7;
/** The years a schedule can be generated for (a typo such as 20270 is a 400, not a million rows later). */
export const GENERATION_YEARS = { min: 2000, max: 2100 } as const;

export const COMPLIANCE_MESSAGES = {
  clientId: 'clientId must be a valid id',
  reportTypeId: 'reportTypeId must be a valid id',
  frequency: `frequency must be one of ${COMPLIANCE_FREQUENCIES.join(', ')}`,
  dueDay: 'dueDayOfMonth must be a whole number from 1 to 31',
  reminderDays: 'reminderDays must be a whole number from 1 to 90',
  dueMonth: 'dueMonths must be month numbers from "1" to "12"',
  monthlyMonths: 'A monthly schedule has no due months',
  quarterlyMonths: 'A quarterly schedule needs at least one due month',
  yearlyMonths: 'A yearly schedule needs exactly one due month',
  status: `status must be one of ${TRACKER_STATUSES.join(', ')}`,
  year: `year must be a whole number from ${GENERATION_YEARS.min} to ${GENERATION_YEARS.max}`,
  rangeIncomplete: 'startDate and endDate go together',
  rangeReversed: 'endDate must not be before startDate',
  perDayNeedsRange: 'perDay needs startDate and endDate',
  perDayRangeTooLong: 'perDay ranges cover at most 100 days',
  scheduleNotFound: 'Compliance schedule not found',
  itemNotFound: 'Compliance item not found',
  presetNotFound: 'Compliance preset not found',
  clientIds: 'clientIds must be a non-empty list of client ids',
  assigneeNotStaff: 'Compliance items can only be assigned to staff users of this firm',
  clientsDenied: 'Access denied. Client users can only read their own compliance items.',
  presetDenied: 'Only an Admin or DTA can apply a statutory calendar.',
  periodLag: `periodLagMonths must be a whole number from ${-12} to 24`,
  filedInFuture: 'The filed date cannot be in the future',
  from: 'from must be a date (YYYY-MM-DD)',
  earlier: 'earlier must be skip or filed',
  earlierNeedsFrom: 'earlier=filed needs from: the day the firm took the work over',
  deleteItems: 'deleteItems must be pending or none',
  entryIds: 'entryIds must be ids of the calendar\'s entries',
  grantToUserIds: 'grantToUserIds must be a list of user ids',
  grantee: 'Report types can only be granted to CPAs and custom-role users of this firm',
  covers: 'covers must be due or before',
  extendedDueDate: 'extendedDueDate must be a date (YYYY-MM-DD)',
  extendedBeforeDue: 'extendedDueDate must not be before the due date',
  noExtensionRule: 'This item\'s schedule has no extension rule: give extendedDueDate',
  extendFiled: 'A filed item cannot be extended',
} as const;

/** The two periods a schedule made by hand may cover: that of its due date, or the one before it. */
export const PERIOD_CHOICES = ['due', 'before'] as const;
export type PeriodChoice = (typeof PERIOD_CHOICES)[number];

/** How far a period lag may reach: a year ahead (payments on account) to two years after. */
export const PERIOD_LAG_MONTHS = { min: -12, max: 24 } as const;

const month = z.union([z.string(), z.number()], { error: COMPLIANCE_MESSAGES.dueMonth })
  .transform((v) => String(v).trim())
  .refine((v) => /^(?:[1-9]|1[0-2])$/.test(v), COMPLIANCE_MESSAGES.dueMonth);
const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));
const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z.preprocess((v) => (v === '' || v === null || v === undefined ? fallback : v), z.coerce.number({ error: message }).int(message).min(min, message).max(max, message));

/**
 * POST /compliance-schedules (§5). dueMonths: quarterly any of 1–12 (the form offers 3, 6, 9, 12),
 * yearly exactly one, monthly none; duplicates are dropped and the months kept in calendar order.
 */
const scheduleFields = {
  clientId: idSchema('clientId', COMPLIANCE_MESSAGES.clientId),
  reportTypeId: idSchema('reportTypeId', COMPLIANCE_MESSAGES.reportTypeId),
  frequency: z.enum(COMPLIANCE_FREQUENCIES, { error: COMPLIANCE_MESSAGES.frequency }),
  dueDayOfMonth: wholeNumber(COMPLIANCE_MESSAGES.dueDay, 1, 31, DEFAULT_DUE_DAY),
  dueMonths: z.array(month, { error: COMPLIANCE_MESSAGES.dueMonth }).max(12).nullish()
    .transform((v) => [...new Set(v ?? [])].sort((a, b) => Number(a) - Number(b))),
  reminderDays: wholeNumber(COMPLIANCE_MESSAGES.reminderDays, 1, 90, DEFAULT_REMINDER_DAYS),
  notes: optionalText('notes', 5000),
  /**
   * Months from the end of the period an item covers to its due month (kit calendar/covered-period.ts,
   * periodLagFor gives those of "the period of the due date" and "the period before it"). Absent:
   * on create the period of the due date, on update as it was.
   */
  periodLagMonths: z.preprocess((v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: COMPLIANCE_MESSAGES.periodLag }).int(COMPLIANCE_MESSAGES.periodLag)
      .min(PERIOD_LAG_MONTHS.min, COMPLIANCE_MESSAGES.periodLag).max(PERIOD_LAG_MONTHS.max, COMPLIANCE_MESSAGES.periodLag).optional()),
  /** Instead of a lag: items cover the period of their due date, or the one before it (the form's choice). */
  covers: z.enum(PERIOD_CHOICES, { error: COMPLIANCE_MESSAGES.covers }).optional(),
};
const dueMonthsFit = (s: { frequency: ComplianceFrequency; dueMonths: string[] }, ctx: z.RefinementCtx) => {
  const problem = s.frequency === 'monthly' && s.dueMonths.length ? COMPLIANCE_MESSAGES.monthlyMonths
    : s.frequency === 'quarterly' && !s.dueMonths.length ? COMPLIANCE_MESSAGES.quarterlyMonths
      : s.frequency === 'yearly' && s.dueMonths.length !== 1 ? COMPLIANCE_MESSAGES.yearlyMonths : null;
  if (problem) ctx.addIssue({ code: 'custom', path: ['dueMonths'], message: problem });
};

/**
 * POST /compliance-schedules (§5). dueMonths: quarterly any of 1–12 (the form offers any three-month
 * pattern), yearly exactly one, monthly none; duplicates are dropped and the months kept in calendar order.
 */
export const scheduleInputSchema = z.object(scheduleFields).superRefine(dueMonthsFit);
/** PUT /compliance-schedules/{id}: the whole schedule as on create, and whether it is active (default: as it was). */
export const scheduleUpdateSchema = z.object({ ...scheduleFields, isActive: z.boolean({ error: 'isActive must be true or false' }).optional() }).superRefine(dueMonthsFit);
export type ScheduleUpdate = z.output<typeof scheduleUpdateSchema>;
/** DELETE /compliance-schedules/{id}?deleteItems=: remove its pending items too (pending) or keep every item (none, the default). */
export const scheduleDeleteQuerySchema = z.object({
  deleteItems: z.enum(['pending', 'none'], { error: COMPLIANCE_MESSAGES.deleteItems }).default('none'),
});
/** ?from=YYYY-MM-DD on generation: only items whose covered period ends on or after that day. */
export const generationQuerySchema = z.object({
  clientId: idSchema('clientId').optional(),
  from: isoDateSchema('from', COMPLIANCE_MESSAGES.from).optional(),
  /**
   * The periods that ended before `from`: not created (skip, the default), or created as filed
   * when the firm says they were filed before it took the work over (filed).
   */
  earlier: z.enum(['skip', 'filed'], { error: COMPLIANCE_MESSAGES.earlier }).optional(),
});
export type EarlierPeriods = 'skip' | 'filed';
export type ScheduleInput = z.output<typeof scheduleInputSchema>;

export const scheduleListQuerySchema = z.object({ clientId: idSchema('clientId').optional() });

const status = z.enum(TRACKER_STATUSES, { error: COMPLIANCE_MESSAGES.status });

/**
 * GET /compliance-tracker: by client and status, or by due-date range (§7: ISO strings of the
 * displayed range; a timestamp counts by its calendar day in UTC, both ends inclusive).
 */
/** A calendar range (a quarter, 92 days, seen from any time zone) is at most this long, which keeps X-Day-Counts small. */
export const PER_DAY_MAX_DAYS = 100;
const daySpan = (start: string, end: string) => (Date.parse(end.slice(0, 10)) - Date.parse(start.slice(0, 10))) / 86_400_000 + 1;
/** A tracker list answers at most this many items, however many match. */
export const TRACKER_LIST_MAX_LIMIT = 5000;
/**
 * Paging of the tracker lists (beyond §7, which returns the bare array): with `limit` the
 * answer is that page and `X-Total-Count` says how many match in all, so a screen that shows
 * three items and a count, or a table page, never fetches a firm's thousands of items.
 * The count stops at 10,000 (then X-Total-Count-Capped: true). Without `limit` a list
 * answers its first TRACKER_LIST_MAX_LIMIT items, as before.
 */
const trackerPage = {
  limit: intSchema('limit', 1, TRACKER_LIST_MAX_LIMIT).optional(),
  offset: intSchema('offset', 0, DB_INT_MAX).default(0),
};
export type TrackerPage = { limit?: number; offset: number };
export const trackerListQuerySchema = z.object({
  clientId: idSchema('clientId').optional(),
  status: status.optional(),
  startDate: isoInstantSchema('startDate').optional(),
  endDate: isoInstantSchema('endDate').optional(),
  /**
   * With a range: at most this many items of each due day (lowest ids first), and the
   * X-Day-Counts header (CalendarDayCounts) tells each day's totals. A calendar shows three a
   * day and '+N more', and a firm's month can hold thousands of items.
   */
  perDay: intSchema('perDay', 1, 100).optional(),
  /** Issue 42, the board's filters: the stage (an id of the item's pipeline), the report type, the assignee (0: unassigned). The due window is startDate–endDate. */
  stage: z.string({ error: 'stage must be a stage id' }).regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'stage must be a stage id').optional(),
  reportTypeId: idSchema('reportTypeId', COMPLIANCE_MESSAGES.reportTypeId).optional(),
  assignedToId: z.union([z.literal('0'), z.literal(0), idSchema('assignedToId')], { error: 'assignedToId must be a valid id, or 0 for unassigned' }).optional()
    .transform((v) => (v === undefined ? undefined : Number(v))),
  ...trackerPage,
}).superRefine((q, ctx) => {
  if (!q.startDate !== !q.endDate) ctx.addIssue({ code: 'custom', path: ['startDate'], message: COMPLIANCE_MESSAGES.rangeIncomplete });
  else if (q.perDay !== undefined && !q.startDate) ctx.addIssue({ code: 'custom', path: ['perDay'], message: COMPLIANCE_MESSAGES.perDayNeedsRange });
  else if (q.perDay !== undefined && daySpan(q.startDate!, q.endDate!) > PER_DAY_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['perDay'], message: COMPLIANCE_MESSAGES.perDayRangeTooLong });
  else if (q.startDate && q.endDate && q.endDate.slice(0, 10) < q.startDate.slice(0, 10)) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: COMPLIANCE_MESSAGES.rangeReversed });
  }
});
export type TrackerListQuery = z.output<typeof trackerListQuerySchema>;
/**
 * X-Day-Counts of a perDay list: per due day ('YYYY-MM-DD') with items, how many match and
 * how many of those are overdue in the calendar's sense (§4: due date passed, today in UTC,
 * and neither filed nor extended).
 */
export type CalendarDayCounts = Record<string, { total: number; overdue: number }>;
export const trackerClientQuerySchema = z.object({ clientId: idSchema('clientId').optional(), ...trackerPage });

/**
 * PUT /compliance-tracker/{id} (§4, §7): any of these. filed stamps filedDate (the one sent,
 * else now); an extension date makes the item extended; assignedToId 0, '' or null unassigns.
 */
/** The latest calendar day it is anywhere now (UTC+14): a filed date after it is in the future wherever the firm is. */
const latestToday = () => new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
export const trackerUpdateSchema = z.object({
  status: status.optional(),
  filedDate: z.union([z.literal(''), z.null(), isoInstantSchema('filedDate')]).optional().transform((v) => (v === undefined ? undefined : v || null))
    .refine((v) => !v || v.slice(0, 10) <= latestToday(), COMPLIANCE_MESSAGES.filedInFuture),
  extensionDate: z.union([z.literal(''), z.null(), isoInstantSchema('extensionDate')]).optional()
    .transform((v) => (v === undefined ? undefined : v ? v.slice(0, 10) : null)),
  remarks: optionalText('remarks', 5000).optional(),
  assignedToId: z.union([z.literal(0), z.literal(''), z.null(), idSchema('assignedToId')]).optional()
    .transform((v) => (v === undefined ? undefined : v === 0 || v === '' || v === null ? null : v)),
});
export type TrackerUpdate = z.output<typeof trackerUpdateSchema>;

/**
 * POST /compliance-tracker/{id}/extend (issue 39): marks the item extended with extendedDueDate,
 * the one given, else the one its calendar entry's extension rule gives (Form 4868: 15 Oct;
 * 7004: 1120-S and 1065 15 Sep, 1120 six months on, 1041 30 Sep), moved to the next business
 * day where the jurisdiction moves due dates.
 */
export const trackerExtendSchema = z.object({
  extendedDueDate: isoDateSchema('extendedDueDate', COMPLIANCE_MESSAGES.extendedDueDate).optional(),
}).default({});
export type TrackerExtend = z.output<typeof trackerExtendSchema>;

/** Spec 001 §3 "Compliance schedule". dueMonths are month numbers as strings. */
export interface ComplianceSchedule {
  id: number;
  clientId: number;
  clientName: string;
  reportTypeId: number;
  reportTypeName: string;
  frequency: ComplianceFrequency;
  dueDayOfMonth: number;
  dueMonths: string[];
  isActive: boolean;
  reminderDays: number;
  notes: string | null;
  /** Months from the end of the covered period to the due month (scheduleInputSchema). */
  periodLagMonths: number;
  /** Which of the form's two choices the lag is, or null for another (a statutory calendar's own). */
  covers: PeriodChoice | null;
  /** Whose years label its periods: the preset's country, else the client's jurisdiction when it was made. */
  jurisdiction: ClientJurisdiction;
  /** The statutory calendar entry it was made from (its rules, versions and extension), null for one made by hand or edited since. */
  presetId: Jurisdiction | null;
  entryId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Spec 001 §3 "Compliance tracker item". dueDate and extensionDate are calendar days
 * (YYYY-MM-DD); filedDate is an instant. `period` labels the period the item covers in its
 * jurisdiction's years (e.g. 'Oct 2026', 'Q2 FY 2026-27', '2025-26'; docs/using/compliance.md);
 * periodStart/periodEnd are the days it spans.
 */
export interface ComplianceItem {
  id: number;
  scheduleId: number;
  clientId: number;
  clientName: string;
  reportTypeId: number;
  reportTypeName: string;
  period: string;
  periodStart: string;
  periodEnd: string;
  /** The day the statute names (issue 39); equal to dueDate unless a weekend or holiday moved it. */
  statutoryDueDate: string;
  /** The day it is due: statutoryDueDate after the jurisdiction's next-business-day rule. */
  dueDate: string;
  /** Why dueDate is not statutoryDueDate ('31 Jan 2027 is a Sunday', '25 Dec 2026 is Christmas Day'), else null. */
  dueDateReason: string | null;
  /** The holiday table the rule used ('US federal holidays and DC Emancipation Day (IRC §7503)'), null where dates do not move. */
  holidayCalendar: string | null;
  status: TrackerStatus;
  filedDate: string | null;
  /** The day an extension gives (set with status extended); overdue counts, reminders and the calendar use it then. */
  extendedDueDate: string | null;
  /** The spec's name of extendedDueDate, always equal to it. */
  extensionDate: string | null;
  remarks: string | null;
  assignedToId: number | null;
  assignedToName: string | null;
  aiConfidence: number;
  autoDetected: boolean;
  sourceFileId: number | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The newest document request made for this item that is not cancelled (issue 27), as the
   * requests service's events told compliance; `completed` is "Documents in".
   */
  documentRequest: TrackerDocumentRequest | null;
  /** The newest document signed for this item (issue 41): a signature request linked to it completed, its sealed PDF filed as a report of the client. */
  signedDocument: TrackerSignedDocument | null;
  /**
   * The stage of its report type's pipeline it stands on (stages.contracts.ts) and its staff
   * name; null for a Client user, who reads `clientStage` alone.
   */
  stage: string | null;
  stageName: string | null;
  /** What the client sees: the stage's client name, else the last visible stage's before it, else null. */
  clientStage: string | null;
}

export interface TrackerSignedDocument {
  /** The client's report holding the sealed PDF. */
  fileId: number;
  signedAt: string;
  /** The signature request's title ("Form 8879 2026"). */
  title: string;
}

export interface TrackerDocumentRequest {
  id: number;
  status: 'open' | 'completed';
  required: number;
  done: number;
  /** The request's revision this state is from (DocumentRequestChanged.revision): a screen keeps the newest of a read and the pushes. */
  revision: number;
}

/** The reply of DELETE /compliance-schedules/{id}. */
export interface ScheduleDeletion {
  id: number;
  /** Pending items removed with it (deleteItems=pending); the others stay in the tracker. */
  deletedItems: number;
  keptItems: number;
}

/** The reply of POST /compliance-schedules/{id}/generate/{year}. */
export interface GenerationResult {
  scheduleId: number;
  year: number;
  /** Items made by this call; those that already existed are left as they are. */
  created: number;
  /** Of those, the periods before `from` made as filed (`earlier=filed`). */
  createdFiled: number;
  existing: number;
  items: ComplianceItem[];
  /** The periods of the year not created, and why (before the start day, or the entry's rule not in force). */
  leftOut: LeftOutItem[];
}

/** A period a generation or a calendar's application did not create (issue 39: the onboarding dialog lists them). */
export interface LeftOutItem {
  scheduleId?: number;
  clientId: number;
  reportTypeName: string;
  period: string;
  dueDate: string;
  reason: string;
}

/** The reply of POST /compliance-schedules/generate/{year}: every active schedule within reach. */
export interface BulkGenerationResult {
  year: number;
  schedules: number;
  created: number;
  /** Of those, the periods before `from` made as filed (`earlier=filed`). */
  createdFiled: number;
  existing: number;
  leftOut: LeftOutItem[];
}

// ---------------------------------------------------------------- statutory presets

export const JURISDICTIONS = ['india', 'us', 'uk', 'australia', 'canada'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/**
 * Registrations an entry needs besides the entity type: the clients' registrations
 * (directory.contracts CLIENT_REGISTRATIONS).
 */
export const REGISTRATIONS = CLIENT_REGISTRATIONS;
export type Registration = ClientRegistration;
/** The alternative schemes a firm chooses per client: not chosen by default unless the client is registered for it. */
export const OPT_IN_REGISTRATIONS: readonly Registration[] = ['gst_qrmp'];

/** A month and day, "MM-DD". */
const monthDay = z.string().regex(/^(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/);
const entryDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * How an extension moves an entry's due date (Form 4868, 7004, issue 39): `months` after the
 * statutory due date, on `dueDayOfMonth` (else the same day), then the business-day rule.
 */
export const extensionRuleSchema = z.object({
  months: z.number().int().min(1).max(12),
  dueDayOfMonth: z.number().int().min(1).max(31).optional(),
  /** The form that asks for it ('Form 7004'). */
  form: z.string().min(1),
});
export type ExtensionRule = z.output<typeof extensionRuleSchema>;

/**
 * What of an entry's rule a version changes (a law change is a new version, not a code change),
 * and the periods it applies to: those starting from `validFrom` until `validUntil` (both
 * inclusive, YYYY-MM-DD) and, when given, only for clients whose year ends on one of `yearEnds`.
 */
export const entryVersionSchema = z.object({
  validFrom: entryDate.optional(),
  validUntil: entryDate.optional(),
  yearEnds: z.array(monthDay).optional(),
  dueDayOfMonth: z.number().int().min(1).max(31).optional(),
  dueMonths: z.array(z.string().regex(/^(?:[1-9]|1[0-2])$/)).optional(),
  periodLagMonths: z.number().int().min(PERIOD_LAG_MONTHS.min).max(PERIOD_LAG_MONTHS.max).optional(),
  extension: extensionRuleSchema.nullable().optional(),
  source: z.string().min(1),
});
export type EntryVersion = z.output<typeof entryVersionSchema>;

/** One statutory obligation, expressed in the schedule model (§3), with where it comes from. */
export const presetEntrySchema = z.object({
  /** Stable within its calendar: apply's entryIds name entries by it. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  reportTypeName: z.string().min(1).max(200),
  frequency: z.enum(COMPLIANCE_FREQUENCIES),
  dueDayOfMonth: z.number().int().min(1).max(31),
  dueMonths: z.array(z.string().regex(/^(?:[1-9]|1[0-2])$/)),
  reminderDays: z.number().int().min(1).max(90).default(DEFAULT_REMINDER_DAYS),
  /** Months from the end of the covered period to the due month (kit calendar/covered-period.ts). */
  periodLagMonths: z.number().int().min(PERIOD_LAG_MONTHS.min).max(PERIOD_LAG_MONTHS.max),
  /** The entity types it applies to; empty: every type. */
  entityTypes: z.array(z.enum(ENTITY_TYPES)).default([]),
  registration: z.enum(REGISTRATIONS).optional(),
  source: z.string().min(1),
  /** What the rule is, in words, where the fields do not say it all. */
  note: z.string().optional(),
  /** The periods it applies to: starting from / until these days (YYYY-MM-DD, inclusive; Payday Super from 2026-07-01). */
  validFrom: entryDate.optional(),
  validUntil: entryDate.optional(),
  /**
   * Runs off the client's financial year (fiscalYearEnd): dueMonths and periodLagMonths are those
   * of a year ending in `fiscalYearBase` (MM-DD) and move with the client's year end.
   */
  fiscalYearBase: monthDay.optional(),
  /** Due this many days after the covered period ends (a T3: 90 days), instead of on the month rule's day (whose month keys the item). */
  daysAfterPeriodEnd: z.number().int().min(1).max(366).optional(),
  /** Due days that differ by due month ({ "4": 30 }: India's March TDS deposit is due 30 April). */
  dueDayByMonth: z.record(z.string().regex(/^(?:[1-9]|1[0-2])$/), z.number().int().min(1).max(31)).optional(),
  /** Due days that differ by the client's State (QRMP GSTR-3B: the 24th in category Y States); others keep dueDayOfMonth. */
  dueDayByState: z.array(z.object({ states: z.array(z.string()), dueDayOfMonth: z.number().int().min(1).max(31), label: z.string() })).optional(),
  /**
   * Covered periods that are not the model's (US 1040-ES payment periods): per due month, the
   * period's first and last day (MM-DD) and its year relative to the due date's.
   */
  periods: z.record(z.string().regex(/^(?:[1-9]|1[0-2])$/), z.object({ start: monthDay, end: monthDay, yearOffset: z.number().int().min(-1).max(0) })).optional(),
  /** UK PAYE: each monthly item covers a tax month (6th to 5th) ending in the month before it is due. */
  ukTaxMonths: z.boolean().optional(),
  /** Listed but not chosen by default (an extension request is filed only when needed). */
  optIn: z.boolean().optional(),
  /** How an extension moves its due date (Forms 4868, 7004). */
  extension: extensionRuleSchema.optional(),
  /** Rule versions by period (a law change); a period no version covers uses the entry's own fields. */
  versions: z.array(entryVersionSchema).optional(),
});
export type PresetEntry = z.output<typeof presetEntrySchema>;

export const presetSchema = z.object({
  id: z.enum(JURISDICTIONS),
  name: z.string().min(1),
  jurisdiction: z.string().min(1),
  /** The clients' jurisdiction code whose years label its periods. */
  country: z.enum(CLIENT_JURISDICTIONS),
  /** When the entries were last checked against their sources. */
  reviewedOn: isoDateSchema('reviewedOn'),
  /**
   * The next-business-day rule (IRC §7503, ATO, CRA): a due date on a weekend or one of these
   * holidays moves to the next business day. null: dates do not move (the UK, India).
   */
  businessDays: z.object({
    /** The country (date-holidays' code) whose public holidays count. */
    country: z.string().min(2),
    /**
     * Further holidays that count, by name, from a subdivision's table or the country's own (DC's
     * Emancipation Day for IRC §7503; Canada's federal days the national table leaves to the provinces).
     */
    include: z.array(z.object({
      subdivision: z.string().optional(),
      names: z.array(z.string().min(1)).min(1),
      /** Observed on the Friday before when it falls on a Saturday, the Monday after on a Sunday (5 U.S.C. §6103(b); D.C. Code §1-612.02). */
      weekendObserved: z.boolean().optional(),
    })).default([]),
    /** The table's name, shown on items. */
    name: z.string().min(1),
    source: z.string().min(1),
  }).nullable(),
  entries: z.array(presetEntrySchema).min(1),
});
export type CompliancePreset = z.output<typeof presetSchema>;

/** Whether a client's registrations include what an entry needs ('gst' is any GST filing; 'gst' alone files monthly). */
export function hasRegistration(registrations: readonly Registration[], needed: Registration): boolean {
  if (registrations.includes(needed)) return true;
  if (needed === 'gst') return registrations.includes('gst_monthly') || registrations.includes('gst_qrmp');
  if (needed === 'gst_monthly') return registrations.includes('gst') && !registrations.includes('gst_qrmp');
  return false;
}

/**
 * Whether an entry is chosen for a client by default (issue 39): its entity types include the
 * client's (or either is unsaid); an opt-in entry (an extension request) never is; an entry that
 * needs a registration is when the client has it, and when the client's registrations are not
 * said (null or absent), for a business but never an individual, and never for an opt-in scheme.
 */
export function entryFits(
  entry: Pick<PresetEntry, 'entityTypes' | 'registration'> & { optIn?: boolean },
  entityType: string | null,
  registrations: readonly Registration[] | null = null,
): boolean {
  if (entry.optIn) return false;
  if (entityType && entry.entityTypes.length && !entry.entityTypes.includes(entityType as PresetEntry['entityTypes'][number])) return false;
  if (!entry.registration) return true;
  if (registrations) return hasRegistration(registrations, entry.registration);
  if (OPT_IN_REGISTRATIONS.includes(entry.registration)) return false;
  return entityType !== 'individual';
}

export const presetApplySchema = z.object({
  clientIds: z.array(idSchema('clientId', COMPLIANCE_MESSAGES.clientIds), { error: COMPLIANCE_MESSAGES.clientIds })
    .min(1, COMPLIANCE_MESSAGES.clientIds).max(500).transform((v) => [...new Set(v)]),
  /**
   * The entries to create, the same for every client; absent: each client gets the entries that
   * fit its entity type (entryFits). A map from client id to entry ids chooses per client.
   */
  entryIds: z.union([
    z.array(z.string().max(100), { error: COMPLIANCE_MESSAGES.entryIds }).max(100),
    z.record(z.string().regex(/^\d+$/), z.array(z.string().max(100)).max(100), { error: COMPLIANCE_MESSAGES.entryIds }),
  ], { error: COMPLIANCE_MESSAGES.entryIds }).optional(),
  /** Who is granted the calendar's report types; absent: the CPAs and custom-role users who have any of the clients. */
  grantToUserIds: z.array(idSchema('userId', COMPLIANCE_MESSAGES.grantToUserIds), { error: COMPLIANCE_MESSAGES.grantToUserIds })
    .max(500).transform((v) => [...new Set(v)]).optional(),
  /**
   * Onboarding (issue 39): also generate the new schedules' items of this day's year and the
   * next, every one due (or ending) on or after it, even when its period ended earlier.
   */
  from: isoDateSchema('from', COMPLIANCE_MESSAGES.from).optional(),
});
export type PresetApply = z.output<typeof presetApplySchema>;

/** The reply of POST /compliance-presets/{id}/apply: what it created (existing schedules are kept). */
export interface PresetApplyResult {
  presetId: Jurisdiction;
  createdReportTypes: { id: number; name: string }[];
  createdSchedules: ComplianceSchedule[];
  /** Client and report type pairs that already had a schedule of the same frequency. */
  skipped: { clientId: number; reportTypeId: number }[];
  /** The report types each user was given (those they lacked), so they see the new schedules' items. */
  grantedReportTypes: { userId: number; reportTypeIds: number[] }[];
  /** With `from`: the items made, and the periods left out and why. */
  createdItems: number;
  leftOut: LeftOutItem[];
}

// ---------------------------------------------------------------- events

/** Published through the outbox on every change of a schedule or tracker item (read models: insights). */
export const COMPLIANCE_SCHEDULE_UPSERTED = 'compliance.schedule.upserted';
export const COMPLIANCE_SCHEDULE_DELETED = 'compliance.schedule.deleted';
export const COMPLIANCE_ITEM_UPSERTED = 'compliance.item.upserted';
export const COMPLIANCE_ITEM_DELETED = 'compliance.item.deleted';

export const complianceScheduleEventSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  reportTypeId: z.number().int(),
  frequency: z.enum(COMPLIANCE_FREQUENCIES),
  dueDayOfMonth: z.number().int(),
  dueMonths: z.array(z.string()),
  isActive: z.boolean(),
  reminderDays: z.number().int(),
  periodLagMonths: z.number().int().optional(),
  presetId: z.string().nullable().optional(),
  entryId: z.string().nullable().optional(),
});
export type ComplianceScheduleEvent = z.infer<typeof complianceScheduleEventSchema>;

export const complianceItemEventSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int(),
  clientId: z.number().int(),
  reportTypeId: z.number().int(),
  period: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  dueDate: z.string(),
  /** Absent in events from before issue 39 (then dueDate). */
  statutoryDueDate: z.string().optional(),
  dueDateReason: z.string().nullable().optional(),
  holidayCalendar: z.string().nullable().optional(),
  status: z.enum(TRACKER_STATUSES),
  filedDate: z.string().nullable(),
  extendedDueDate: z.string().nullable().optional(),
  extensionDate: z.string().nullable(),
  assignedToId: z.number().int().nullable(),
  aiConfidence: z.number(),
  autoDetected: z.boolean(),
  sourceFileId: z.number().int().nullable(),
});
export type ComplianceItemEvent = z.infer<typeof complianceItemEventSchema>;
export const complianceDeletedEventSchema = z.object({ id: z.number().int(), clientId: z.number().int() });
export type ComplianceDeletedEvent = z.infer<typeof complianceDeletedEventSchema>;

/**
 * Consumed by the compliance service: the insights service found a document that matches a
 * tracker item. The item records the confidence and the file and is marked auto-detected; its
 * status is a person's decision and is left alone. Unknown items are ignored.
 */
export const INSIGHTS_MATCH_DETECTED = 'insights.match.detected';
export const insightsMatchDetectedSchema = z.object({
  itemId: z.number().int().min(1),
  aiConfidence: z.number().min(0).max(1),
  sourceFileId: z.number().int().min(1).nullable(),
});
export type InsightsMatchDetected = z.infer<typeof insightsMatchDetectedSchema>;
