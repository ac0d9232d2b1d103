import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const activityConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(1000, 100), 'how often the firm list is re-read from identity (a deactivated firm is refused within this)'),
  firmSummaryRefreshMs: field('ACTIVITY_FIRM_SUMMARY_REFRESH_MS', env.int(30_000, 1000),
    'how often the platform analytics\' per-firm summaries of firms whose activity changed are made again in the background (one statement when none changed)'),
};

export type ActivityConfig = ConfigOf<typeof activityConfigSpec>;
export const loadActivityConfig = (e: NodeJS.ProcessEnv): ActivityConfig => loadConfig(activityConfigSpec, e);
