import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { mailConfigSpec } from '@ledgerline/kit/mail/mail.config.ts';

export const tasksConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for due reminders, overdue checks and emails'),
  reminderLeadSeconds: field('TASK_REMINDER_LEAD_SECONDS', env.int(24 * 60 * 60, 0), 'how long before a task is due its assignee is reminded'),
  ...mailConfigSpec,
  publicBaseUrl: field('PUBLIC_BASE_URL', env.string('http://localhost:8080'), 'the portal\'s public URL, for links in emails'),
};

export type TasksConfig = ConfigOf<typeof tasksConfigSpec>;
export const loadTasksConfig = (e: NodeJS.ProcessEnv): TasksConfig => loadConfig(tasksConfigSpec, e);
