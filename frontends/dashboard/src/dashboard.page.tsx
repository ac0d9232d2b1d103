import { lazy, memo, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Message } from 'primereact/message';
import type { ActivityLog, DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { HOME_HEADING } from '@ledgerline/contracts/signed-in-frame.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { isIndividual, useOwnClient } from '@ledgerline/ui/own-client.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { WhenNearViewport } from '@ledgerline/ui/when-near-viewport.tsx';
import { ACTIVITY_CACHE, activityLogsPath, dashboardPath } from './dashboard.api.ts';
import { summaryFigures } from './dashboard-labels.ts';
import { useMyWork, type MyWork } from './my-work.api.ts';
import { ClientWorkPanels, StaffWorkPanels } from './my-work-panels.tsx';
import { StatCard } from './stat-card.tsx';
import { ViewerGate } from './viewer-gate.tsx';

/*
 * The tabs, their tables and charts, and the dialogs their rows open, in a chunk of their own:
 * the page's first screen (heading, work panels, cards) does not wait for PrimeReact's tables,
 * tab bar and dialog to load and run. The browser fetches the chunk while it is idle.
 */
const DashboardTabs = lazy(() => import(/* webpackChunkName: "dashboard-tabs", webpackPrefetch: true */ './dashboard-tabs.tsx'));

/** The height the tabs' place keeps before they are drawn: their tab bar and a panel's heading and first rows. */
const TABS_RESERVE = '24rem';

/** The Dashboard's Recent Activity shows the newest entries; the Activity page shows more. */
export const RECENT_ACTIVITY_LIMIT = 10;

/** / and /{tenant}/dashboard (spec 001 §2 "Dashboard"). */
export function DashboardPage() {
  return <ViewerGate subject="dashboard">{(user, tenant) => <Dashboard user={user} tenant={tenant} />}</ViewerGate>;
}

function Dashboard({ user, tenant }: { user: StoredUser; tenant: string }) {
  // The document figures and charts load once the work panels above them have their answers:
  // what the viewer has to do comes first on a slow phone.
  const [panelsSettled, setPanelsSettled] = useState(false);
  const afterPanels = { enabled: panelsSettled };
  // The server scopes both to what the caller may see (a Client user: their own client).
  const overview = useQuery<DashboardOverview>({ queryKey: [dashboardPath(tenant)], ...ACTIVITY_CACHE, ...afterPanels });
  const activity = useQuery<ActivityLog[]>({ queryKey: [activityLogsPath(tenant, { limit: RECENT_ACTIVITY_LIMIT })], ...ACTIVITY_CACHE, ...afterPanels });
  const client = isClientRole(user.role);
  // Staff's Clients card counts the directory's clients within their reach, not only the active ones.
  const firmClients = useQuery<unknown[]>({ queryKey: [apiPath('clients', { tenant })], enabled: !client && panelsSettled });
  // The query cache's answers redraw this component at once, in one task (its updates are
  // synchronous). The cards, tables and charts follow in a deferred render, which React does in
  // slices that leave the browser free between them, not in one long task per answer on a phone.
  const overviewShown = useDeferredValue(overview.data);
  const activityShown = useDeferredValue(activity.data);
  const activityLoadingShown = useDeferredValue(activity.isPending);
  const clientCountShown = useDeferredValue(firmClients.data?.length);

  return (
    <section className="dashboard">
      <PageHeading {...HOME_HEADING[client ? 'client' : 'staff']} />
      <WorkPanels user={user} tenant={tenant} onSettled={setPanelsSettled} />
      {overview.isError && <Message severity="error" text={failureReason(overview.error)} className="page-error" />}
      {activity.isError && <Message severity="error" text={failureReason(activity.error)} className="page-error" />}
      <StatGrid user={user} overview={overviewShown} clientCount={clientCountShown} />
      {/* Below a phone's first screen (the work panels fill it): drawn as the viewer scrolls near. */}
      <WhenNearViewport reserve={TABS_RESERVE}>
        <Suspense fallback={<div className="when-near-viewport" style={{ minHeight: TABS_RESERVE }} />}>
          <DashboardTabs user={user} tenant={tenant} overview={overviewShown} activityLogs={activityShown} activityLoading={activityLoadingShown} />
        </Suspense>
      </WhenNearViewport>
    </section>
  );
}

/** The panels read their own answers: each one arriving redraws the panels alone, not the tables and charts below. */
function WorkPanels({ user, tenant, onSettled }: { user: StoredUser; tenant: string; onSettled(settled: true): void }) {
  const work = useMyWork(user, tenant);
  useEffect(() => {
    if (work.settled) onSettled(true);
  }, [work.settled, onSettled]);
  // Drawn from a deferred copy, as the tabs below: each answer's redraw is done in slices.
  const shown = useDeferredValue(work);
  return <Panels client={isClientRole(user.role)} work={shown} />;
}

const Panels = memo(function Panels({ client, work }: { client: boolean; work: MyWork }) {
  return client ? <ClientWorkPanels work={work} /> : <StaffWorkPanels work={work} />;
});

const StatGrid = memo(function StatGrid({ user, overview, clientCount }: { user: StoredUser; overview: DashboardOverview | undefined; clientCount: number | undefined }) {
  // The header asks for the same client: one answer from the query cache serves both.
  const person = isIndividual(useOwnClient(user, isClientRole(user.role)).client);
  return (
    <div className="stat-grid">
      {summaryFigures(user.role, overview, clientCount, person).map((figure) => (
        <StatCard key={figure.title} {...figure} />
      ))}
    </div>
  );
});
