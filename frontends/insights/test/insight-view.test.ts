import { describe, expect, it } from '@jest/globals';
import type { ComplianceInsight, InsightPriority, InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { confidenceText, emptyTabText, insightActions, insightItems, insightLeads, insightStats, taskFromInsight } from '../src/insight-view.ts';

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

  describe('where a card leads', () => {
    const group: ComplianceInsight = {
      ...insight(5, 'pending', 'high'), clientName: 'Bayview Bakery', title: 'GSTR-3B overdue for 4 periods', description: 'No GSTR-3B is marked filed.',
      recommendedAction: 'Ask the client.', periods: ['Aug 2026', 'Sep 2026', 'Oct 2026', 'Nov 2026'],
      metadata: { reportTypeId: 3, reportTypeName: 'GSTR-3B', items: ['Aug', 'Sep', 'Oct', 'Nov'].map((m, i) => ({ trackerItemId: 10 + i, period: `${m} 2026`, dueDate: '2026-09-20', overdue: true })) },
    };
    const match: ComplianceInsight = { ...insight(6, 'reviewed', 'medium'), insightType: 'compliance_match', metadata: { trackerItemId: 12, period: 'Oct 2026', reportTypeId: 3 } };

    it('reads the tracker items of a grouped card and of a match, none of the others', () => {
      expect(insightItems(group).map((i) => [i.trackerItemId, i.period])).toEqual([[10, 'Aug 2026'], [11, 'Sep 2026'], [12, 'Oct 2026'], [13, 'Nov 2026']]);
      expect(insightItems(match)).toEqual([{ trackerItemId: 12, period: 'Oct 2026' }]);
      expect(insightItems({ metadata: { amount: 5 } })).toEqual([]);
    });

    it('offers Mark filed on an open match, Create task and Request documents on open missing periods, nothing once closed', () => {
      expect(insightLeads(match)).toEqual({ markFiled: true, createTask: false, requestDocuments: false });
      expect(insightLeads(group)).toEqual({ markFiled: false, createTask: true, requestDocuments: true });
      expect(insightLeads({ ...group, status: 'dismissed' })).toEqual({ markFiled: false, createTask: false, requestDocuments: false });
      expect(insightLeads({ ...match, status: 'acted_upon' }).markFiled).toBe(false);
    });

    it('prefills a task with the client, the report type, its periods and the card\'s text', () => {
      expect(taskFromInsight(group)).toEqual({
        title: 'Collect GSTR-3B for Aug 2026, Sep 2026, Oct 2026 and 1 more (Bayview Bakery)',
        description: 'No GSTR-3B is marked filed.\n\nAsk the client.', priority: 'high', clientIds: [1], reportTypeId: 3,
      });
    });
  });
});
