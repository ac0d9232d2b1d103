import type { EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import {
  DOCUMENT_KIND_LABELS, JURISDICTION_NAMES, type ComplianceInsight, type DocumentKind, type InsightRuleSettings, type Jurisdiction, type ThresholdRule,
} from '@ledgerline/contracts/insights.contracts.ts';
import { formatMoney } from '@ledgerline/contracts/money.ts';
import { largestAmountNear, readableName, type DocumentFacts } from './document-facts.ts';
import { documentKind } from './document-kind.ts';
import type { PeriodKey } from './period-mentions.ts';
import { classifiedPeriod, type ReportClassification } from './report-classification.ts';

/*
 * The four rules (issue 12), as one pure function of what insights knows about a client:
 * its tracker items, its files' facts, the firm's settings and today. Each finding names
 * its subject; the store keeps at most one open insight per subject and retires open
 * insights whose subject no run finds any more (the document arrived, the item was filed).
 * Missing periods are one finding per report type (issue 23), not one per item.
 */

export type TrackerStatus = 'pending' | 'filed' | 'delayed' | 'extended';

export interface TrackerItemFacts {
  id: number;
  reportTypeId: number;
  reportTypeName: string;
  /** As the compliance tracker shows it ('March 2027', 'Q1 2027'). */
  periodLabel: string;
  /** The period's key (period-mentions.ts), or null when it is not a month, quarter or year. */
  periodKey: PeriodKey | null;
  dueDate: string;
  extensionDate: string | null;
  status: TrackerStatus;
  filedDate: string | null;
  reminderDays: number;
}

export interface FileFacts {
  id: number;
  name: string;
  reportTypeId: number | null;
  isReport: boolean;
  /** Null until the text is extracted: the name alone speaks for the file. */
  facts: DocumentFacts | null;
  namePeriods: PeriodKey[];
  nameFiling: boolean;
  /** A language model's validated classification, when one is configured and answered. */
  model: ReportClassification | null;
}

export interface ClientFacts {
  clientId: number;
  items: readonly TrackerItemFacts[];
  files: readonly FileFacts[];
  settings: InsightRuleSettings;
  /** The client's jurisdiction (its record's, else the settings' default): only its thresholds apply. */
  jurisdiction: Jurisdiction;
  /** The client's legal form, when its record names one: a threshold applies to the types it is about. */
  entityType?: EntityType | null;
  /** 'YYYY-MM-DD' in the firm's time zone. */
  today: string;
  /** Items whose missing-document card a person acted upon or dismissed: not raised again. */
  settledItemIds?: ReadonlySet<number>;
}

/** What a rule found: the insight's own fields, and the subject it is about. */
export interface Finding extends Pick<ComplianceInsight, 'insightType' | 'priority' | 'title' | 'description' | 'recommendedAction' | 'confidence' | 'fileId' | 'metadata'> {
  subject: string;
  /** compliance_match: what the tracker item's AI fields become. */
  trackerMatch?: { trackerItemId: number; aiConfidence: number; sourceFileId: number };
  /**
   * A person closing its card does not close the subject for good: the rule itself leaves
   * out what they closed (grouped missing periods: a new missing period makes a new card).
   */
  renewable?: boolean;
}

/** Rule constants (docs/api/insights.md gives the reasons). */
export const RULES = {
  missingConfidence: 0.9,
  matchBase: 0.55,
  matchPeriodInName: 0.15,
  matchFilingInName: 0.1,
  matchCap: 0.85,
  modelAgrees: 0.12,
  modelDisagrees: -0.3,
  thresholdBase: 0.7,
  patternConfidence: 0.8,
  /** Delayed or late-filed items within the last year that make a pattern. */
  lateItemsForPattern: 3,
  patternWindowDays: 365,
} as const;

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const round2 = (n: number): number => Math.round(Math.min(0.99, Math.max(0.05, n)) * 100) / 100;
/** 'Mar 15, 2027' (spec 001 §9 tracker due dates). */
export const displayDay = (day: string): string =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' });

const effectiveDue = (item: TrackerItemFacts): string => (item.extensionDate && item.extensionDate > item.dueDate ? item.extensionDate : item.dueDate);
const isOverdue = (item: TrackerItemFacts, today: string): boolean => effectiveDue(item) < today;
const inReminderWindow = (item: TrackerItemFacts, today: string): boolean => addDays(effectiveDue(item), -item.reminderDays) <= today;
const filedLate = (item: TrackerItemFacts): boolean => item.status === 'filed' && item.filedDate !== null && item.filedDate > effectiveDue(item);

/** The periods a file names by the rules' reading; a model's only weighs the confidence (below). */
const filePeriods = (f: FileFacts): Set<PeriodKey> => new Set([...f.namePeriods, ...(f.facts?.textPeriods ?? [])]);

/** Reports of the item's report type that name its period. */
function reportsFor(item: TrackerItemFacts, files: readonly FileFacts[], periodsOf: Map<number, Set<PeriodKey>>): FileFacts[] {
  if (!item.periodKey) return [];
  return files.filter((f) => f.isReport && f.reportTypeId === item.reportTypeId && periodsOf.get(f.id)!.has(item.periodKey!));
}

/** How sure a report is the filing of the item, or null when it is not (no filing words). */
function matchConfidence(item: TrackerItemFacts, f: FileFacts): number | null {
  if (!f.nameFiling && !f.facts?.textFiling) return null;
  let c: number = RULES.matchBase;
  if (f.namePeriods.includes(item.periodKey!)) c += RULES.matchPeriodInName;
  if (f.nameFiling) c += RULES.matchFilingInName;
  c = Math.min(c, RULES.matchCap);
  if (f.model) {
    const agrees = classifiedPeriod(f.model) === item.periodKey && f.model.filed === true;
    const disagrees = (f.model.period !== null && classifiedPeriod(f.model) !== item.periodKey) || f.model.filed === false;
    if (agrees) c += RULES.modelAgrees;
    else if (disagrees) c += RULES.modelDisagrees;
  }
  return round2(c);
}

/** 'Aug 2026, Sep 2026 and Oct 2026'; past eight, 'and N more'. */
function listOf(labels: readonly string[]): string {
  const shown = labels.slice(0, 8);
  const rest = labels.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown.join('');
}

/**
 * The periods of one report type that a client has neither filed nor sent, as ONE card: a
 * firm onboarding in November would otherwise get a card per month of the year. Re-analysis
 * rewrites the card's periods in place; it retires when the last period is filed.
 */
function missingDocuments(clientId: number, items: readonly TrackerItemFacts[], today: string): Finding {
  const first = items[0]!;
  const name = first.reportTypeName;
  const overdue = items.filter((i) => isOverdue(i, today));
  const periods = items.map((i) => i.periodLabel);
  const earliest = displayDay(effectiveDue(first));
  const one = items.length === 1;
  const title = one ? `${name} for ${first.periodLabel} ${overdue.length ? 'is overdue' : 'is due soon'}`
    : overdue.length === items.length ? `${name} overdue for ${items.length} periods`
      : overdue.length === 0 ? `${name} due soon for ${items.length} periods`
        : `${name} missing for ${items.length} periods, ${overdue.length} overdue`;
  const description = one
    ? (overdue.length
      ? `The ${name} for ${first.periodLabel} was due on ${earliest}; it is not marked filed and no report of this type names the period.`
      : `The ${name} for ${first.periodLabel} is due on ${earliest}; no report of this type naming the period has been uploaded yet.`)
    : `No ${name} is marked filed or uploaded for ${listOf(periods)}; the earliest ${overdue.length ? 'was' : 'is'} due on ${earliest}.`;
  return {
    subject: `missing_document:client:${clientId}:type:${first.reportTypeId}`,
    insightType: 'missing_document',
    priority: overdue.length ? 'high' : 'medium',
    title,
    description,
    recommendedAction: one
      ? `Upload the ${name} for ${first.periodLabel} (due ${earliest}), or mark it filed in the compliance tracker.`
      : `Ask the client for the ${name} documents of these ${items.length} periods and upload them, or mark the periods filed in the compliance tracker.`,
    confidence: RULES.missingConfidence,
    fileId: null,
    metadata: {
      reportTypeId: first.reportTypeId, reportTypeName: name, periods, overdueCount: overdue.length,
      items: items.map((i) => ({ trackerItemId: i.id, period: i.periodLabel, dueDate: effectiveDue(i), overdue: isOverdue(i, today) })),
    },
    renewable: true,
  };
}

function complianceMatch(item: TrackerItemFacts, file: FileFacts, confidence: number): Finding {
  return {
    subject: `compliance_match:item:${item.id}`,
    insightType: 'compliance_match',
    priority: 'medium',
    title: `${item.reportTypeName} for ${item.periodLabel} appears to be filed`,
    description: `"${file.name}" names ${item.periodLabel} and reads like a filing acknowledgement for ${item.reportTypeName}, but the tracker still shows it as ${item.status}.`,
    recommendedAction: `Check "${file.name}" and mark ${item.reportTypeName} for ${item.periodLabel} as filed in the compliance tracker.`,
    confidence,
    fileId: file.id,
    metadata: { trackerItemId: item.id, reportTypeId: item.reportTypeId, reportTypeName: item.reportTypeName, period: item.periodLabel, periods: [item.periodLabel], model: file.model !== null },
    trackerMatch: { trackerItemId: item.id, aiConfidence: confidence, sourceFileId: file.id },
  };
}

/** The threshold for a report of a client in `jurisdiction`: its report type's, else the jurisdiction's; none without a rule there. */
export function thresholdFor(settings: InsightRuleSettings, jurisdiction: Jurisdiction, reportTypeId: number | null): ThresholdRule | null {
  const ofJurisdiction = settings.thresholds.filter((t) => t.jurisdiction === jurisdiction);
  return ofJurisdiction.find((t) => t.reportTypeId !== null && t.reportTypeId === reportTypeId) ?? ofJurisdiction.find((t) => t.reportTypeId === null) ?? null;
}

/**
 * What the file is: its text's reading, else its name's (facts read before kinds were), else
 * what a model called it.
 */
export function kindOfFile(file: Pick<FileFacts, 'name' | 'facts' | 'model'>): DocumentKind {
  const read = file.facts?.kind ?? documentKind(readableName(file.name), '');
  if (read !== 'unclassified' || !file.model?.reportType) return read;
  return documentKind(file.model.reportType, '');
}

/** Whether a rule is about this client and this kind of document ([] in a scope: every one). */
export function ruleApplies(rule: ThresholdRule, entityType: EntityType | null, kind: DocumentKind): boolean {
  const typeFits = entityType === null || rule.entityTypes.length === 0 || rule.entityTypes.includes(entityType);
  return typeFits && (rule.documentKinds.length === 0 || rule.documentKinds.includes(kind));
}

function thresholdAlert(file: FileFacts, settings: InsightRuleSettings, jurisdiction: Jurisdiction, entityType: EntityType | null, reportTypeName: string | null): Finding | null {
  if (!file.facts) return null;
  const rule = thresholdFor(settings, jurisdiction, file.reportTypeId);
  const kind = kindOfFile(file);
  if (!rule || !ruleApplies(rule, entityType, kind)) return null;
  const { threshold, currency } = rule;
  const found = largestAmountNear(file.facts.amounts, settings.keywords);
  if (!found || found.amount < threshold) return null;
  const modelSeesIt = file.model?.amounts.some((a) => a.amount >= threshold && settings.keywords.some((k) => a.label.toLowerCase().includes(k))) ?? false;
  const amount = formatMoney(found.amount, currency);
  const limit = formatMoney(threshold, currency);
  return {
    subject: `threshold_alert:file:${file.id}`,
    insightType: 'threshold_alert',
    priority: found.amount >= 2 * threshold ? 'high' : 'medium',
    title: `${found.keyword[0]!.toUpperCase()}${found.keyword.slice(1)} of ${amount} is above the ${jurisdiction} threshold of ${limit}`,
    description: `"${file.name}" (${DOCUMENT_KIND_LABELS[kind]}) states ${found.keyword} of ${amount}, above the ${JURISDICTION_NAMES[jurisdiction]} threshold of ${limit}${reportTypeName && rule.reportTypeId !== null ? ` for ${reportTypeName}` : ''}: ${rule.obligation}${rule.source ? ` (${rule.source})` : ''}.`,
    recommendedAction: `Check whether the client now needs ${rule.obligation.replace(/ \(.*$/, '')}, and update its compliance schedules.`,
    confidence: round2(RULES.thresholdBase + (modelSeesIt ? RULES.modelAgrees : 0)),
    fileId: file.id,
    metadata: { amount: found.amount, keyword: found.keyword, threshold, currency, jurisdiction, reportTypeId: file.reportTypeId, documentKind: kind },
  };
}

function latePattern(items: readonly TrackerItemFacts[], clientId: number, today: string): Finding | null {
  const since = addDays(today, -RULES.patternWindowDays);
  const late = items.filter((i) => i.dueDate >= since && i.dueDate <= today && (i.status === 'delayed' || filedLate(i)));
  if (late.length < RULES.lateItemsForPattern) return null;
  const labels = late.map((i) => `${i.reportTypeName} ${i.periodLabel}`);
  return {
    subject: `pattern_detected:late:${clientId}`,
    insightType: 'pattern_detected',
    priority: 'medium',
    title: `${late.length} filings delayed or late in the last 12 months`,
    description: `Delayed or filed after the due date: ${labels.slice(0, 8).join(', ')}${labels.length > 8 ? ` and ${labels.length - 8} more` : ''}.`,
    recommendedAction: 'Agree a document calendar with the client and set earlier reminders on its compliance schedules.',
    confidence: RULES.patternConfidence,
    fileId: null,
    metadata: { trackerItemIds: late.map((i) => i.id) },
  };
}

/** Every finding about one client, at most one per subject. */
export function findInsights(input: ClientFacts, reportTypeNames: ReadonlyMap<number, string> = new Map()): Finding[] {
  const { items, files, settings, today, clientId, jurisdiction, entityType = null, settledItemIds = new Set<number>() } = input;
  const periodsOf = new Map(files.map((f) => [f.id, filePeriods(f)]));
  const findings: Finding[] = [];
  const missingByType = new Map<number, TrackerItemFacts[]>();
  for (const item of [...items].sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id - b.id)) {
    if (item.status === 'filed') continue;
    const reports = reportsFor(item, files, periodsOf);
    let best: { file: FileFacts; confidence: number } | null = null;
    for (const f of reports) {
      const c = matchConfidence(item, f);
      if (c !== null && (!best || c > best.confidence || (c === best.confidence && f.id > best.file.id))) best = { file: f, confidence: c };
    }
    if (best) findings.push(complianceMatch(item, best.file, best.confidence));
    if (reports.length === 0 && !settledItemIds.has(item.id) && (isOverdue(item, today) || inReminderWindow(item, today))) {
      missingByType.set(item.reportTypeId, [...(missingByType.get(item.reportTypeId) ?? []), item]);
    }
  }
  for (const ofType of missingByType.values()) findings.push(missingDocuments(clientId, ofType, today));
  for (const f of files) {
    const alert = thresholdAlert(f, settings, jurisdiction, entityType, f.reportTypeId === null ? null : (reportTypeNames.get(f.reportTypeId) ?? null));
    if (alert) findings.push(alert);
  }
  const late = latePattern(items, clientId, today);
  if (late) findings.push(late);
  return findings;
}
