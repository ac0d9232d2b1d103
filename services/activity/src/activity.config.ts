import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const activityConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(1000, 100), 'how often the firm list is re-read from identity (a deactivated firm is refused within this)'),
};

export type ActivityConfig = ConfigOf<typeof activityConfigSpec>;
export const loadActivityConfig = (e: NodeJS.ProcessEnv): ActivityConfig => loadConfig(activityConfigSpec, e);
