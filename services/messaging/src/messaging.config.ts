import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const messagingConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
};

export type MessagingConfig = ConfigOf<typeof messagingConfigSpec>;
export const loadMessagingConfig = (e: NodeJS.ProcessEnv): MessagingConfig => loadConfig(messagingConfigSpec, e);
