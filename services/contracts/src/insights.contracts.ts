import { z } from 'zod';
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
  emptyTab: (status: string) => `No ${status} insights found.`,
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

/** Reply of POST /api/public/clients/{clientId}/analyze-compliance. */
export interface AnalysisResult {
  message: string;
  newInsights: number;
  /** Open insights the run retired because their subject was resolved. */
  retired: number;
}

// ---------------------------------------------------------------- the firm's rule settings

/**
 * Keywords an amount must follow to count (threshold_alert), the firm-wide threshold and
 * per-report-type overrides. Defaults and their sources: README "AI compliance insights".
 */
export interface InsightRuleSettings {
  keywords: string[];
  defaultThreshold: number;
  thresholds: { reportTypeId: number; threshold: number }[];
}

/** India: GST registration is compulsory above ₹20 lakh aggregate turnover (CGST Act 2017, s. 22(1), services and most States). */
export const DEFAULT_THRESHOLD = 2_000_000;
export const DEFAULT_KEYWORDS = ['turnover', 'gross receipts', 'total'] as const;
export const DEFAULT_RULE_SETTINGS: InsightRuleSettings = { keywords: [...DEFAULT_KEYWORDS], defaultThreshold: DEFAULT_THRESHOLD, thresholds: [] };

const amountSchema = (field: string) => z.number({ error: `${field} must be a number` }).positive(`${field} must be above 0`).max(1e15, `${field} is too large`);

/** PUT /api/compliance-insights/rules (Admin). */
export const insightRuleSettingsSchema = z.object({
  keywords: z.array(textSchema('Keyword', 60).transform((k) => k.trim().toLowerCase()).refine((k) => k.length > 0, 'Keywords must not be empty'), { error: 'keywords must be a list of words' })
    .min(1, 'Give at least one keyword').max(30, 'At most 30 keywords').transform((ks) => [...new Set(ks)]),
  defaultThreshold: amountSchema('defaultThreshold'),
  thresholds: z.array(z.object({ reportTypeId: idSchema('reportTypeId'), threshold: amountSchema('threshold') }), { error: 'thresholds must be a list' })
    .max(500).default([]),
});
