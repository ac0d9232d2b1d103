import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const complianceConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for due compliance reminders and overdue notices'),
};

export type ComplianceConfig = ConfigOf<typeof complianceConfigSpec>;
export const loadComplianceConfig = (e: NodeJS.ProcessEnv): ComplianceConfig => loadConfig(complianceConfigSpec, e);
