import { z } from 'zod';
import type { EntityType } from './directory.contracts.ts';
import { idSchema, textSchema } from './scalars.ts';

/*
 * AI compliance insights (spec 001 §2 AI Compliance Insights page, §3 Compliance insight,
 * §4 insight transitions, §6 only Admin analyses, §7 "Insights", §8 texts).
 */

export const INSIGHT_TYPES = ['missing_document', 'compliance_match', 'threshold_alert', 'pattern_detected'] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];
export const INSIGHT_PRIORITIES = ['high', 'medium', 'low'] as const;
export type InsightPriority = (typeof INSIGHT_PRIORITIES)[number];
export const INSIGHT_STATUSES = ['pending', 'reviewed', 'acted_upon', 'dismissed'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

/** §4: where each status may go; acted_upon and dismissed are final. */
export const INSIGHT_TRANSITIONS: Record<InsightStatus, readonly InsightStatus[]> = {
  pending: ['reviewed', 'acted_upon', 'dismissed'],
  reviewed: ['acted_upon', 'dismissed'],
  acted_upon: [],
  dismissed: [],
};
export const canMoveInsight = (from: InsightStatus, to: InsightStatus): boolean => INSIGHT_TRANSITIONS[from].includes(to);

/** How long after dismissing an insight its dismisser may undo it (the toast's Undo). */
export const INSIGHT_UNDO_MINUTES = 10;

export const INSIGHT_MESSAGES = {
  loginRequired: 'Please log in to view compliance insights.',
  fetchFailed: 'Failed to fetch insights',
  updateFailed: 'Failed to update insight',
  triggerFailed: 'Failed to trigger analysis',
  updated: 'Compliance insight updated successfully',
  analysisComplete: 'Analysis Complete',
  notFound: 'Compliance insight not found',
  clientNotFound: 'Client not found',
  readOnly: 'Client users can only read compliance insights.',
  adminOnly: 'Only an Admin can run compliance analysis.',
  status: `Status must be one of ${INSIGHT_STATUSES.join(', ')}`,
  priority: `Priority must be one of ${INSIGHT_PRIORITIES.join(', ')}`,
  transition: (from: InsightStatus, to: InsightStatus) => `An insight that is ${from.replace('_', ' ')} cannot become ${to.replace('_', ' ')}.`,
  analysis: (created: number) => `Analysis complete: ${created} new insight${created === 1 ? '' : 's'}`,
  firmAnalysis: (created: number, clients: number) => `Analysis complete: ${created} new insight${created === 1 ? '' : 's'} across ${clients} client${clients === 1 ? '' : 's'}`,
  bulkUpdated: (n: number) => `${n} insight${n === 1 ? '' : 's'} updated`,
  emptyTab: (status: string) => `No ${status} insights found.`,
  undone: (n: number) => `${n} insight${n === 1 ? '' : 's'} restored`,
  undoFailed: 'Failed to undo the dismissal',
  notUndoable: `Only a dismissal you made in the last ${INSIGHT_UNDO_MINUTES} minutes can be undone.`,
  undoSuperseded: 'A newer insight about the same periods has been raised since; this one stays dismissed.',
  rulesSaved: 'Insight rules saved',
  rulesSaveFailed: 'Failed to save insight rules',
} as const;

/** Spec 001 §3 "Compliance insight"; confidence is 0–1 with two decimals. */
export interface ComplianceInsight {
  id: number;
  clientId: number;
  clientName: string | null;
  fileId: number | null;
  fileName: string | null;
  insightType: InsightType;
  priority: InsightPriority;
  title: string;
  description: string;
  recommendedAction: string;
  confidence: number;
  status: InsightStatus;
  metadata: Record<string, unknown>;
  /**
   * The labels of the covered periods the insight concerns ('Aug 2026', 'Sep 2026'): every
   * period of a grouped missing-document card, a match's one period, none for the others.
   */
  periods: string[];
  createdAt: string;
  reviewedAt: string | null;
  reviewedById: number | null;
  reviewedByName: string | null;
}

const optionalFilter = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => undefined), schema]).optional();

