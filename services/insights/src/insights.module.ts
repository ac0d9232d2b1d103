import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { loadAiConfig } from '@ledgerline/kit/ai/ai.config.ts';
import { createAiAssistant } from '@ledgerline/kit/ai/create-ai-assistant.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { firmTimeZone } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { FILE_TEXT_KEY_PURPOSE, type FileTextAssertion } from '@ledgerline/contracts/files.contracts.ts';
import { AnalysisService } from './analysis/analysis.service.ts';
import { NIGHTLY_JOB, nightlyAnalysisJob } from './analysis/nightly-analysis.job.ts';
import { ReportClassifier } from './analysis/report-classifier.ts';
import { loadInsightsConfig } from './insights.config.ts';
import { insightsTenantMigrations } from './insights.migrations.ts';
import { InsightStore } from './insights/insight.store.ts';
import { createInsightsRouter } from './insights/insights.router.ts';
import { RuleSettingsStore } from './insights/rule-settings.store.ts';
import { FileFactsStore } from './read-models/file-facts.store.ts';
import { FileTextReader } from './read-models/file-text.reader.ts';
import { followCompliance, followFiles } from './read-models/insights.consumers.ts';
import { TrackerStore } from './read-models/tracker.store.ts';

const userAccess = createUserAccessReadModel('insights');
const directory = createDirectoryReadModel('insights');
const jobs = createJobQueue('insights');

/**
 * AI compliance insights (spec 001, issue 12): rules over the compliance tracker and the
 * files' facts, sharpened by a language model when one is configured; run on demand,
 * after each report's text is extracted, and nightly.
 */
export const insightsModule: ServiceModule = {
  name: 'insights',
  defaultPort: 8108,
  // The spec's on-demand analysis lives under /api/public/clients/{id}/… (it still needs an Admin).
  apiResources: ['compliance-insights', 'public/clients'],
  // The job table first: the insights migration seeds the first nightly run into it.
  migrations: [userAccess.migrations, directory.migrations, jobs.migrations, jobs.dueIndexMigrations, insightsTenantMigrations],
  async init(deps) {
    const config = loadInsightsConfig(deps.env);
    const { logger } = deps;
    const api = new ApiRegistry('insights');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants } = runtime;
    const master = loadMasterKey(config.encryptionKey, deps.dataDir);
    const files = new FileFactsStore();
    const tracker = new TrackerStore(directory.tables.reportTypes);
    const insights = new InsightStore(directory.tables.clients);
    const settings = new RuleSettingsStore();
    const analysis = new AnalysisService({
      files, tracker, insights, settings, tables: directory.tables,
      timeZoneOf: async (firm) => firmTimeZone((await runtime.registry.find(firm)) ?? {}),
    });
    const classifier = new ReportClassifier(createAiAssistant(loadAiConfig(deps.env), logger), logger);
    const texts = new FileTextReader(peer('files'), new TokenSigner<FileTextAssertion>(deriveKey(master, FILE_TEXT_KEY_PURPOSE)));

    return {
      api,
      routers: [createInsightsRouter({ api, tokens: deps.tokens, tenants, insights, settings, analysis, directory: new DirectoryLookup(directory, peer('directory')) })],
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => directory.follow(c),
          (c) => followCompliance({ ...c, tracker, insights, analysis }),
          (c) => followFiles({ ...c, files, texts, classifier, analysis }),
        ],
        scheduler: {
          queue: jobs, pollMs: config.schedulerPollMs,
          handlers: { [NIGHTLY_JOB]: nightlyAnalysisJob({ analysis, jobs, hourUtc: config.nightlyHourUtc, logger }) },
        },
      }),
      stop: () => runtime.stop(),
    };
  },
};
