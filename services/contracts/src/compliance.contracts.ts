import { z } from 'zod';
import { CLIENT_JURISDICTIONS, ENTITY_TYPES, type ClientJurisdiction } from './directory.contracts.ts';
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
  dueDate: string;
  status: TrackerStatus;
  filedDate: string | null;
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
}

/** The reply of POST /compliance-schedules/generate/{year}: every active schedule within reach. */
export interface BulkGenerationResult {
  year: number;
  schedules: number;
  created: number;
  /** Of those, the periods before `from` made as filed (`earlier=filed`). */
  createdFiled: number;
  existing: number;
}

// ---------------------------------------------------------------- statutory presets

export const JURISDICTIONS = ['india', 'us', 'uk', 'australia'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/**
 * Registrations an entry needs besides the entity type: a GST filer monthly or under India's
 * quarterly QRMP scheme, any GST registration, an employer, a VAT-registered business, a TDS deductor.
 */
export const REGISTRATIONS = ['gst', 'gst_monthly', 'gst_qrmp', 'employer', 'vat', 'tds'] as const;
export type Registration = (typeof REGISTRATIONS)[number];
/** The alternative schemes a firm chooses per client: offered in the apply dialog, not chosen by default. */
export const OPT_IN_REGISTRATIONS: readonly Registration[] = ['gst_qrmp'];

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
  /** Where the real rule does not fit the model, what it is and which nearest rule is used. */
  note: z.string().optional(),
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
  entries: z.array(presetEntrySchema).min(1),
});
export type CompliancePreset = z.output<typeof presetSchema>;

/**
 * Whether an entry is chosen for a client by default: its entity types include the client's (or
 * either is unsaid) and it is not an opt-in scheme.
 */
export function entryFits(entry: Pick<PresetEntry, 'entityTypes' | 'registration'>, entityType: string | null): boolean {
  if (entry.registration && OPT_IN_REGISTRATIONS.includes(entry.registration)) return false;
  return !entityType || !entry.entityTypes.length || entry.entityTypes.includes(entityType as PresetEntry['entityTypes'][number]);
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
  status: z.enum(TRACKER_STATUSES),
  filedDate: z.string().nullable(),
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
