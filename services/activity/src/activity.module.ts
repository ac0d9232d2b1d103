import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { identityTenantSource, TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { serviceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { createAdminAnalyticsRouter } from './admin/admin-analytics.router.ts';
import { loadActivityConfig } from './activity.config.ts';
import { activityTenantMigrations } from './activity.migrations.ts';
import { DashboardStore } from './dashboard/dashboard.store.ts';
import { createDashboardRouter } from './dashboard/dashboard.router.ts';
import { followFileChats } from './events/file-chatted.consumer.ts';
import { followFileDeletions } from './events/file-deleted.consumer.ts';
import { followFileUploads } from './events/file-uploaded.consumer.ts';
import { ActivityFileStore } from './files/activity-file.store.ts';
import { ActivityLogStore } from './logs/activity-log.store.ts';
import { createActivityLogsRouter } from './logs/activity-logs.router.ts';

const userAccess = createUserAccessReadModel('activity');

export const activityModule: ServiceModule = {
  name: 'activity',
  defaultPort: 8104,
  // 'admin/analytics' is longer than identity's 'admin/…' entries: the gateway routes by longest prefix.
  apiResources: ['activity-logs', 'dashboard', 'admin/analytics'],
  migrations: [activityTenantMigrations, userAccess.migrations],
  async init(deps) {
    const config = loadActivityConfig(deps.env);
    const { db, logger } = deps;
    const api = new ApiRegistry('activity');
    const identityUrl = () => deps.peers().find((p) => p.service === 'identity')!.url;
    const firms = identityTenantSource(identityUrl);
    const registry = new TenantRegistry({ source: firms });
    const tenants = serviceTenants(db, registry, userAccess, identityUrl);
    const logs = new ActivityLogStore();
    const files = new ActivityFileStore();
    const dashboard = new DashboardStore(files, logs);
    let poller: { stop(): void } | undefined;
    const subscriptions: Subscription[] = [];

    return {
      api,
      routers: [
        createActivityLogsRouter({ api, logs, files, tokens: deps.tokens, tenants }),
        createDashboardRouter({ api, dashboard, tokens: deps.tokens, tenants }),
        createAdminAnalyticsRouter({ api, db, dashboard, tokens: deps.tokens, logger, firms }),
      ],
      async start() {
        poller = registry.poll(config.tenantPollMs, logger);
        const consumerDeps = { db, bus: deps.bus, logger, tenants: registry };
        subscriptions.push(
          await userAccess.follow(consumerDeps),
          await followFileUploads({ ...consumerDeps, files, logs }),
          await followFileDeletions({ ...consumerDeps, files, logs }),
          await followFileChats({ ...consumerDeps, logs }),
        );
      },
      async stop() {
        poller?.stop();
        for (const s of subscriptions.splice(0)) await s.close();
      },
    };
  },
};
