import { memo, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Message } from 'primereact/message';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import type { ActivityLog, ClientEngagementDetails, DashboardOverview, UserActivityDetails } from '@ledgerline/contracts/activity.contracts.ts';
import { HOME_HEADING } from '@ledgerline/contracts/signed-in-frame.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { navHref, SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { WhenNearViewport } from '@ledgerline/ui/when-near-viewport.tsx';
import { ActivityDetailsDialog, type DetailsTarget } from './activity-details-dialog.tsx';
import { ACTIVITY_CACHE, activityLogsPath, clientEngagementPath, dashboardPath, userActivityPath } from './dashboard.api.ts';
import { dashboardTabs, summaryFigures, type DashboardTabId } from './dashboard-labels.ts';
import { DocumentAnalyticsTab } from './document-analytics-tab.tsx';
import { EngagementTab } from './engagement-tab.tsx';
import { useMyWork, type MyWork } from './my-work.api.ts';
import { ClientWorkPanels, StaffWorkPanels } from './my-work-panels.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { StatCard } from './stat-card.tsx';
import { UserActivityTab } from './user-activity-tab.tsx';
import { ViewerGate } from './viewer-gate.tsx';

/** The height the tabs' place keeps before they are drawn: their tab bar and a panel's heading and first rows. */
const TABS_RESERVE = '24rem';

/** The Dashboard's Recent Activity shows the newest entries; the Activity page shows more. */
export const RECENT_ACTIVITY_LIMIT = 10;

/** / and /{tenant}/dashboard (spec 001 §2 "Dashboard"). */
export function DashboardPage() {
  return <ViewerGate subject="dashboard">{(user, tenant) => <Dashboard user={user} tenant={tenant} />}</ViewerGate>;
}

/** Where the recent files note points: the viewer's Reports page, in the navigation's form. */
function reportsHref(user: StoredUser, tenant: string): string {
  const id = isClientRole(user.role) ? 'client-reports' : 'reports';
  const item = SPEC_NAV_ITEMS.find((entry) => entry.id === id)!;
  return navHref(item, tenant);
}

function Dashboard({ user, tenant }: { user: StoredUser; tenant: string }) {
  // The document figures and charts load once the work panels above them have their answers:
  // what the viewer has to do comes first on a slow phone.
  const [panelsSettled, setPanelsSettled] = useState(false);
  const afterPanels = { enabled: panelsSettled };
  // The server scopes both to what the caller may see (a Client user: their own client).
  const overview = useQuery<DashboardOverview>({ queryKey: [dashboardPath(tenant)], ...ACTIVITY_CACHE, ...afterPanels });
  const activity = useQuery<ActivityLog[]>({ queryKey: [activityLogsPath(tenant, { limit: RECENT_ACTIVITY_LIMIT })], ...ACTIVITY_CACHE, ...afterPanels });
  const [userDetails, setUserDetails] = useState<DetailsTarget | null>(null);
  const [clientDetails, setClientDetails] = useState<DetailsTarget | null>(null);
  const client = isClientRole(user.role);
  // Staff's Clients card counts the directory's clients within their reach, not only the active ones.
  const firmClients = useQuery<unknown[]>({ queryKey: [apiPath('clients', { tenant })], enabled: !client && panelsSettled });
  const openDetails = useCallback((target: 'client' | 'user', url: string, name: string) => (target === 'client' ? setClientDetails : setUserDetails)({ url, name }), []);
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
      <StatGrid role={user.role} overview={overviewShown} clientCount={clientCountShown} />
      {/* Below a phone's first screen (the work panels fill it): drawn as the viewer scrolls near. */}
      <WhenNearViewport reserve={TABS_RESERVE}>
        <DashboardTabs user={user} tenant={tenant} overview={overviewShown} activityLogs={activityShown} activityLoading={activityLoadingShown} onOpenDetails={openDetails} />
      </WhenNearViewport>
      <ActivityDetailsDialog<UserActivityDetails>
        header="User Activity Details"
        target={userDetails}
        viewer={user}
        failureText="Failed to load user activity details"
        emptyText="No activity found for this user"
        omit="user"
        onHide={() => setUserDetails(null)}
      />
      <ActivityDetailsDialog<ClientEngagementDetails>
        header="Client Engagement Details"
        target={clientDetails}
        viewer={user}
        failureText="Failed to load client engagement details"
        emptyText="No engagement activity found for this client"
        figures={(details) => [{ label: 'Documents', value: details.documents }]}
        omit="client"
        onHide={() => setClientDetails(null)}
      />
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

const StatGrid = memo(function StatGrid({ role, overview, clientCount }: { role: string; overview: DashboardOverview | undefined; clientCount: number | undefined }) {
  return (
    <div className="stat-grid">
      {summaryFigures(role, overview, clientCount).map((figure) => (
        <StatCard key={figure.title} {...figure} />
      ))}
    </div>
  );
});

interface DashboardTabsProps {
  user: StoredUser;
  tenant: string;
  overview: DashboardOverview | undefined;
  activityLogs: ActivityLog[] | undefined;
  activityLoading: boolean;
  onOpenDetails(target: 'client' | 'user', url: string, name: string): void;
}

/** The tabs with their tables and charts: drawn again only when their own data changes (PrimeReact's tables and tab bar are costly to redraw). */
const DashboardTabs = memo(function DashboardTabs({ user, tenant, overview, activityLogs, activityLoading, onOpenDetails }: DashboardTabsProps) {
  const tabContent = (id: DashboardTabId) => {
    switch (id) {
      case 'overview':
        return <OverviewTab overview={overview} activity={{ logs: activityLogs, loading: activityLoading }} viewer={user} reportsHref={reportsHref(user, tenant)} />;
      case 'engagement':
        return <EngagementTab overview={overview} onOpenClient={(row) => onOpenDetails('client', clientEngagementPath(tenant, row.clientId), row.clientName)} />;
      case 'documents':
        return <DocumentAnalyticsTab overview={overview} />;
      case 'users':
        return <UserActivityTab overview={overview} onOpenUser={(row) => onOpenDetails('user', userActivityPath(tenant, row.userId), row.userName)} />;
    }
  };
  return (
    <PageTabView className="dashboard-tabs">
      {dashboardTabs(user.role).map((tab) => (
        <TabPanel key={tab.id} header={tab.label}>
          {tabContent(tab.id)}
        </TabPanel>
      ))}
    </PageTabView>
  );
});
