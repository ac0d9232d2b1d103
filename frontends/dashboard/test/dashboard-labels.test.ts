import { describe, expect, it } from '@jest/globals';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { dashboardTabs, summaryFigures } from '../src/dashboard-labels.ts';

const overview = {
  totalDocuments: 12,
  totalActivities: 40,
  totalClients: 3,
  activeUsers: 5,
} as DashboardOverview;

describe('dashboard labels', () => {
  it('gives staff the four tabs of spec 001 §2', () => {
    for (const role of ['Admin', 'DTA', 'CPA', 'Bookkeeper']) {
      expect(dashboardTabs(role).map((tab) => tab.label)).toEqual(['Overview', 'Client Engagement', 'Document Analytics', 'User Activity']);
    }
  });

  it("gives the Client role its three labels, in either case, without Client Engagement", () => {
    for (const role of ['Client', 'client']) {
      expect(dashboardTabs(role)).toEqual([
        { id: 'overview', label: 'Company Overview' },
        { id: 'documents', label: 'Your Documents' },
        { id: 'users', label: 'Your Activity' },
      ]);
    }
  });

  it("labels the staff cards with the firm's figures", () => {
    expect(summaryFigures('Admin', overview, 9).map(({ title, value, note }) => [title, value, note])).toEqual([
      ['Total Documents', 12, undefined],
      ['Total Activities', 40, undefined],
      // All the firm's clients, and those with documents or activity as the second figure.
      ['Clients', 9, '3 active'],
      ['Active Users (7d)', 5, undefined],
    ]);
  });

  it("labels a Client user's cards as their own, without active users", () => {
    expect(summaryFigures('Client', overview).map(({ title, value }) => [title, value])).toEqual([
      ['Your Documents', 12],
      ['Your Activities', 40],
      ['Your Companies', 3],
    ]);
  });

  it('speaks to an individual client as a person: their own overview, and no company count', () => {
    expect(dashboardTabs('Client', true).map((tab) => tab.label)).toEqual(['Your Overview', 'Your Documents', 'Your Activity']);
    expect(summaryFigures('Client', overview, undefined, true).map(({ title }) => title)).toEqual(['Your Documents', 'Your Activities']);
    // Staff see the firm's figures whoever the client is.
    expect(dashboardTabs('Admin', true).map((tab) => tab.label)).toEqual(['Overview', 'Client Engagement', 'Document Analytics', 'User Activity']);
  });

  it('leaves the figures undefined while loading, never 0', () => {
    expect(summaryFigures('CPA', undefined).map((figure) => figure.value)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