/** GET /api/compliance-insights?clientId&status&priority ('' means any). */
export const insightListQuerySchema = z.object({
  clientId: optionalFilter(idSchema('clientId')),
  status: optionalFilter(z.enum(INSIGHT_STATUSES, { error: INSIGHT_MESSAGES.status })),
  priority: optionalFilter(z.enum(INSIGHT_PRIORITIES, { error: INSIGHT_MESSAGES.priority })),
});
export type InsightListQuery = z.infer<typeof insightListQuerySchema>;

/** PUT /api/compliance-insights/{id}: `reviewedById` is accepted and ignored (the reviewer is the caller). */
export const insightUpdateSchema = z.object({
  status: z.enum(INSIGHT_STATUSES, { error: INSIGHT_MESSAGES.status }),
  reviewedById: z.unknown().optional(),
});
export type InsightUpdate = z.infer<typeof insightUpdateSchema>;

/** POST /api/compliance-insights/bulk-status: several insights moved at once (each by the transitions of §4). */
export const insightBulkStatusSchema = z.object({
  ids: z.array(idSchema('ids', 'ids must be a list of insight ids'), { error: 'ids must be a list of insight ids' })
    .min(1, 'Select at least one insight').max(500, 'At most 500 insights at once').transform((ids) => [...new Set(ids)]),
  status: z.enum(INSIGHT_STATUSES, { error: INSIGHT_MESSAGES.status }),
});
/** Reply of the bulk call: the insights moved, and why each other one was not. */
export interface InsightBulkResult {
  updated: ComplianceInsight[];
  refused: { id: number; message: string }[];
}

/** POST /api/compliance-insights/undo-dismissal: insights the caller dismissed moments ago go back to where they were. */
export const insightUndoSchema = z.object({
  ids: insightBulkStatusSchema.shape.ids,
});

/** Reply of POST /api/compliance-insights/analyze-all (Admin): every client of the firm analysed. */
export interface FirmAnalysisResult extends AnalysisResult {
  clients: number;
}

/** Reply of POST /api/public/clients/{clientId}/analyze-compliance. */
export interface AnalysisResult {
  message: string;
  newInsights: number;
  /** Open insights the run retired because their subject was resolved. */
  retired: number;
}

// ---------------------------------------------------------------- the firm's rule settings

/** The jurisdictions a client may belong to (issue 23) and the currency each one's thresholds are in. */
export const JURISDICTIONS = ['US', 'CA', 'IN', 'UK', 'AU'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];
export const JURISDICTION_CURRENCY = { US: 'USD', CA: 'CAD', IN: 'INR', UK: 'GBP', AU: 'AUD' } as const satisfies Record<Jurisdiction, string>;
export type Currency = (typeof JURISDICTION_CURRENCY)[Jurisdiction];
export const JURISDICTION_NAMES: Record<Jurisdiction, string> = { US: 'United States', CA: 'Canada', IN: 'India', UK: 'United Kingdom', AU: 'Australia' };

/**
 * What a document is, as insights reads it from its name, its heading and its text (issue 44:
 * a 1040's "Total income" is not a business's sales). `unclassified`: none of the others.
 */
export const DOCUMENT_KINDS = [
  'wage_statement', 'contractor_payments', 'individual_tax_return', 'owner_share', 'business_tax_return',
  'sales_tax_return', 'financial_statement', 'invoice', 'bank_statement', 'unclassified',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  wage_statement: 'wage statement (W-2, P60, Form 16)',
  contractor_payments: 'payments to a contractor (1099-NEC, 1099-MISC, 1099-K)',
  individual_tax_return: "individual's income tax return (1040, SA100, ITR)",
  owner_share: "owner's share of a business's income (Schedule K-1)",
  business_tax_return: "business's income tax return (1120, 1120-S, 1065, CT600)",
  sales_tax_return: 'sales tax, GST or VAT return (GSTR-3B, VAT return, BAS)',
  financial_statement: 'financial statement (profit and loss, income statement)',
  invoice: 'invoice',
  bank_statement: 'bank statement',
  unclassified: 'other document',
};

/**
 * The client types a registration threshold is about: businesses, a sole proprietor included;
 * not a private individual. (Written out so the insights pages need not load the directory's
 * contracts; the type keeps it to the directory's entity types.)
 */
