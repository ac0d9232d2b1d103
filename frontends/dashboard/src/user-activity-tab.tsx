import { useMemo } from 'react';
import { Column } from 'primereact/column';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { actionBreakdownData, BAR_OPTIONS, DOUGHNUT_OPTIONS, topUsersData } from './chart-data.ts';
import { ChartPanel } from './chart-panel.tsx';
import { TopListTable } from './top-list-table.tsx';

type TopUser = DashboardOverview['topUsers'][number];

export interface UserActivityTabProps {
  overview: DashboardOverview | undefined;
  onOpenUser(user: TopUser): void;
}

/** User Activity / Your Activity: the most active users and the actions breakdown (spec 001 §2). */
export function UserActivityTab({ overview, onOpenUser }: UserActivityTabProps) {
  const users = overview?.topUsers;
  const chart = useMemo(() => users && topUsersData(users), [users]);
  const breakdown = useMemo(() => overview && actionBreakdownData(overview.actionCounts), [overview]);
  return (
    <div className="dashboard-grid">
      <ChartPanel title="Most Active Users" type="bar" data={chart} options={BAR_OPTIONS} emptyText="No user activity recorded yet." />
      <ChartPanel title="Actions Breakdown" type="doughnut" data={breakdown} options={DOUGHNUT_OPTIONS} emptyText="No actions recorded yet." />
      <section className="dashboard-panel dashboard-panel--wide" aria-label="User Activity">
        <h3 className="dashboard-panel__title">User Activity</h3>
        <TopListTable
          rows={users}
          dataKey="userId"
          emptyText="No user activity recorded yet."
          details={{ label: (user) => `Activity details for ${user.userName}`, open: onOpenUser }}
        >
          <Column field="userName" header="User" />
          <Column field="actions" header="Actions" className="top-list__number" />
          <Column header="Last Active" body={(user: TopUser) => formatDate(user.lastActiveAt, { withTime: true })} />
        </TopListTable>
      </section>
    </div>
  );
}
