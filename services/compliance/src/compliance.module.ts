import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { loadComplianceConfig } from './compliance.config.ts';
import { complianceJobs as jobs } from './compliance-jobs.ts';
import { complianceTenantMigrations, REPUBLISH_ITEMS_JOB } from './compliance.migrations.ts';
import { followClientDeletions, followInsightMatches, followTrackerDocumentRequests, followTrackerOrganizers, followTrackerSignatureRequests } from './events/compliance.consumers.ts';
import { DirectoryReportTypes } from './presets/directory-report-types.client.ts';
import { IdentityGrants } from './presets/identity-grants.client.ts';
import { PresetService } from './presets/preset.service.ts';
import { createPresetsRouter } from './presets/presets.router.ts';
import { ComplianceReminders } from './reminders/compliance-reminders.ts';
import { ScheduleService } from './schedules/schedule.service.ts';
import { ScheduleStore } from './schedules/schedule.store.ts';
import { createSchedulesRouter } from './schedules/schedules.router.ts';
import { PipelineStore } from './stages/pipeline.store.ts';
import { followStagePushes } from './stages/stage-push.consumer.ts';
import { StageService } from './stages/stage.service.ts';
import { createStagesRouter } from './stages/stages.router.ts';
import { republishItems } from './tracker/compliance-events.ts';
import { TrackerService } from './tracker/tracker.service.ts';
import { TrackerStore } from './tracker/tracker.store.ts';
import { createTrackerHandOffRouter } from './tracker/tracker-hand-off.router.ts';
import { createTrackerRouter } from './tracker/tracker.router.ts';

const userAccess = createUserAccessReadModel('compliance');
const directory = createDirectoryReadModel('compliance');

/** Compliance schedules, tracker items, reminders and statutory presets (spec 001; docs/api/compliance.md). */
export const complianceModule: ServiceModule = {
  name: 'compliance',
  defaultPort: 8107,
  apiResources: ['compliance-schedules', 'compliance-tracker', 'compliance-presets', 'compliance-pipelines'],
  // The jobs table first: the covered-periods migration schedules a job.
  migrations: [jobs.migrations, jobs.dueIndexMigrations, complianceTenantMigrations, userAccess.migrations, directory.migrations],
  async init(deps) {
    const config = loadComplianceConfig(deps.env);
    const api = new ApiRegistry('compliance');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants } = runtime;
    const schedules = new ScheduleStore(directory);
    const items = new TrackerStore(userAccess, directory);
    const reminders = new ComplianceReminders({ jobs, items, users: userAccess });
    const scheduleService = new ScheduleService({ schedules, items, reminders, directory: new DirectoryLookup(directory, peer('directory')) });
    const pipelines = new PipelineStore(directory);
    const stages = new StageService({ pipelines, items, directory: new DirectoryLookup(directory, peer('directory')) });
    const tracker = new TrackerService({ items, users: userAccess, rules: scheduleService, reminders, stages });
    const presets = new PresetService({
      schedules, scheduleService, reportTypes: new DirectoryReportTypes(peer('directory')), directory, users: userAccess, grants: new IdentityGrants(peer('identity')),
    });

    return {
      api,
      routers: [
        createSchedulesRouter({ api, schedules, service: scheduleService, tokens: deps.tokens, tenants }),
        createTrackerRouter({ api, items, service: tracker, tokens: deps.tokens, tenants }),
        createTrackerHandOffRouter({ api, items, tokens: deps.tokens, tenants, requestsUrl: peer('requests'), signaturesUrl: peer('signatures') }),
        createPresetsRouter({ api, presets, tokens: deps.tokens, tenants }),
        createStagesRouter({ api, stages, tokens: deps.tokens, tenants }),
      ],
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => directory.follow(c),
          (c) => followClientDeletions({ ...c, schedules }),
          (c) => followInsightMatches({ ...c, tracker }),
          (c) => followTrackerDocumentRequests({ ...c, stages }),
          (c) => followTrackerSignatureRequests({ ...c, stages }),
          (c) => followTrackerOrganizers({ ...c, stages }),
          (c) => followStagePushes({ ...c, users: userAccess, emitter: deps.realtime.emitter }),
        ],
        scheduler: {
          queue: jobs,
          handlers: {
            ...reminders.handlers(),
            // Items a migration relabelled, told again so the insights read model follows.
            [REPUBLISH_ITEMS_JOB]: republishItems(items),
          },
          pollMs: config.schedulerPollMs,
        },
      }),
      stop: () => runtime.stop(),
    };
  },
};
