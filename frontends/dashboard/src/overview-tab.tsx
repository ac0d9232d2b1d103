import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Skeleton } from 'primereact/skeleton';
import type { ActivityLog, DashboardFile, DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { DASHBOARD_LIMITS } from '@ledgerline/contracts/activity.constants.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { formatMegabytes } from '@ledgerline/ui/file-size.ts';
import { ActivityTable } from './activity-table.tsx';
import type { ActivityViewer } from './activity-visibility.ts';
import { activityTrendData, FILE_TYPE_LABELS, LINE_OPTIONS } from './chart-data.ts';
import { ChartPanel } from './chart-panel.tsx';
import { FileActions } from './file-actions.tsx';

export interface OverviewTabProps {
  overview: DashboardOverview | undefined;
  activity: { logs: ActivityLog[] | undefined; loading: boolean };
  viewer: ActivityViewer;
  /** The Reports page of the viewer: /cpa-dashboard for staff, /client-reports for Client users. */
  reportsHref: string;
}

/** Overview / Company Overview: recent files, Recent Activity and activity per day (spec 001 §2). */
export function OverviewTab({ overview, activity, viewer, reportsHref }: OverviewTabProps) {
  const trend = useMemo(() => overview && activityTrendData(overview.activityByDay), [overview]);
  return (
    <div className="dashboard-grid">
      <section className="dashboard-panel dashboard-panel--wide" aria-label="Recent Files">
        <h3 className="dashboard-panel__title">Recent Files</h3>
        <p className="dashboard-panel__note">
          <i className="pi pi-info-circle" aria-hidden="true" /> Showing the {DASHBOARD_LIMITS.recentFiles} most recent files. To find, filter and
          search all files, open the <Link to={reportsHref}>Reports page</Link>.
        </p>
        <RecentFilesTable files={overview?.recentFiles} />
      </section>
      <ChartPanel
        title="Activity (Last 30 Days)"
        type="line"
        data={trend}
        options={LINE_OPTIONS}
        emptyText="No activity in the last 30 days."
        height="14rem"
        wide
      />
      <section className="dashboard-panel dashboard-panel--wide" aria-label="Recent Activity">
        <div className="dashboard-panel__head">
          <h3 className="dashboard-panel__title">Recent Activity</h3>
          <Link to="/activity" className="dashboard-panel__link">
            View all activity <i className="pi pi-arrow-right" aria-hidden="true" />
          </Link>
        </div>
        <ActivityTable logs={activity.logs} loading={activity.loading} viewer={viewer} />
      </section>
    </div>
  );
}

type FileRow = DashboardFile | { fileId: number; placeholder: true };

/** Skeleton rows while the files load, as the activity feed does: a covering overlay would move as the page settles (CLS). */
const FILE_PLACEHOLDERS: readonly FileRow[] = Array.from({ length: 3 }, (_, index) => ({ fileId: -1 - index, placeholder: true }));

function RecentFilesTable({ files }: { files: DashboardFile[] | undefined }) {
  const rows: readonly FileRow[] = files ?? FILE_PLACEHOLDERS;
  const cell = (render: (file: DashboardFile) => ReactNode) => (row: FileRow) => ('placeholder' in row ? <Skeleton /> : render(row));
  return (
    <DataTable
      value={rows as FileRow[]}
      dataKey="fileId"
      emptyMessage="No files uploaded yet."
      size="small"
      stripedRows
      className="recent-files"
      aria-busy={files === undefined}
    >
      <Column header="File Name" className="recent-files__name" body={cell((file) => file.fileName)} />
      <Column header="Client" body={cell((file) => file.clientName ?? '—')} />
      <Column header="Type" body={cell((file) => FILE_TYPE_LABELS[file.fileType] ?? file.fileType)} />
      <Column header="Size" className="recent-files__size" body={cell((file) => formatMegabytes(file.size))} />
      <Column header="Uploaded By" body={cell((file) => file.uploaderName)} />
      <Column header="Upload Date" body={cell((file) => formatDate(file.uploadedAt))} />
      <Column header="Action" body={cell((file) => <FileActions file={{ id: file.fileId, originalName: file.fileName }} />)} />
    </DataTable>
  );
}
