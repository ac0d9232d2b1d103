import { formatMoney, JURISDICTION_NAMES, type ComplianceInsight, type InsightRuleSettings, type Jurisdiction, type ThresholdRule } from '@ledgerline/contracts/insights.contracts.ts';
import { largestAmountNear, type DocumentFacts } from './document-facts.ts';
import type { PeriodKey } from './period-mentions.ts';
import { classifiedPeriod, type ReportClassification } from './report-classification.ts';

/*
 * The four rules (issue 12), as one pure function of what insights knows about a client:
 * its tracker items, its files' facts, the firm's settings and today. Each finding names
 * its subject; the store keeps at most one open insight per subject and retires open
 * insights whose subject no run finds any more (the document arrived, the item was filed).
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
  /** 'YYYY-MM-DD' in the firm's time zone. */
  today: string;
}

/** What a rule found: the insight's own fields, and the subject it is about. */
export interface Finding extends Pick<ComplianceInsight, 'insightType' | 'priority' | 'title' | 'description' | 'recommendedAction' | 'confidence' | 'fileId' | 'metadata'> {
  subject: string;
  /** compliance_match: what the tracker item's AI fields become. */
  trackerMatch?: { trackerItemId: number; aiConfidence: number; sourceFileId: number };
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

function missingDocument(item: TrackerItemFacts, today: string): Finding {
  const overdue = isOverdue(item, today);
  const due = displayDay(effectiveDue(item));
  return {
    subject: `missing_document:item:${item.id}`,
    insightType: 'missing_document',
    priority: overdue ? 'high' : 'medium',
    title: `${item.reportTypeName} for ${item.periodLabel} ${overdue ? 'is overdue' : 'is due soon'}`,
    description: overdue
      ? `The ${item.reportTypeName} for ${item.periodLabel} was due on ${due}; it is not marked filed and no report of this type names the period.`
      : `The ${item.reportTypeName} for ${item.periodLabel} is due on ${due}; no report of this type naming the period has been uploaded yet.`,
    recommendedAction: `Upload the ${item.reportTypeName} for ${item.periodLabel} (due ${due}), or mark it filed in the compliance tracker.`,
    confidence: RULES.missingConfidence,
    fileId: null,
    metadata: { trackerItemId: item.id, reportTypeId: item.reportTypeId, period: item.periodLabel, dueDate: effectiveDue(item), overdue },
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
    metadata: { trackerItemId: item.id, reportTypeId: item.reportTypeId, period: item.periodLabel, model: file.model !== null },
    trackerMatch: { trackerItemId: item.id, aiConfidence: confidence, sourceFileId: file.id },
  };
}

/** The threshold for a report of a client in `jurisdiction`: its report type's, else the jurisdiction's; none without a rule there. */
export function thresholdFor(settings: InsightRuleSettings, jurisdiction: Jurisdiction, reportTypeId: number | null): ThresholdRule | null {
  const ofJurisdiction = settings.thresholds.filter((t) => t.jurisdiction === jurisdiction);
  return ofJurisdiction.find((t) => t.reportTypeId !== null && t.reportTypeId === reportTypeId) ?? ofJurisdiction.find((t) => t.reportTypeId === null) ?? null;
}

function thresholdAlert(file: FileFacts, settings: InsightRuleSettings, jurisdiction: Jurisdiction, reportTypeName: string | null): Finding | null {
  if (!file.facts) return null;
  const rule = thresholdFor(settings, jurisdiction, file.reportTypeId);
  if (!rule) return null;
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
    description: `"${file.name}" states ${found.keyword} of ${amount}, above the ${JURISDICTION_NAMES[jurisdiction]} threshold of ${limit}${reportTypeName && rule.reportTypeId !== null ? ` for ${reportTypeName}` : ''}: ${rule.obligation}${rule.source ? ` (${rule.source})` : ''}.`,
    recommendedAction: `Check whether the client now needs ${rule.obligation.replace(/ \(.*$/, '')}, and update its compliance schedules.`,
    confidence: round2(RULES.thresholdBase + (modelSeesIt ? RULES.modelAgrees : 0)),
    fileId: file.id,
    metadata: { amount: found.amount, keyword: found.keyword, threshold, currency, jurisdiction, reportTypeId: file.reportTypeId },
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

function consecutiveMissing(missing: readonly TrackerItemFacts[], items: readonly TrackerItemFacts[], clientId: number): Finding[] {
  const out: Finding[] = [];
  const missingIds = new Set(missing.map((i) => i.id));
  const byType = new Map<number, TrackerItemFacts[]>();
  for (const i of items) {
    const list = byType.get(i.reportTypeId);
    if (list) list.push(i);
    else byType.set(i.reportTypeId, [i]);
  }
  for (const [reportTypeId, ofType] of byType) {
    ofType.sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id - b.id);
    const run: TrackerItemFacts[] = [];
    let longest: TrackerItemFacts[] = [];
    for (const i of ofType) {
      if (missingIds.has(i.id)) run.push(i);
      else run.length = 0;
      if (run.length > longest.length) longest = [...run];
    }
    if (longest.length < 2) continue;
    const name = longest[0]!.reportTypeName;
    out.push({
      subject: `pattern_detected:missing:${clientId}:${reportTypeId}`,
      insightType: 'pattern_detected',
      priority: 'high',
      title: `${name} missing for ${longest.length} consecutive periods`,
      description: `No ${name} has arrived for ${longest.map((i) => i.periodLabel).join(', ')}.`,
      recommendedAction: `Ask the client for the ${name} documents of every missing period and review why they stopped arriving.`,
      confidence: RULES.patternConfidence,
      fileId: null,
      metadata: { reportTypeId, trackerItemIds: longest.map((i) => i.id) },
    });
  }
  return out;
}

/** Every finding about one client, at most one per subject. */
export function findInsights(input: ClientFacts, reportTypeNames: ReadonlyMap<number, string> = new Map()): Finding[] {
  const { items, files, settings, today, clientId, jurisdiction } = input;
  const periodsOf = new Map(files.map((f) => [f.id, filePeriods(f)]));
  const findings: Finding[] = [];
  const missing: TrackerItemFacts[] = [];
  for (const item of items) {
    if (item.status === 'filed') continue;
    const reports = reportsFor(item, files, periodsOf);
    let best: { file: FileFacts; confidence: number } | null = null;
    for (const f of reports) {
      const c = matchConfidence(item, f);
      if (c !== null && (!best || c > best.confidence || (c === best.confidence && f.id > best.file.id))) best = { file: f, confidence: c };
    }
    if (best) findings.push(complianceMatch(item, best.file, best.confidence));
    if (reports.length === 0 && (isOverdue(item, today) || inReminderWindow(item, today))) {
      findings.push(missingDocument(item, today));
      if (isOverdue(item, today)) missing.push(item);
    }
  }
  for (const f of files) {
    const alert = thresholdAlert(f, settings, jurisdiction, f.reportTypeId === null ? null : (reportTypeNames.get(f.reportTypeId) ?? null));
    if (alert) findings.push(alert);
  }
  const late = latePattern(items, clientId, today);
  if (late) findings.push(late);
  findings.push(...consecutiveMissing(missing, items, clientId));
  return findings;
}
