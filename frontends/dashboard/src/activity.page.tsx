import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { ACTIVITY_LIST_DEFAULT_LIMIT, type ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTIVITY_ACTIONS, type ActivityAction } from '@ledgerline/contracts/activity.constants.ts';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { ACTION_LABELS } from './activity-format.ts';
import { ActivityTable } from './activity-table.tsx';
import { ACTIVITY_CACHE, activityLogsPath } from './dashboard.api.ts';
import { ViewerGate } from './viewer-gate.tsx';

export type ActionFilter = ActivityAction | 'all';

/** The action filter's choices: all actions, or one. */
export const ACTION_FILTER_OPTIONS: { label: string; value: ActionFilter }[] = [
  { label: 'All Actions', value: 'all' },
  ...ACTIVITY_ACTIONS.map((action) => ({ label: ACTION_LABELS[action], value: action })),
];

/** /activity (spec 001 §2 "Activity Log page"): the newest 100 entries, with Details. */
export function ActivityPage() {
  return <ViewerGate subject="activity">{(user, tenant) => <ActivityLogView user={user} tenant={tenant} />}</ViewerGate>;
}

function ActivityLogView({ user, tenant }: { user: StoredUser; tenant: string }) {
  const [action, setAction] = useState<ActionFilter>('all');
  const logs = useQuery<ActivityLog[]>({
    queryKey: [activityLogsPath(tenant, { limit: ACTIVITY_LIST_DEFAULT_LIMIT, action: action === 'all' ? null : action })],
    ...ACTIVITY_CACHE,
  });
  return (
    <section className="activity-page">
      <PageHeading
        title="Activity Log"
        subtitle={`The newest ${ACTIVITY_LIST_DEFAULT_LIMIT} uploads, views, downloads, AI chats and changes`}
        actions={
          <>
            <Dropdown
              inputId="activity-action-filter"
              aria-label="Filter by action"
              className="activity-page__filter"
              value={action}
              options={ACTION_FILTER_OPTIONS}
              onChange={(event) => setAction(event.value as ActionFilter)}
            />
            <Button
              label="Refresh"
              icon="pi pi-refresh"
              outlined
              loading={logs.isFetching}
              onClick={() => void logs.refetch()}
            />
          </>
        }
      />
      {logs.isError && <Message severity="error" text={failureReason(logs.error)} className="page-error" />}
      <div className="dashboard-panel">
        <ActivityTable logs={logs.data} loading={logs.isPending} viewer={user} variant="page" />
      </div>
    </section>
  );
}
