import { useQuery } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import type { ActionCount, ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { formatCount } from '@ledgerline/ui/count-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { ACTION_ICONS, ACTION_LABELS } from './activity-format.ts';
import { ActivityTable, type OptionalActivityColumn } from './activity-table.tsx';
import type { ActivityViewer } from './activity-visibility.ts';
import { ACTIVITY_CACHE } from './dashboard.api.ts';

/** What both details calls answer with (UserActivityDetails, ClientEngagementDetails). */
export interface ActivityDetails {
  totalActions: number;
  actionCounts: ActionCount[];
  recent: ActivityLog[];
}

export interface DetailsTarget {
  /** The details call (dashboard.api.ts). */
  url: string;
  /** Whose details: a user's or client's name, shown until the reply names it. */
  name: string;
}

export interface ActivityDetailsDialogProps<T extends ActivityDetails> {
  header: string;
  /** Null: closed. */
  target: DetailsTarget | null;
  viewer: ActivityViewer;
  /** Spec 001 §8, e.g. 'Failed to load user activity details'. */
  failureText: string;
  /** Spec 001 §8, e.g. 'No activity found for this user'. */
  emptyText: string;
  /** Extra figures beside Total Actions (a client's documents). */
  figures?: (details: T) => { label: string; value: number }[];
  /** A column the recent list needs not repeat (the user, or the client, the dialog is about). */
  omit: OptionalActivityColumn;
  onHide(): void;
}

/** The user activity details and client engagement details dialogs of spec 001 §2. */
export function ActivityDetailsDialog<T extends ActivityDetails>(props: ActivityDetailsDialogProps<T>) {
  const { header, target, viewer, failureText, emptyText, figures, omit, onHide } = props;
  // The dialog fades out after closing: keep showing what it showed.
  const shown = useRetained(target);
  const details = useQuery<T>({ queryKey: [shown?.url], enabled: target !== null, ...ACTIVITY_CACHE });

  // Once per failed load, also when the same user or client fails again on reopening.
  useFailureToast(details, failureText);

  return (
    <Dialog header={header} visible={target !== null} onHide={onHide} className="details-dialog" draggable={false} dismissableMask>
      {shown && <h3 className="details-dialog__name">{shown.name}</h3>}
      {details.isPending && <ProgressSpinner className="dashboard-spinner" aria-label="Loading" />}
      {details.isError && <Message severity="error" text={failureText} className="details-dialog__error" />}
      {details.data && (
        <ActivityDetailsBody details={details.data} viewer={viewer} emptyText={emptyText} figures={figures?.(details.data) ?? []} omit={omit} />
      )}
    </Dialog>
  );
}

export interface ActivityDetailsBodyProps {
  details: ActivityDetails;
  viewer: ActivityViewer;
  emptyText: string;
  figures: { label: string; value: number }[];
  omit: OptionalActivityColumn;
}

/** The loaded details: figures, the actions breakdown, and the recent entries or the empty text. */
export function ActivityDetailsBody({ details, viewer, emptyText, figures, omit }: ActivityDetailsBodyProps) {
  const counts = details.actionCounts.filter((entry) => entry.count > 0);
  return (
    <div className="details-dialog__body">
      <dl className="details-figures">
        {[...figures, { label: 'Total Actions', value: details.totalActions }].map((figure) => (
          <div key={figure.label} className="details-figures__item">
            <dt>{figure.label}</dt>
            <dd>{formatCount(figure.value)}</dd>
          </div>
        ))}
      </dl>
      {counts.length > 0 && (
        <ul className="action-breakdown" aria-label="Actions breakdown">
          {counts.map((entry) => (
            <li key={entry.action} className={`action-breakdown__item activity-icon--${entry.action}`}>
              <i className={ACTION_ICONS[entry.action]} aria-hidden="true" />
              <span>{ACTION_LABELS[entry.action]}</span>
              <strong>{entry.count}</strong>
            </li>
          ))}
        </ul>
      )}
      {details.recent.length === 0 ? (
        <EmptyState icon="pi pi-history" text={emptyText} />
      ) : (
        <ActivityTable logs={details.recent} loading={false} viewer={viewer} omit={[omit]} pageSize={10} />
      )}
    </div>
  );
}
