import { memo, useCallback, useState } from 'react';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import type { ActivityLog, ClientEngagementDetails, DashboardOverview, UserActivityDetails } from '@ledgerline/contracts/activity.contracts.ts';
import { isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { navHref, SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import { isIndividual, useOwnClient } from '@ledgerline/ui/own-client.ts';
import { ActivityDetailsDialog, type DetailsTarget } from './activity-details-dialog.tsx';
import { clientEngagementPath, userActivityPath } from './dashboard.api.ts';
import { dashboardTabs, type DashboardTabId } from './dashboard-labels.ts';
import { DocumentAnalyticsTab } from './document-analytics-tab.tsx';
import { EngagementTab } from './engagement-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { UserActivityTab } from './user-activity-tab.tsx';

/*
 * The Dashboard's tabs, their tables and charts, and the details dialogs their rows open: a
 * chunk of their own (dashboard.page.tsx loads it), as PrimeReact's tables, tab bar and dialog
 * are the costly part of the page's scripts and lie below a phone's first screen.
 */

/** Where the recent files note points: the viewer's Reports page, in the navigation's form. */
function reportsHref(user: StoredUser, tenant: string): string {
  const id = isClientRole(user.role) ? 'client-reports' : 'reports';
  const item = SPEC_NAV_ITEMS.find((entry) => entry.id === id)!;
  return navHref(item, tenant);
}

interface DashboardTabsProps {
  user: StoredUser;
  tenant: string;
  overview: DashboardOverview | undefined;
  activityLogs: ActivityLog[] | undefined;
  activityLoading: boolean;
}

/** The tabs and the details dialogs their rows open; drawn again only when the page's data for them changes. */
export default memo(function DashboardTabs(props: DashboardTabsProps) {
  const [userDetails, setUserDetails] = useState<DetailsTarget | null>(null);
  const [clientDetails, setClientDetails] = useState<DetailsTarget | null>(null);
  const onOpenDetails = useCallback((target: 'client' | 'user', url: string, name: string) => (target === 'client' ? setClientDetails : setUserDetails)({ url, name }), []);
  return (
    <>
      <Tabs {...props} onOpenDetails={onOpenDetails} />
      <ActivityDetailsDialog<UserActivityDetails>
        header="User Activity Details"
        target={userDetails}
        viewer={props.user}
        failureText="Failed to load user activity details"
        emptyText="No activity found for this user"
        omit="user"
        onHide={() => setUserDetails(null)}
      />
      <ActivityDetailsDialog<ClientEngagementDetails>
        header="Client Engagement Details"
        target={clientDetails}
        viewer={props.user}
        failureText="Failed to load client engagement details"
        emptyText="No engagement activity found for this client"
        figures={(details) => [{ label: 'Documents', value: details.documents }]}
        omit="client"
        onHide={() => setClientDetails(null)}
      />
    </>
  );
});

/** The tabs with their tables and charts: drawn again only when their own data changes, not when a dialog opens (PrimeReact's tables and tab bar are costly to redraw). */
const Tabs = memo(function Tabs({ user, tenant, overview, activityLogs, activityLoading, onOpenDetails }: DashboardTabsProps & { onOpenDetails(target: 'client' | 'user', url: string, name: string): void }) {
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
  // The header asks for the same client: one answer from the query cache serves both.
  const person = isIndividual(useOwnClient(user, isClientRole(user.role)).client);
  return (
    <PageTabView className="dashboard-tabs">
      {dashboardTabs(user.role, person).map((tab) => (
        <TabPanel key={tab.id} header={tab.label}>
          {tabContent(tab.id)}
        </TabPanel>
      ))}
    </PageTabView>
  );
});
