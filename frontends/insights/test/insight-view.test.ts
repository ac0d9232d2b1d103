import { describe, expect, it } from '@jest/globals';
import type { ComplianceInsight, InsightPriority, InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { confidenceText, emptyTabText, insightActions, insightStats } from '../src/insight-view.ts';

const insight = (id: number, status: InsightStatus, priority: InsightPriority): ComplianceInsight => ({
  id, clientId: 1, clientName: 'Acme', fileId: null, fileName: null, insightType: 'missing_document', priority, title: 't', description: 'd',
  recommendedAction: 'r', confidence: 0.9, status, metadata: {}, periods: [], createdAt: '2027-01-01T00:00:00Z', reviewedAt: null, reviewedById: null, reviewedByName: null,
});

describe('insight view', () => {
  it('counts the stat cards and tabs (High Priority: the open ones)', () => {
    const stats = insightStats([insight(1, 'pending', 'high'), insight(2, 'reviewed', 'high'), insight(3, 'dismissed', 'high'), insight(4, 'acted_upon', 'low')]);
    expect(stats).toEqual({ highPriority: 2, pendingReview: 1, actedUpon: 1, total: 4, byStatus: { pending: 1, reviewed: 1, acted_upon: 1, dismissed: 1 } });
  });

  it('offers Mark Reviewed only when pending, the other two until the insight is final', () => {
    expect(insightActions('pending')).toEqual({ review: true, actUpon: true, dismiss: true });
    expect(insightActions('reviewed')).toEqual({ review: false, actUpon: true, dismiss: true });
    expect(insightActions('acted_upon')).toEqual({ review: false, actUpon: false, dismiss: false });
    expect(insightActions('dismissed')).toEqual({ review: false, actUpon: false, dismiss: false });
  });

  it('uses the spec\'s texts', () => {
    expect(emptyTabText('acted_upon')).toBe('No acted upon insights found.');
    expect(emptyTabText('pending')).toBe('No pending insights found.');
    expect(confidenceText(0.555)).toBe('56% confidence');
  });
});
