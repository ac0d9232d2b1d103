import type { ReactNode } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { ACTION_ICONS, activityText, hasViewableFile, namesDeletedFile } from './activity-format.ts';
import { visibleActivities, type ActivityViewer } from './activity-visibility.ts';
import { FileActions } from './file-actions.tsx';

/** Spec 001 §9: the feed shows this many placeholder rows while it loads. */
export const SKELETON_ROWS = 4;
export const NO_ACTIVITIES = 'No activities found.';

export type ActivityTableVariant = 'dashboard' | 'page';
export type OptionalActivityColumn = 'user' | 'client';

export interface ActivityTableProps {
  /** Newest first, as the server sends them; undefined while loading. */
  logs: readonly ActivityLog[] | undefined;
  loading: boolean;
  /** The signed-in user, for the visibility rule (activity-visibility.ts). */
  viewer: ActivityViewer;
  /** 'page' (the Activity Log page) adds the Details column. */
  variant?: ActivityTableVariant;
  /** Columns that say nothing in a context, e.g. User inside one user's details. */
  omit?: readonly OptionalActivityColumn[];
  /** Rows per page; the table pages only when there are more. */
  pageSize?: number;
}

type Row = ActivityLog | { id: number; placeholder: true };

const PLACEHOLDERS: readonly Row[] = Array.from({ length: SKELETON_ROWS }, (_, index) => ({ id: -1 - index, placeholder: true }));

const isPlaceholder = (row: Row): row is { id: number; placeholder: true } => 'placeholder' in row;

/**
 * The activity feed ('Recent Activity' on the Dashboard, the Activity Log page, and inside the
 * details dialogs): icon, Activity, User, Client, Date & Time, Action (spec 001 §2).
 */
export function ActivityTable({ logs, loading, viewer, variant = 'dashboard', omit = [], pageSize = 25 }: ActivityTableProps) {
  const rows: readonly Row[] = loading ? PLACEHOLDERS : visibleActivities(logs ?? [], viewer);
  // Placeholder rows draw a skeleton in every cell instead of the cell's content.
  const cell = (render: (log: ActivityLog) => ReactNode, skeleton = <Skeleton />) => (row: Row) => (isPlaceholder(row) ? skeleton : render(row));
  return (
    <DataTable
      value={rows as Row[]}
      dataKey="id"
      emptyMessage={NO_ACTIVITIES}
      size="small"
      stripedRows
      className="activity-table"
      paginator={!loading && rows.length > pageSize}
      rows={pageSize}
      aria-busy={loading}
    >
      <Column
        header=""
        headerClassName="activity-table__icon-column"
        body={cell(
          (log) => (
            <span className={`activity-icon activity-icon--${log.action}`} title={log.action}>
              <i className={ACTION_ICONS[log.action] ?? 'pi pi-circle'} aria-hidden="true" />
            </span>
          ),
          <Skeleton shape="circle" size="2rem" />,
        )}
      />
      <Column
        header="Activity"
        body={cell((log) => (
          <span className="activity-table__text">
            {activityText(log)}
            {namesDeletedFile(log) && <Tag value="File deleted" severity="secondary" className="activity-table__deleted" />}
          </span>
        ))}
      />
      {!omit.includes('user') && <Column header="User" body={cell((log) => log.userName)} />}
      {!omit.includes('client') && <Column header="Client" body={cell((log) => log.clientName ?? '—')} />}
      <Column header="Date & Time" className="activity-table__date" body={cell((log) => formatDate(log.timestamp, { withTime: true }))} />
      {variant === 'page' && <Column header="Details" className="activity-table__details" body={cell((log) => log.details ?? '—')} />}
      <Column
        header="Action"
        className="activity-table__actions"
        body={cell((log) =>
          hasViewableFile(log) ? <FileActions file={{ id: log.fileId!, originalName: log.fileName! }} /> : null,
        )}
      />
    </DataTable>
  );
}
