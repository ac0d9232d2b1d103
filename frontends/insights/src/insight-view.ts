import { INSIGHT_MESSAGES, INSIGHT_STATUSES, type ComplianceInsight, type InsightPriority, type InsightStatus, type InsightType } from '@ledgerline/contracts/insights.contracts.ts';

/** What the screen shows for each value (spec 001 §2 tabs and badges). */
export const STATUS_LABELS: Record<InsightStatus, string> = { pending: 'Pending', reviewed: 'Reviewed', acted_upon: 'Acted Upon', dismissed: 'Dismissed' };
export const PRIORITY_LABELS: Record<InsightPriority, string> = { high: 'High', medium: 'Medium', low: 'Low' };
export const TYPE_ICONS: Record<InsightType, string> = {
  missing_document: 'pi pi-file-excel',
  compliance_match: 'pi pi-check-circle',
  threshold_alert: 'pi pi-chart-line',
  pattern_detected: 'pi pi-sitemap',
};
export const TYPE_LABELS: Record<InsightType, string> = {
  missing_document: 'Missing document', compliance_match: 'Compliance match', threshold_alert: 'Threshold alert', pattern_detected: 'Pattern detected',
};
export const PRIORITY_SEVERITY: Record<InsightPriority, 'danger' | 'warning' | 'info'> = { high: 'danger', medium: 'warning', low: 'info' };

/** 'No acted upon insights found.' */
export const emptyTabText = (status: InsightStatus): string => INSIGHT_MESSAGES.emptyTab(STATUS_LABELS[status].toLowerCase());

/** '{n}% confidence', rounded (spec 001 §9). */
export const confidenceText = (confidence: number): string => `${Math.round(confidence * 100)}% confidence`;

export interface InsightStats {
  highPriority: number;
  pendingReview: number;
  actedUpon: number;
  total: number;
  byStatus: Record<InsightStatus, number>;
}

/** The four stat cards and the tab counts. High Priority counts the ones still open (pending or reviewed). */
export function insightStats(insights: readonly ComplianceInsight[]): InsightStats {
  const byStatus = Object.fromEntries(INSIGHT_STATUSES.map((s) => [s, 0])) as Record<InsightStatus, number>;
  for (const i of insights) byStatus[i.status] += 1;
  return {
    highPriority: insights.filter((i) => i.priority === 'high' && (i.status === 'pending' || i.status === 'reviewed')).length,
    pendingReview: byStatus.pending,
    actedUpon: byStatus.acted_upon,
    total: insights.length,
    byStatus,
  };
}

/** §2 buttons: Mark Reviewed only when pending; Mark Acted Upon and Dismiss unless final. */
export function insightActions(status: InsightStatus): { review: boolean; actUpon: boolean; dismiss: boolean } {
  const open = status === 'pending' || status === 'reviewed';
  return { review: status === 'pending', actUpon: open, dismiss: open };
}

/** A tracker item an insight concerns, by the period it covers. */
export interface InsightItem {
  trackerItemId: number;
  period: string;
}

/** The tracker items of an insight: every period of a grouped missing-documents card, a match's one item, none for the others. */
export function insightItems(insight: Pick<ComplianceInsight, 'metadata'>): InsightItem[] {
  const m = insight.metadata as { items?: unknown; trackerItemId?: unknown; period?: unknown };
  if (Array.isArray(m.items)) {
    return m.items.filter((i): i is InsightItem => typeof i?.trackerItemId === 'number' && typeof i?.period === 'string')
      .map((i) => ({ trackerItemId: i.trackerItemId, period: i.period }));
  }
  return typeof m.trackerItemId === 'number' && typeof m.period === 'string' ? [{ trackerItemId: m.trackerItemId, period: m.period }] : [];
}

/** What a card can lead to besides its status buttons, by its type: only open insights about tracker items have any. */
export function insightLeads(insight: Pick<ComplianceInsight, 'insightType' | 'status' | 'metadata'>): { markFiled: boolean; createTask: boolean; requestDocuments: boolean } {
  const open = insight.status === 'pending' || insight.status === 'reviewed';
  const aboutItems = insightItems(insight).length > 0;
  return {
    markFiled: open && insight.insightType === 'compliance_match' && aboutItems,
    createTask: open && insight.insightType === 'missing_document',
    requestDocuments: open && insight.insightType === 'missing_document' && aboutItems,
  };
}

/** The task a missing-documents card creates: its client, report type and periods, its text as the description. */
export function taskFromInsight(insight: ComplianceInsight): { title: string; description: string; priority: 'high' | 'medium' | 'low'; clientIds: number[]; reportTypeId: number | null } {
  const m = insight.metadata as { reportTypeId?: unknown; reportTypeName?: unknown };
  const name = typeof m.reportTypeName === 'string' ? m.reportTypeName : 'Documents';
  const periods = insight.periods.length > 3 ? `${insight.periods.slice(0, 3).join(', ')} and ${insight.periods.length - 3} more` : insight.periods.join(', ');
  return {
    title: `Collect ${name}${periods ? ` for ${periods}` : ''}${insight.clientName ? ` (${insight.clientName})` : ''}`.slice(0, 500),
    description: `${insight.description}\n\n${insight.recommendedAction}`,
    priority: insight.priority,
    clientIds: [insight.clientId],
    reportTypeId: typeof m.reportTypeId === 'number' ? m.reportTypeId : null,
  };
}
