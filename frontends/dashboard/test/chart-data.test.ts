import { describe, expect, it } from '@jest/globals';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import {
  actionBreakdownData,
  activityTrendData,
  CHART_COLORS,
  dayLabel,
  documentsByTypeData,
  hasChartValues,
  STACKED_BAR_OPTIONS,
  topClientsData,
  topFilesData,
  topUsersData,
} from '../src/chart-data.ts';

describe('dashboard chart data', () => {
  it('labels the 30-day activity trend by calendar day, oldest first, zeros kept', () => {
    const days: DashboardOverview['activityByDay'] = [
      { date: '2025-02-28', count: 0 },
      { date: '2025-03-01', count: 4 },
      { date: '2025-03-02T00:00:00.000Z', count: 1 },
    ];
    const data = activityTrendData(days);
    expect(data.labels).toEqual(['02/28', '03/01', '03/02']);
    expect(data.datasets).toHaveLength(1);
    expect(data.datasets[0]!.label).toBe('Activities');
    expect(data.datasets[0]!.data).toEqual([0, 4, 1]);
    // A smoothed line must not dip below zero between a zero day and a busy one.
    expect(data.datasets[0]).toMatchObject({ cubicInterpolationMode: 'monotone' });
    expect(dayLabel('not a date')).toBe('not a date');
  });

  it('puts activities beside documents for the top clients', () => {
    const data = topClientsData([
      { clientId: 1, clientName: 'Acme', documents: 3, activities: 12, lastActivityAt: null },
      { clientId: 2, clientName: 'Beta', documents: 5, activities: 2, lastActivityAt: null },
    ]);
    expect(data.labels).toEqual(['Acme', 'Beta']);
    expect(data.datasets.map((set) => [set.label, set.data])).toEqual([
      ['Activities', [12, 2]],
      ['Documents', [3, 5]],
    ]);
  });

  it('stacks views, downloads and AI chats per top file', () => {
    const data = topFilesData([
      { fileId: 9, fileName: 'Return.pdf', clientName: 'Acme', views: 4, downloads: 2, chats: 1, total: 7 },
      { fileId: 8, fileName: 'Ledger.xlsx', clientName: null, views: 0, downloads: 3, chats: 0, total: 3 },
    ]);
    expect(data.labels).toEqual(['Return.pdf', 'Ledger.xlsx']);
    expect(data.datasets.map((set) => [set.label, set.data, set.stack])).toEqual([
      ['Views', [4, 0], 'usage'],
      ['Downloads', [2, 3], 'usage'],
      ['AI Chats', [1, 0], 'usage'],
    ]);
    expect(STACKED_BAR_OPTIONS.scales?.x).toMatchObject({ stacked: true });
    expect(STACKED_BAR_OPTIONS.scales?.y).toMatchObject({ stacked: true });
  });

  it('names document types and leaves out the empty ones', () => {
    const data = documentsByTypeData([
      { fileType: 'report', count: 6 },
      { fileType: 'company_document', count: 0 },
      { fileType: 'firm_document', count: 2 },
    ]);
    expect(data.labels).toEqual(['Reports', 'Firm Documents']);
    expect(data.datasets[0]!.data).toEqual([6, 2]);
  });

  it('charts the top users by actions', () => {
    const data = topUsersData([{ userId: 4, userName: 'Priya Mehta', actions: 9, lastActiveAt: null }]);
    expect(data.labels).toEqual(['Priya Mehta']);
    expect(data.datasets[0]!.data).toEqual([9]);
  });

  it('orders the actions breakdown as the spec lists actions, each with a fixed colour', () => {
    const data = actionBreakdownData([
      { action: 'view', count: 5 },
      { action: 'upload', count: 2 },
      { action: 'delete', count: 0 },
      { action: 'chat', count: 1 },
    ]);
    expect(data.labels).toEqual(['Uploads', 'Views', 'AI Chats']);
    expect(data.datasets[0]!.data).toEqual([2, 5, 1]);
    // upload, view and chat are actions 0, 2 and 3 of spec 001 §9.
    expect(data.datasets[0]!.backgroundColor).toEqual([CHART_COLORS[0], CHART_COLORS[2], CHART_COLORS[3]]);
  });

  it('tells charts with something to draw from all-zero or empty ones', () => {
    expect(hasChartValues(activityTrendData([{ date: '2025-03-01', count: 0 }]))).toBe(false);
    expect(hasChartValues(topUsersData([]))).toBe(false);
    expect(hasChartValues(activityTrendData([{ date: '2025-03-01', count: 1 }]))).toBe(true);
  });
});
