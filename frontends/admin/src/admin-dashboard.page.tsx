import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { Message } from 'primereact/message';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { Tag } from 'primereact/tag';
import { Link } from 'react-router-dom';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { formatMegabytes } from '@ledgerline/ui/file-size.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { ADMIN_DASHBOARD_LIMITS, type AdminAnalytics } from '@ledgerline/contracts/activity.contracts.ts';
import {
  ADMIN_ANALYTICS_URL,
  ADMIN_CHAT_SESSIONS_URL,
  ADMIN_OVERVIEW_URL,
  type AdminChatSession,
  type AdminOverview,
} from './admin-analytics.api.ts';
import { AnalyticsPanel } from './analytics-panel.tsx';
import { useOptionalData, type OptionalData } from './optional-data.ts';
import { RecentTenants } from './recent-tenants.tsx';
import { SummaryCard } from './summary-card.tsx';
import { TenantMigrationsNotice } from './tenant-migrations-notice.tsx';

/** /admin/dashboard (spec 000 §2 "Administrator dashboard"). */
export function AdminDashboardPage() {
  const overview = useQuery<AdminOverview | null>({ queryKey: [ADMIN_OVERVIEW_URL] });
  const chatSessions = useOptionalData<AdminChatSession[]>(ADMIN_CHAT_SESSIONS_URL);
  const analytics = useOptionalData<AdminAnalytics>(ADMIN_ANALYTICS_URL);
  const figures = overview.data;

  return (
    <section className="admin-dashboard">
      <PageHeading title="Administrator Dashboard" subtitle="Tenants, users and activity across the platform" />
      {overview.isError && <Message severity="error" text={failureReason(overview.error)} className="page-error" />}
      <TenantMigrationsNotice />
      <div className="summary-grid">
        <SummaryCard
          title="Total Documents"
          icon="pi pi-file"
          value={analytics.state === 'ready' ? analytics.data.totalDocuments : null}
          caption={optionalCaption(analytics, 'Across all tenants')}
        />
        <SummaryCard
          title="AI Chat Sessions"
          icon="pi pi-comments"
          value={chatSessions.state === 'ready' ? chatSessions.data.length : null}
          caption={optionalCaption(chatSessions, 'Questions asked about documents')}
        />
        <SummaryCard
          title="Active Users (7d)"
          icon="pi pi-users"
          value={figures?.activeUsers7d ?? null}
          caption={figures ? `of ${figures.totalUsers} total users` : 'Loading...'}
        />
        <SummaryCard
          title="Active Tenants"
          icon="pi pi-building"
          value={figures?.activeCompanies ?? null}
          caption={figures ? `${figures.totalCompanies} total companies` : 'Loading...'}
        />
      </div>
      <Card className="admin-dashboard__tabs">
        <PageTabView>
          <TabPanel header="Client Engagement">
            <AnalyticsPanel data={topList(analytics, (a) => a.topClients)} limit={ADMIN_DASHBOARD_LIMITS.topClients} subject="client engagement">
              <Column field="clientName" header="Client" />
              <Column field="tenantName" header="Tenant" />
              <Column field="documents" header="Documents" />
              <Column field="activities" header="Activities" />
            </AnalyticsPanel>
          </TabPanel>
          <TabPanel header="Document Analytics">
            <AnalyticsPanel data={topList(analytics, (a) => a.topDocuments)} limit={ADMIN_DASHBOARD_LIMITS.topDocuments} subject="document">
              <Column field="fileName" header="Document" />
              <Column field="clientName" header="Client" />
              <Column field="tenantName" header="Tenant" />
              <Column header="Size" body={(row: AdminAnalytics['topDocuments'][number]) => formatMegabytes(row.sizeBytes)} />
              <Column field="views" header="Views" />
              <Column field="downloads" header="Downloads" />
              <Column field="chats" header="AI Chats" />
            </AnalyticsPanel>
          </TabPanel>
          <TabPanel header="User Activity">
            <AnalyticsPanel data={topList(analytics, (a) => a.topUsers)} limit={ADMIN_DASHBOARD_LIMITS.topUsers} subject="user activity">
              <Column field="userName" header="User" />
              <Column field="tenantName" header="Tenant" />
              <Column field="actions" header="Actions" />
              <Column header="Last Active" body={(row: AdminAnalytics['topUsers'][number]) => formatDate(row.lastActiveAt, { withTime: true })} />
            </AnalyticsPanel>
          </TabPanel>
          <TabPanel header="Tenant Management">
            <TenantManagementTab recent={figures?.recentTenants ?? []} />
          </TabPanel>
        </PageTabView>
      </Card>
    </section>
  );
}

function TenantManagementTab({ recent }: { recent: AdminOverview['recentTenants'] }) {
  return (
    <div className="admin-dashboard__manage">
      <div className="admin-links">
        <Link to="/admin/tenants" className="admin-link">
          <i className="pi pi-building admin-link__icon" aria-hidden="true" />
          <span className="admin-link__title">Manage Tenants</span>
          <span className="admin-link__text">Create, edit and refresh tenant portals</span>
        </Link>
        <Link to="/activity" className="admin-link">
          <i className="pi pi-history admin-link__icon" aria-hidden="true" />
          <span className="admin-link__title">Activity Logs</span>
          <span className="admin-link__text">Review what users did and when</span>
        </Link>
        <div className="admin-link admin-link--disabled" aria-disabled="true">
          <i className="pi pi-cog admin-link__icon" aria-hidden="true" />
          <span className="admin-link__title">
            System Settings <Tag value="Coming Soon" severity="warning" />
          </span>
          <span className="admin-link__text">Platform-wide configuration</span>
        </div>
      </div>
      <h3 className="admin-dashboard__section-title">Recent Tenants</h3>
      <RecentTenants tenants={recent} />
    </div>
  );
}

function optionalCaption(data: OptionalData<unknown>, ready: string): string {
  switch (data.state) {
    case 'loading':
      return 'Loading...';
    case 'unavailable':
      return 'Not recorded on this portal yet';
    case 'failed':
      return failureReason(data.error);
    case 'ready':
      return ready;
  }
}

function topList<T>(analytics: OptionalData<AdminAnalytics>, pick: (analytics: AdminAnalytics) => T[]): OptionalData<T[]> {
  return analytics.state === 'ready' ? { state: 'ready', data: pick(analytics.data) } : analytics;
}
