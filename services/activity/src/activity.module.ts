import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { createAdminAnalyticsRouter } from './admin/admin-analytics.router.ts';
import { loadActivityConfig } from './activity.config.ts';
import { activityPlatformMigrations, activityTenantMigrations } from './activity.migrations.ts';
import { FirmSummaries } from './admin/firm-summaries.ts';
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
  migrations: [activityPlatformMigrations, activityTenantMigrations, userAccess.migrations],
  async init(deps) {
    const config = loadActivityConfig(deps.env);
    const { db, logger } = deps;
    const api = new ApiRegistry('activity');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { tenants, firms } = runtime;
    const logs = new ActivityLogStore();
    const files = new ActivityFileStore();
    const dashboard = new DashboardStore(files, logs);
    const summaries = new FirmSummaries(db, dashboard, logger);
    let refresh: NodeJS.Timeout | null = null;
    let pass: Promise<void> | null = null;

    return {
      api,
      routers: [
        createActivityLogsRouter({ api, logs, files, tokens: deps.tokens, tenants }),
        createDashboardRouter({ api, dashboard, tokens: deps.tokens, tenants }),
        createAdminAnalyticsRouter({ api, summaries, tokens: deps.tokens, checkCaller: tenants.checkCaller, firms }),
      ],
      start: async () => {
        await runtime.start({
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
        });
        // The platform analytics' summaries of changed firms, made off the admin's read path; one pass at a time.
        refresh = setInterval(() => {
          pass ??= summaries.refreshChanged()
            .catch((err: unknown) => logger.warn({ err }, 'platform analytics: summarising changed firms failed; the next pass or read tries again'))
            .finally(() => { pass = null; });
        }, config.firmSummaryRefreshMs);
        refresh.unref();
      },
      async stop() {
        if (refresh) clearInterval(refresh);
        await pass;
        await runtime.stop();
      },
    };
  },
};
