import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { REALTIME_PATH } from '@ledgerline/kit/realtime/realtime-hub.ts';
import { socketAuthMiddleware } from '@ledgerline/kit/realtime/socket-auth.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler, type JobHandler, type Scheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { identityTenantSource, TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { serviceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { createMailer } from './notifications/mailer.ts';
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
  migrations: [tasksTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations],
  async init(deps) {
    const config = loadTasksConfig(deps.env);
    const { db, logger } = deps;
    const api = new ApiRegistry('tasks');
    const peer = (name: string) => () => deps.peers().find((p) => p.service === name)!.url;
    const registry = new TenantRegistry({ source: identityTenantSource(peer('identity')) });
    const tenants = serviceTenants(db, registry, userAccess, peer('identity'));
    const tasks = new TaskStore(userAccess, directory);
    const reminders = new ReminderService({ jobs, tasks, leadSeconds: config.reminderLeadSeconds });
    const service = new TaskService({ tasks, reminders, users: userAccess, directory: new DirectoryLookup(directory, peer('directory')) });
    const notifications = new NotificationStore();
    const push = new NotificationPush(deps.realtime.emitter, notifications);
    const mailer = createMailer(config.smtpUrl, config.mailFrom);
    const handlers: Record<string, JobHandler> = {
      [REMINDER_JOB]: reminders.job(),
      [EMAIL_JOB]: notificationEmailJob({ mailer, store: notifications, users: userAccess, publicBaseUrl: config.publicBaseUrl, logger }),
    };
    let poller: { stop(): void } | undefined;
    let scheduler: Scheduler | undefined;
    const subscriptions: Subscription[] = [];

    return {
      api,
      routers: [
        createTasksRouter({ api, tasks, service, tokens: deps.tokens, tenants }),
        createNotificationsRouter({ api, store: notifications, push, tokens: deps.tokens, tenants }),
      ],
      attach(server) {
        deps.realtime.attach(server, socketAuthMiddleware({ tokens: deps.tokens, tenants, logger }));
      },
      async start() {
        poller = registry.poll(config.tenantPollMs, logger);
        const consumerDeps = { db, bus: deps.bus, logger, tenants: registry };
        subscriptions.push(
          await userAccess.follow(consumerDeps),
          await directory.follow(consumerDeps),
          await followNotificationRequests({ ...consumerDeps, store: notifications, push, jobs, emailEnabled: mailer !== null }),
        );
        scheduler = startScheduler({
          db, queue: jobs, handlers, logger, pollMs: config.schedulerPollMs,
          tenants: async () => (await registry.active()).map((f) => ({ shortName: f.shortName, schema: tenantSchema(f.schemaName) })),
        });
      },
      async stop() {
        poller?.stop();
        await scheduler?.stop();
        for (const s of subscriptions.splice(0)) await s.close();
        mailer?.close();
      },
    };
  },
};
