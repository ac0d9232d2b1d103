import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { Mailer } from '@ledgerline/kit/mail/mailer.ts';
import type { NotificationStore } from './notification.store.ts';

/** Only an address is mailed to: a username that is one is used. */
export const emailAddressOf = (username: string): string | null => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(username) ? username : null);

/**
 * Sends one notification by email. A notification deleted meanwhile, a user without an
 * address, or a portal whose SMTP_URL was removed since the job was queued sends nothing (the mailer only logs).
 * A failed send throws, so the scheduler retries it later.
 */
export function notificationEmailJob(deps: { mailer: Mailer; store: NotificationStore; users: UserAccessReadModel; publicBaseUrl: string; logger: Logger }): JobHandler {
  return async (tx, job, tenant) => {
    if (!deps.mailer.delivers) return;
    const { notificationId } = job.payload as { notificationId: number };
    const n = await deps.store.byId(tx, notificationId);
    if (!n) return;
    const to = emailAddressOf((await deps.users.names(tx, [n.userId])).get(n.userId)?.username ?? '');
    if (!to) {
      deps.logger.info({ tenant: tenant.shortName, userId: n.userId }, 'notification not emailed: the user has no email address');
      return;
    }
    const link = n.actionUrl ? `\n\n${deps.publicBaseUrl.replace(/\/$/, '')}/${tenant.shortName}${n.actionUrl}` : '';
    await deps.mailer.send({ to, subject: n.title, text: `${n.message}${link}` });
  };
}