export const BUSINESS_ENTITY_TYPES = ['sole_proprietor', 'partnership', 'c_corp', 's_corp', 'company', 'llp', 'trust'] as const satisfies readonly EntityType[];
const ALL_ENTITY_TYPES = ['individual', ...BUSINESS_ENTITY_TYPES] as const;
type NoneLeftOut<Missing extends never> = Missing;
/** Compiles only while the list above holds every entity type of the directory. */
export type EveryEntityTypeListed = NoneLeftOut<Exclude<EntityType, (typeof ALL_ENTITY_TYPES)[number]>>;
/**
 * The documents whose figures state a business's sales: its invoices, its accounts and its
 * business tax returns (and a document insights cannot classify, read by its labels). Not
 * a GST, VAT or sales-tax return (whoever files one is registered already), nor a person's
 * pay, income, share of a business or bank balance.
 */
export const SALES_DOCUMENT_KINDS = ['invoice', 'financial_statement', 'business_tax_return', 'unclassified'] as const satisfies readonly DocumentKind[];

/**
 * One threshold: an amount in its jurisdiction's currency, for that jurisdiction's clients
 * (all their reports, or one report type's), the obligation it marks and where it comes from,
 * and what it is about: the client types and document kinds whose figures count.
 */
export interface ThresholdRule {
  jurisdiction: Jurisdiction;
  currency: Currency;
  threshold: number;
  /** null: every report of the jurisdiction's clients; a report type's rule wins over it. */
  reportTypeId: number | null;
  obligation: string;
  source: string | null;
  /** The client entity types held to it ([]: all); a client whose record names none is held to every rule. */
  entityTypes: EntityType[];
  /** The kinds of document whose figures count ([]: all). */
  documentKinds: DocumentKind[];
}

/** What the default (registration) thresholds are about: a business's sales figures. */
export const REGISTRATION_SCOPE: Pick<ThresholdRule, 'entityTypes' | 'documentKinds'> = {
  entityTypes: [...BUSINESS_ENTITY_TYPES],
  documentKinds: [...SALES_DOCUMENT_KINDS],
};

/** A rule saved before rules had a scope is a registration threshold, as every default is. */
export const withScope = (rule: Omit<ThresholdRule, 'entityTypes' | 'documentKinds'> & Partial<ThresholdRule>): ThresholdRule => ({
  ...rule,
  entityTypes: rule.entityTypes ?? [...REGISTRATION_SCOPE.entityTypes],
  documentKinds: rule.documentKinds ?? [...REGISTRATION_SCOPE.documentKinds],
});

/**
 * Keywords an amount must follow to count (threshold_alert) and the thresholds by
 * jurisdiction; a jurisdiction without a rule gets no alert. Clients whose record names no
 * jurisdiction count as `defaultJurisdiction`'s. Defaults and their sources: docs/using/time-zones-and-thresholds.md.
 */
export interface InsightRuleSettings {
  keywords: string[];
  defaultJurisdiction: Jurisdiction;
  thresholds: ThresholdRule[];
}

