import type { Queryable } from '../db/database.ts';
import type { JobQueue } from '../scheduler/job-queue.ts';
import type { JobHandler } from '../scheduler/scheduler.ts';
import type { Mail, Mailer } from './mailer.ts';

/** The scheduler job kind that sends one mail. */
export const MAIL_JOB = 'mail.send';

/**
 * Queues a mail in the caller's transaction: it is sent only if that transaction commits,
 * by one replica (the scheduler claims the row), and retried with a growing delay while the
 * SMTP server refuses it. The row (and the mail in it) is deleted once sent.
 */
export function queueMail(queue: JobQueue, tx: Queryable, mail: Mail, runAt: Date = new Date()): Promise<void> {
  return queue.schedule(tx, { kind: MAIL_JOB, runAt, payload: mail });
}

/** The same for many mails, in one statement. */
export function queueMails(queue: JobQueue, tx: Queryable, mails: readonly Mail[], runAt: Date = new Date()): Promise<void> {
  return queue.scheduleMany(tx, mails.map((payload) => ({ kind: MAIL_JOB, runAt, payload })));
}

/** The handler to register under MAIL_JOB in the service's scheduler. */
export function mailJob(mailer: Mailer): JobHandler {
  return async (_tx, job) => {
    await mailer.send(job.payload as Mail);
  };
}
