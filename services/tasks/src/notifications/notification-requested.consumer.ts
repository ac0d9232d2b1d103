import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { eventTenant, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import {
  NOTIFICATION_REQUESTED, NOTIFICATION_REVISED, notificationRequestSchema, notificationRevisionSchema, type Notification,
} from '@ledgerline/contracts/notifications.contracts.ts';
import type { NotificationEmailPayload } from './notification-email.job.ts';
import type { NotificationPush } from './notification-push.ts';
import type { NotificationStore } from './notification.store.ts';

const CONSUMER = 'tasks.notifications';
export const EMAIL_JOB = 'notification-email';

/**
 * Stores every `notification.requested` of any service once (inbox and the event id), then
 * pushes it to the user's sockets after the commit. An email, when asked for, becomes a
 * scheduler job (on every mailer: without SMTP_URL it is written to the log) in the same transaction: it is sent even if this
 * process stops right after, and retried if the SMTP server is down. A
 * `notification.revised` (same queue, so after the requests published before it) removes or
 * rewrites stored ones; their e-mail job, reading the notification when it runs, follows.
 */
export function followNotificationRequests(deps: TenantConsumerDeps & { store: NotificationStore; push: NotificationPush; jobs: JobQueue }): Promise<Subscription> {
  return deps.bus.subscribe(CONSUMER, [NOTIFICATION_REQUESTED, NOTIFICATION_REVISED], async (event) => {
    const target = await eventTenant(deps, CONSUMER, event);
    if (!target) return;
    if (event.type === NOTIFICATION_REVISED) {
      const revision = notificationRevisionSchema.safeParse(event.payload);
      if (!revision.success) {
        deps.logger.warn({ consumer: CONSUMER, eventId: event.id, issues: revision.error.issues }, 'invalid notification revision ignored');
        return;
      }
      let changed: number[] = [];
      await consumeOnce(target.db, CONSUMER, event, async (tx) => { changed = await deps.store.revise(tx, revision.data); });
      for (const userId of changed) await deps.push.count(target.db, target.tenant.shortName, userId);
      return;
    }
    const parsed = notificationRequestSchema.safeParse(event.payload);
    if (!parsed.success) {
      // Redelivery would not make it valid: acknowledged, and the publisher's mistake logged.
      deps.logger.warn({ consumer: CONSUMER, eventId: event.id, issues: parsed.error.issues }, 'invalid notification request ignored');
      return;
    }
    let created: Notification | null = null;
    await consumeOnce(target.db, CONSUMER, event, async (tx) => {
      created = await deps.store.insert(tx, event.id, parsed.data);
      if (created && parsed.data.email) {
        const payload: NotificationEmailPayload = { notificationId: created.id, emailKind: parsed.data.emailKind ?? null };
        await deps.jobs.schedule(tx, { kind: EMAIL_JOB, key: `email:${created.id}`, runAt: new Date(), payload });
      }
    });
    if (created) await deps.push.created(target.db, target.tenant.shortName, created);
  });
}
