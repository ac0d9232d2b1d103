import { useMemo } from 'react';
import { Column } from 'primereact/column';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { BAR_OPTIONS, topClientsData } from './chart-data.ts';
import { ChartPanel } from './chart-panel.tsx';
import { TopListTable } from './top-list-table.tsx';

type TopClient = DashboardOverview['topClients'][number];

export interface EngagementTabProps {
  overview: DashboardOverview | undefined;
  onOpenClient(client: TopClient): void;
}

/** Client Engagement: the top clients by activity, as a chart and a table (spec 001 §2). */
export function EngagementTab({ overview, onOpenClient }: EngagementTabProps) {
  const clients = overview?.topClients;
  const chart = useMemo(() => clients && topClientsData(clients), [clients]);
  return (
    <div className="dashboard-grid">
      <ChartPanel title="Top Clients by Activity" type="bar" data={chart} options={BAR_OPTIONS} emptyText="No client activity recorded yet." />
      <section className="dashboard-panel" aria-label="Client Engagement">
        <h3 className="dashboard-panel__title">Client Engagement</h3>
        <TopListTable
          rows={clients}
          dataKey="clientId"
          emptyText="No client engagement recorded yet."
          details={{ label: (client) => `Engagement details for ${client.clientName}`, open: onOpenClient }}
        >
          <Column field="clientName" header="Client" />
          <Column field="documents" header="Documents" className="top-list__number" />
          <Column field="activities" header="Activities" className="top-list__number" />
          <Column header="Last Activity" body={(client: TopClient) => formatDate(client.lastActivityAt)} />
        </TopListTable>
      </section>
    </div>
  );
}
