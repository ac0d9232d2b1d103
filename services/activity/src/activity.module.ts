import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { createAdminAnalyticsRouter } from './admin/admin-analytics.router.ts';
import { loadActivityConfig } from './activity.config.ts';
import { activityTenantMigrations } from './activity.migrations.ts';
import { DashboardStore } from './dashboard/dashboard.store.ts';
import { createDashboardRouter } from './dashboard/dashboard.router.ts';
import { followDocumentRequests } from './events/document-request.consumer.ts';
import { followFileChats } from './events/file-chatted.consumer.ts';
import { followFileDeletions } from './events/file-deleted.consumer.ts';
import { followFileUploads } from './events/file-uploaded.consumer.ts';
import { followSignatureRequests } from './events/signature-request.consumer.ts';
import { followOrganizers } from './events/organizer.consumer.ts';
import { followInvoices } from './events/invoice.consumer.ts';
import { followStageChanges } from './events/stage-changed.consumer.ts';
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
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { tenants, firms } = runtime;
    const logs = new ActivityLogStore();
    const files = new ActivityFileStore();
    const dashboard = new DashboardStore(files, logs);

    return {
      api,
      routers: [
        createActivityLogsRouter({ api, logs, files, tokens: deps.tokens, tenants }),
        createDashboardRouter({ api, dashboard, tokens: deps.tokens, tenants }),
        createAdminAnalyticsRouter({ api, db, dashboard, tokens: deps.tokens, checkCaller: tenants.checkCaller, logger, firms }),
      ],
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => followFileUploads({ ...c, files, logs }),
          (c) => followFileDeletions({ ...c, files, logs }),
          (c) => followFileChats({ ...c, logs }),
          (c) => followDocumentRequests({ ...c, logs }),
          (c) => followStageChanges({ ...c, logs }),
          (c) => followInvoices({ ...c, logs }),
          (c) => followSignatureRequests({ ...c, logs }),
          (c) => followOrganizers({ ...c, logs }),
        ],
      }),
      stop: () => runtime.stop(),
    };
  },
};
