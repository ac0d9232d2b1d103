import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const insightsConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for a due nightly analysis'),
  nightlyHourUtc: field('INSIGHTS_NIGHTLY_HOUR_UTC', env.int(2, 0), 'hour of the day (UTC, 0-23) every firm\'s clients are analysed'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex) the service assertions to the files service are signed with; unset generates one in PORTAL_DATA_DIR/keys'),
};

export type InsightsConfig = ConfigOf<typeof insightsConfigSpec>;
export const loadInsightsConfig = (e: NodeJS.ProcessEnv): InsightsConfig => loadConfig(insightsConfigSpec, e);
