import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { Mailer } from '@ledgerline/kit/mail/mailer.ts';
import { emailKindOf, type EmailKind } from '@ledgerline/contracts/notifications.contracts.ts';
import type { NotificationStore } from './notification.store.ts';

/** What the consumer queues: the notification, and which of the user's e-mail preferences covers it. */
export interface NotificationEmailPayload { notificationId: number; emailKind?: EmailKind | null }

/**
 * Sends one notification by e-mail, to the user's own address (their username when they have
 * none and it is one), on every mailer: without SMTP_URL the mailer writes it to the log. A
 * notification deleted meanwhile, a user without an address, or a kind the user turned off
 * sends nothing; both are decided when the job runs, so a preference changed meanwhile holds.
 * A failed send throws, so the scheduler retries it later.
 */
export function notificationEmailJob(deps: { mailer: Mailer; store: NotificationStore; users: UserAccessReadModel; publicBaseUrl: string; logger: Logger }): JobHandler {
  return async (tx, job, tenant) => {
    const { notificationId, emailKind } = job.payload as NotificationEmailPayload;
    const n = await deps.store.byId(tx, notificationId);
    if (!n) return;
    const mailbox = await deps.users.mailbox(tx, n.userId);
    if (!mailbox?.to) {
      deps.logger.info({ tenant: tenant.shortName, userId: n.userId }, 'notification not emailed: the user has no email address');
      return;
    }
    const kind = emailKind ?? emailKindOf(n.category);
    if (mailbox.optedOut.includes(kind)) return;
    const link = n.actionUrl ? `\n\n${deps.publicBaseUrl.replace(/\/$/, '')}/${tenant.shortName}${n.actionUrl}` : '';
    const footer = `\n\n--\nYou receive this because e-mails about ${kind} are on in your account settings.`;
    await deps.mailer.send({ to: mailbox.to, subject: n.title, text: `${n.message}${link}${footer}` });
  };
}
