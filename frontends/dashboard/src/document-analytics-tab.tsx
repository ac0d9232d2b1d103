import { useMemo } from 'react';
import { Column } from 'primereact/column';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { documentsByTypeData, DOUGHNUT_OPTIONS, STACKED_BAR_OPTIONS, topFilesData } from './chart-data.ts';
import { ChartPanel } from './chart-panel.tsx';
import { TopListTable } from './top-list-table.tsx';

type TopFile = DashboardOverview['topFiles'][number];

/** Document Analytics / Your Documents: the most used files and documents by type (spec 001 §2). */
export function DocumentAnalyticsTab({ overview }: { overview: DashboardOverview | undefined }) {
  const files = overview?.topFiles;
  const usage = useMemo(() => files && topFilesData(files), [files]);
  const byType = useMemo(() => overview && documentsByTypeData(overview.documentsByType), [overview]);
  return (
    <div className="dashboard-grid">
      <ChartPanel
        title="Most Used Documents"
        type="bar"
        data={usage}
        options={STACKED_BAR_OPTIONS}
        emptyText="No document views, downloads or AI chats yet."
      />
      <ChartPanel title="Documents by Type" type="doughnut" data={byType} options={DOUGHNUT_OPTIONS} emptyText="No documents uploaded yet." />
      <section className="dashboard-panel dashboard-panel--wide" aria-label="Document Usage">
        <h3 className="dashboard-panel__title">Document Usage</h3>
        <TopListTable rows={files} dataKey="fileId" emptyText="No document views, downloads or AI chats yet.">
          <Column field="fileName" header="Document" />
          <Column header="Client" body={(file: TopFile) => file.clientName ?? '—'} />
          <Column field="views" header="Views" className="top-list__number" />
          <Column field="downloads" header="Downloads" className="top-list__number" />
          <Column field="chats" header="AI Chats" className="top-list__number" />
          <Column field="total" header="Total" className="top-list__number" />
        </TopListTable>
      </section>
    </div>
  );
}
