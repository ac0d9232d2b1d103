import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler, type Scheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import { mailpit } from '@ledgerline/kit/testing/mailpit.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { SignerNotices } from '../src/domain/signer-notices.ts';
import { SignatureReminders, type ReminderFirm } from '../src/domain/signature-reminders.ts';
import { signaturesTenantMigrations } from '../src/signatures.migrations.ts';
import { SignatureStore } from '../src/store/signature.store.ts';

/*
 * Signature reminders and the overdue notice through kit's durable scheduler (issue 41): the
 * cadence (09:00 in the firm's zone every reminderEveryDays) to the signers who have not
 * signed, the stop on completion, decline, void and expiry, and one overdue notice (the
 * request expires) the day after the due date, across two replicas.
 */

const logger = createLogger('signature-reminders-test', 'silent');
const userAccess = createUserAccessReadModel('signatures');
const jobs = createJobQueue('signatures');
const DAY_MS = 86_400_000;
const SENDER = 11;
const ZONE = 'America/Chicago';
const mail = mailpit();

describe.each(databaseTargets())('signature reminders ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firmDb: SchemaDb;
  const tenant = { shortName: `sig${randomBytes(3).toString('hex')}`, schema: '' };
  const firm: ReminderFirm = { name: 'Acme Tax', timeZone: ZONE };
  const store = new SignatureStore();
  const notices = new SignerNotices({ store, jobs, publicBaseUrl: 'https://portal.example.com/', users: userAccess });
  const reminders = new SignatureReminders({ store, jobs, notices, users: userAccess, firm: async () => firm });
  const mailer = mail ? createMailer({ smtpUrl: mail.smtpUrl, mailFrom: 'Ledgerline <no-reply@ledgerline.invalid>' }, logger) : null;
  const replica = (): Scheduler => startScheduler({
    db, queue: jobs, handlers: { ...reminders.handlers(), ...(mailer ? { [MAIL_JOB]: mailJob(mailer) } : {}) }, logger, pollMs: 60_000, tenants: async () => [tenant],
  }, false);
  const tickOnce = async () => {
    const s = replica();
    const n = await s.tick();
    await s.stop();
    return n;
  };
  const address = (who: string) => `${who}.${tenant.shortName}.${target.name.toLowerCase()}@example.com`;
  const jobRow = async (key: string) => (await firmDb.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table} WHERE key = $1`, [key])).rows[0]?.run_at ?? null;
  const makeDue = (key?: string) => makeJobsDue(firmDb, jobs, key);
  /** The e-mails to `to` are these subjects: sent to Mailpit (CI; the next pass sends what a pass queued) or queued (embedded). */
  const expectMails = async (to: string, expected: string[]): Promise<void> => {
    if (mail) {
      await tickOnce();
      if (expected.length) await mail.waitForMail(to, expected.length);
      expect((await mail.messagesTo(to)).map((m) => m.Subject).sort()).toEqual([...expected].sort());
      return;
    }
    const { rows } = await firmDb.query<{ payload: { to: string; subject: string } }>(`SELECT payload FROM ${jobs.table} WHERE kind = $1 ORDER BY id`, [MAIL_JOB]);
    expect(rows.filter((r) => r.payload.to === to).map((r) => r.payload.subject)).toEqual(expected);
  };
  const events = async (id: number) => (await store.find(firmDb, id))!.events.map((e) => e.action);

  /** A sent request with two signers (the first has signed), sent and armed `sentDaysAgo` days ago. */
  async function sentRequest(title: string, dueDate: string | null, sentDaysAgo: number, reminderEveryDays: number | null = 3): Promise<number> {
    return firmDb.transaction(async (tx) => {
      const id = await store.insert(tx, {
        clientId: 1, clientName: 'Own Client', title, message: null, dueDate, reminderEveryDays, reportTypeId: 5, trackerItemId: null,
        identity: 'sign_in_second_factor', fields: [], createdById: SENDER, createdByName: 'Sender', releaseOnPayment: null,
      }, [], [
        { userId: null, name: 'Terry Taxpayer', email: address(`taxpayer-${title}`), role: 'taxpayer', order: 1, knowledge: [] },
        { userId: null, name: 'Pat Spouse', email: address(`spouse-${title}`), role: 'spouse', order: 1, knowledge: [] },
      ]);
      await store.updateRequest(tx, id, { status: 'sent', sent_at: new Date() });
      const [taxpayer] = await store.signers(tx, id);
      await store.updateSigner(tx, taxpayer!.id, { status: 'signed', signed_at: new Date() });
      await reminders.arm(tx, firm, { id, dueDate, reminderEveryDays }, Date.now() - sentDaysAgo * DAY_MS);
      return id;
    });
  }

  beforeAll(async () => {
    ({ scratch, db, firmDb } = await openFirmSchema(target, tenant, [signaturesTenantMigrations, userAccess.migrations, jobs.migrations]));
    await userAccess.remember(firmDb, SENDER, { role: 'Admin', roleId: 1, clientIds: [], reportTypeIds: [] }, new Date().toISOString());
    await firmDb.query(`UPDATE ${userAccess.table} SET email = $2, username = 'sender' WHERE user_id = $1`, [SENDER, address('sender')]);
  });
  afterAll(async () => {
    mailer?.close();
    await scratch.drop();
  });

  it('is armed for 09:00 in the firm\'s zone reminderEveryDays after sending, and the overdue notice for 09:00 the day after the due date', async () => {
    const due = addDays(todayIn(ZONE), 10);
    const id = await sentRequest('armed', due, 0, 4);
    expect(await jobRow(`signature-reminder:${id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 4), '09:00', ZONE));
    expect(await jobRow(`signature-overdue:${id}`)).toEqual(instantAt(addDays(due, 1), '09:00', ZONE));
    // Without a cadence or a due date, nothing is armed.
    const quiet = await sentRequest('quiet', null, 0, null);
    expect(await jobRow(`signature-reminder:${quiet}`)).toBeNull();
    expect(await jobRow(`signature-overdue:${quiet}`)).toBeNull();
  });

  it('reminds only the signers who have not signed, with a new link, and comes again reminderEveryDays later only', async () => {
    const id = await sentRequest('chased', addDays(todayIn(ZONE), 20), 3);
    expect(await tickOnce()).toBeGreaterThanOrEqual(1);
    await expectMails(address('spouse-chased'), ['Reminder: please sign: chased']);
    await expectMails(address('taxpayer-chased'), []);
    const [, spouse] = await store.signers(firmDb, id);
    expect(spouse!.tokenHash).not.toBeNull();
    expect(await events(id)).toEqual(['reminded']);
    // The next one waits its turn.
    expect(await jobRow(`signature-reminder:${id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 3), '09:00', ZONE));
    await tickOnce();
    expect(await events(id)).toEqual(['reminded']);
    await makeDue(`signature-reminder:${id}`);
    await tickOnce();
    expect(await events(id)).toEqual(['reminded', 'reminded']);
    await expectMails(address('spouse-chased'), ['Reminder: please sign: chased', 'Reminder: please sign: chased']);
  });

  it('stops once a request is completed, declined, voided or expired', async () => {
    const ids: number[] = [];
    for (const status of ['completed', 'declined', 'voided', 'expired'] as const) {
      const id = await sentRequest(`ended-${status}`, addDays(todayIn(ZONE), 10), 3);
      await firmDb.transaction(async (tx) => {
        await store.updateRequest(tx, id, { status });
        // Completion, decline and void drop the jobs; a request that expired on a read keeps them, and they find it ended.
        if (status !== 'expired') await reminders.disarm(tx, id);
      });
      ids.push(id);
    }
    for (const id of ids) for (const kind of ['reminder', 'overdue']) await makeDue(`signature-${kind}:${id}`);
    await tickOnce();
    for (const id of ids) {
      expect(await events(id)).toEqual([]);
      expect(await jobRow(`signature-reminder:${id}`)).toBeNull();
    }
    for (const status of ['completed', 'declined', 'voided', 'expired']) await expectMails(address(`spouse-ended-${status}`), []);
  });

  it('the day after the due date the request expires and its sender gets one overdue notice, across two replicas', async () => {
    const due = addDays(todayIn(ZONE), -1);
    const id = await sentRequest('late', due, 1, null);
    await makeDue(`signature-overdue:${id}`);
    const [a, b] = [replica(), replica()];
    await Promise.all([a.tick(), b.tick()]);
    await a.stop();
    await b.stop();
    const request = (await store.find(firmDb, id))!;
    expect(request.status).toBe('expired');
    expect(request.events.map((e) => e.action)).toEqual(['expired']);
    expect((await store.signers(firmDb, id)).every((s) => s.tokenHash === null)).toBe(true);
    await expectMails(address('sender'), ['Not signed by the due date: late']);
    // Armed again (a restart): the request no longer waits, nothing more is sent.
    await firmDb.transaction((tx) => reminders.arm(tx, firm, { id, dueDate: due, reminderEveryDays: 1 }, Date.now() - 2 * DAY_MS));
    for (const kind of ['reminder', 'overdue']) await makeDue(`signature-${kind}:${id}`);
    await tickOnce();
    await expectMails(address('sender'), ['Not signed by the due date: late']);
    await expectMails(address('spouse-late'), []);
  });
});