/** The registration thresholds each jurisdiction's law sets, with their sources (checked November 2026). */
export const DEFAULT_THRESHOLDS: readonly ThresholdRule[] = ([
  {
    jurisdiction: 'IN', currency: 'INR', threshold: 2_000_000, reportTypeId: null,
    obligation: 'GST registration (₹20 lakh aggregate turnover; ₹40 lakh for suppliers of goods only, ₹10 lakh in special category States)',
    source: 'CGST Act 2017, s. 22(1); Notification 10/2019-Central Tax (₹40 lakh for goods)',
  },
  {
    jurisdiction: 'UK', currency: 'GBP', threshold: 90_000, reportTypeId: null,
    obligation: 'VAT registration (taxable turnover over £90,000 in the last 12 months)',
    source: 'HMRC VAT Notice 700/1, s. 3; threshold £90,000 from 1 April 2024 (VAT Act 1994, Sch. 1)',
  },
  {
    jurisdiction: 'AU', currency: 'AUD', threshold: 75_000, reportTypeId: null,
    obligation: 'GST registration (GST turnover of A$75,000 or more; A$150,000 for non-profit bodies)',
    source: 'A New Tax System (Goods and Services Tax) Act 1999, s. 23-15; GST Regulations 2019, s. 23-15.01',
  },
  {
    jurisdiction: 'US', currency: 'USD', threshold: 100_000, reportTypeId: null,
    obligation: 'state sales-tax economic nexus (US$100,000 of sales into a State in most States; some use other amounts or also count transactions)',
    source: 'South Dakota v. Wayfair, Inc., 585 U.S. 162 (2018); S.D. Codified Laws s. 10-64-2',
  },
  {
    jurisdiction: 'CA', currency: 'CAD', threshold: 30_000, reportTypeId: null,
    obligation: 'GST/HST registration (taxable supplies over C$30,000 in four consecutive quarters: no longer a small supplier)',
    source: 'Excise Tax Act, R.S.C. 1985, c. E-15, s. 148',
  },
] as const).map(withScope);
export const DEFAULT_KEYWORDS = ['turnover', 'gross receipts', 'total'] as const;
export const DEFAULT_RULE_SETTINGS: InsightRuleSettings = { keywords: [...DEFAULT_KEYWORDS], defaultJurisdiction: 'IN', thresholds: [...DEFAULT_THRESHOLDS] };

const amountSchema = (field: string) => z.number({ error: `${field} must be a number` }).positive(`${field} must be above 0`).max(1e15, `${field} is too large`);
const jurisdictionSchema = z.enum(JURISDICTIONS, { error: `Jurisdiction must be one of ${JURISDICTIONS.join(', ')}` });
const nullableId = z.union([z.null(), idSchema('reportTypeId')]).default(null);

/** One threshold as sent: its currency may be left out, and must be its jurisdiction's when given. */
const thresholdRuleSchema = z.object({
  jurisdiction: jurisdictionSchema,
  currency: z.string().optional(),
  threshold: amountSchema('threshold'),
  reportTypeId: nullableId,
  obligation: textSchema('Obligation', 300).trim().optional(),
  source: textSchema('Source', 500).trim().nullish(),
  entityTypes: z.array(z.enum(ALL_ENTITY_TYPES, { error: `Entity types must be among ${ALL_ENTITY_TYPES.join(', ')}` }), { error: 'entityTypes must be a list' }).max(ALL_ENTITY_TYPES.length).optional(),
  documentKinds: z.array(z.enum(DOCUMENT_KINDS, { error: `Document kinds must be among ${DOCUMENT_KINDS.join(', ')}` }), { error: 'documentKinds must be a list' }).max(DOCUMENT_KINDS.length).optional(),
}).transform((rule, ctx) => {
  const currency = JURISDICTION_CURRENCY[rule.jurisdiction];
  if (rule.currency !== undefined && rule.currency !== currency) {
    ctx.addIssue({ code: 'custom', message: `Thresholds for ${rule.jurisdiction} are in ${currency}` });
  }
  return withScope({
    jurisdiction: rule.jurisdiction, currency, threshold: rule.threshold, reportTypeId: rule.reportTypeId,
    obligation: rule.obligation || 'registration or filing threshold',
    source: rule.source || null,
    ...(rule.entityTypes ? { entityTypes: [...new Set(rule.entityTypes)] } : {}),
    ...(rule.documentKinds ? { documentKinds: [...new Set(rule.documentKinds)] } : {}),
  });
});

/** PUT /api/compliance-insights/rules (Admin); one rule per jurisdiction and report type. */
export const insightRuleSettingsSchema = z.object({
  keywords: z.array(textSchema('Keyword', 60).transform((k) => k.trim().toLowerCase()).refine((k) => k.length > 0, 'Keywords must not be empty'), { error: 'keywords must be a list of words' })
    .min(1, 'Give at least one keyword').max(30, 'At most 30 keywords').transform((ks) => [...new Set(ks)]),
  defaultJurisdiction: jurisdictionSchema.default('IN'),
  thresholds: z.array(thresholdRuleSchema, { error: 'thresholds must be a list' }).max(500).default([])
    .refine((rules) => new Set(rules.map((r) => `${r.jurisdiction}:${r.reportTypeId}`)).size === rules.length, 'Give one threshold per jurisdiction and report type'),
});
