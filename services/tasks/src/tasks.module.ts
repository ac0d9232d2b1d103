import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { REALTIME_PATH } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { socketAuthMiddleware } from '@ledgerline/kit/realtime/socket-auth.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { notificationEmailJob } from './notifications/notification-email.job.ts';
import { NotificationPush } from './notifications/notification-push.ts';
import { EMAIL_JOB, followNotificationRequests } from './notifications/notification-requested.consumer.ts';
import { NotificationStore } from './notifications/notification.store.ts';
import { createNotificationsRouter } from './notifications/notifications.router.ts';
import { REMINDER_JOB, ReminderService } from './reminders/reminder.service.ts';
import { loadTasksConfig } from './tasks.config.ts';
import { tasksTenantMigrations } from './tasks.migrations.ts';
import { TaskService } from './tasks/task.service.ts';
import { TaskStore } from './tasks/task.store.ts';
import { createTasksRouter } from './tasks/tasks.router.ts';
import { tasksPortability } from './tasks/tasks.readable.ts';

const userAccess = createUserAccessReadModel('tasks');
const directory = createDirectoryReadModel('tasks');
const jobs = createJobQueue('tasks');

/**
 * Tasks, notifications and reminders (spec 001), and the owner of the one realtime endpoint
 * (DESIGN §7): the gateway proxies `/socket.io` here; other services push through their own
 * realtime hub (deps.realtime), which reaches these sockets.
 */
export const tasksModule: ServiceModule = {
  name: 'tasks',
  defaultPort: 8106,
  apiResources: ['tasks', 'notifications'],
  otherPaths: [`${REALTIME_PATH}/`],
  migrations: [tasksTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations, jobs.dueIndexMigrations],
  portability: tasksPortability({ users: userAccess.table, ...directory.tables }),
  async init(deps) {
    const config = loadTasksConfig(deps.env);
    const { logger } = deps;
    const api = new ApiRegistry('tasks');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants } = runtime;
    const tasks = new TaskStore(userAccess, directory);
    const reminders = new ReminderService({ jobs, tasks, leadSeconds: config.reminderLeadSeconds });
    const service = new TaskService({ tasks, reminders, users: userAccess, directory: new DirectoryLookup(directory, peer('directory')) });
    const notifications = new NotificationStore();
    const push = new NotificationPush(deps.realtime.emitter, notifications);
    const mailer = createMailer(config, logger);
    const handlers: Record<string, JobHandler> = {
      [REMINDER_JOB]: reminders.job(),
      [EMAIL_JOB]: notificationEmailJob({ mailer, store: notifications, users: userAccess, publicBaseUrl: config.publicBaseUrl, logger }),
    };

    return {
      api,
      routers: [
        createTasksRouter({ api, tasks, service, tokens: deps.tokens, tenants }),
        createNotificationsRouter({ api, store: notifications, push, tokens: deps.tokens, tenants }),
      ],
      attach(server) {
        deps.realtime.attach(server, socketAuthMiddleware({ tokens: deps.tokens, tenants, logger }));
      },
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => directory.follow(c),
          (c) => followNotificationRequests({ ...c, store: notifications, push, jobs }),
        ],
        scheduler: { queue: jobs, handlers, pollMs: config.schedulerPollMs },
      }),
      async stop() {
        await runtime.stop();
        mailer.close();
      },
    };
  },
};
