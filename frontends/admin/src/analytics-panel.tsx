import type { ReactNode } from 'react';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import type { OptionalData } from './optional-data.ts';

export interface AnalyticsPanelProps<T extends object> {
  data: OptionalData<T[]>;
  /** Spec 001 §9: the dashboard's top-list sizes. */
  limit: number;
  /** What the table ranks, for the unavailable and empty texts: 'client engagement'. */
  subject: string;
  /** The table's <Column> elements. */
  children: ReactNode;
}

/** One analytics tab: a ranked table, or an honest note when its service gives no data. */
export function AnalyticsPanel<T extends object>({ data, limit, subject, children }: AnalyticsPanelProps<T>) {
  if (data.state === 'loading') return <ProgressSpinner className="analytics-panel__spinner" aria-label="Loading" />;
  if (data.state === 'failed') return <Message severity="error" text={failureReason(data.error)} className="page-error" />;
  if (data.state === 'unavailable') {
    return (
      <EmptyState
        icon="pi pi-chart-bar"
        title={`No ${subject} data available`}
        text={`This portal does not record ${subject} yet, so there is nothing to rank.`}
      />
    );
  }
  return (
    <DataTable value={data.data.slice(0, limit)} emptyMessage={`No ${subject} recorded.`} stripedRows size="small">
      {children}
    </DataTable>
  );
}
