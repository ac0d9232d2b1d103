import type { ChartData, ChartOptions } from 'chart.js';
import type { ActionCount, DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTIVITY_ACTIONS } from '@ledgerline/contracts/activity.constants.ts';
import type { FileType } from '@ledgerline/contracts/files.contracts.ts';
import { ACTION_LABELS } from './activity-format.ts';

/*
 * The dashboard's figures as Chart.js data (PrimeReact's Chart draws them). Pure functions, so
 * what a chart shows is tested without a canvas.
 */

/** The lara-light-blue theme's 500 shades, in the order series take them. */
export const CHART_COLORS = ['#3b82f6', '#22c55e', '#f97316', '#a855f7', '#14b8a6', '#ef4444', '#eab308', '#6366f1'] as const;

const color = (index: number): string => CHART_COLORS[index % CHART_COLORS.length]!;

export const FILE_TYPE_LABELS: Readonly<Record<FileType, string>> = {
  report: 'Reports',
  company_document: 'Company Documents',
  firm_document: 'Firm Documents',
};

/** 'YYYY-MM-DD…' → 'MM/dd', read as a calendar day so no time zone shifts it. */
export function dayLabel(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[2]}/${match[3]}` : date;
}

/** Overview: activity per day over the last 30 days, oldest first, as the server sends it. */
export function activityTrendData(days: DashboardOverview['activityByDay']): ChartData<'line'> {
  return {
    labels: days.map((day) => dayLabel(day.date)),
    datasets: [
      {
        label: 'Activities',
        data: days.map((day) => day.count),
        borderColor: color(0),
        backgroundColor: 'rgba(59, 130, 246, 0.15)',
        fill: true,
        // Counts are whole and never negative: a monotone curve never swings past its points.
        cubicInterpolationMode: 'monotone',
        pointRadius: 2,
      },
    ],
  };
}

/** Client Engagement: the top clients' activities beside their documents. */
export function topClientsData(clients: DashboardOverview['topClients']): ChartData<'bar'> {
  return {
    labels: clients.map((client) => client.clientName),
    datasets: [
      { label: 'Activities', data: clients.map((client) => client.activities), backgroundColor: color(0) },
      { label: 'Documents', data: clients.map((client) => client.documents), backgroundColor: color(1) },
    ],
  };
}

/** Document Analytics: views, downloads and AI chats of the top files, stacked per file. */
export function topFilesData(files: DashboardOverview['topFiles']): ChartData<'bar'> {
  return {
    labels: files.map((file) => file.fileName),
    datasets: [
      { label: 'Views', data: files.map((file) => file.views), backgroundColor: color(0), stack: 'usage' },
      { label: 'Downloads', data: files.map((file) => file.downloads), backgroundColor: color(1), stack: 'usage' },
      { label: 'AI Chats', data: files.map((file) => file.chats), backgroundColor: color(3), stack: 'usage' },
    ],
  };
}

/** Document Analytics: documents per file type, every type that has any. */
export function documentsByTypeData(types: DashboardOverview['documentsByType']): ChartData<'doughnut'> {
  const present = types.filter((type) => type.count > 0);
  return {
    labels: present.map((type) => FILE_TYPE_LABELS[type.fileType] ?? type.fileType),
    datasets: [{ data: present.map((type) => type.count), backgroundColor: present.map((_, index) => color(index)) }],
  };
}

/** User Activity: the top users' action counts. */
export function topUsersData(users: DashboardOverview['topUsers']): ChartData<'bar'> {
  return {
    labels: users.map((user) => user.userName),
    datasets: [{ label: 'Actions', data: users.map((user) => user.actions), backgroundColor: color(0) }],
  };
}

/** The actions breakdown: counts in the spec's action order, actions that never happened left out. */
export function actionBreakdownData(counts: readonly ActionCount[]): ChartData<'doughnut'> {
  const byAction = new Map(counts.map((entry) => [entry.action, entry.count]));
  const present = ACTIVITY_ACTIONS.map((action, index) => ({ action, index, count: byAction.get(action) ?? 0 })).filter((entry) => entry.count > 0);
  return {
    labels: present.map((entry) => ACTION_LABELS[entry.action]),
    // Each action keeps its colour whichever others are missing.
    datasets: [{ data: present.map((entry) => entry.count), backgroundColor: present.map((entry) => color(entry.index)) }],
  };
}

/** Whether a chart would draw anything: all-zero series get an empty state instead. */
export function hasChartValues(data: ChartData): boolean {
  return data.datasets.some((dataset) => dataset.data.some((value) => typeof value === 'number' && value > 0));
}

const integerTicks = { precision: 0 } as const;

export const LINE_OPTIONS: ChartOptions<'line'> = {
  maintainAspectRatio: false,
  plugins: { legend: { display: false } },
  scales: { y: { beginAtZero: true, ticks: integerTicks } },
};

export const BAR_OPTIONS: ChartOptions<'bar'> = {
  maintainAspectRatio: false,
  plugins: { legend: { position: 'bottom' } },
  scales: { y: { beginAtZero: true, ticks: integerTicks } },
};

export const STACKED_BAR_OPTIONS: ChartOptions<'bar'> = {
  maintainAspectRatio: false,
  plugins: { legend: { position: 'bottom' } },
  scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: integerTicks } },
};

export const DOUGHNUT_OPTIONS: ChartOptions<'doughnut'> = {
  maintainAspectRatio: false,
  plugins: { legend: { position: 'bottom' } },
};
