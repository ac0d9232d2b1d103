import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { mailpit } from '@ledgerline/kit/testing/mailpit.ts';
import { OUTBOX_TABLE } from '@ledgerline/kit/outbox/outbox.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler, type Scheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { NOTIFICATION_REQUESTED, type NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
import { requestsTenantMigrations } from '../src/requests.migrations.ts';
import { RequestReminders, type Firm } from '../src/requests/request-reminders.ts';
import { RequestStore } from '../src/requests/request.store.ts';
import { RequestLinkMaker } from '../src/requests/request-links.ts';
import { RequestService } from '../src/requests/request.service.ts';
import { REQUEST_MESSAGES } from '@ledgerline/contracts/requests.contracts.ts';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';

/*
 * Reminders and the overdue notice through kit's durable scheduler: the cadence (09:00 in the
 * firm's zone every reminderEveryDays), the stop (completion, cancellation, nothing
 * outstanding) and one overdue notice across two replicas and a restart.
 */

const logger = createLogger('request-reminders-test', 'silent');
const userAccess = createUserAccessReadModel('requests');
const jobs = createJobQueue('requests');
const DAY_MS = 86_400_000;
const REVIEWER = 11;
const CLIENT_USER = 21;
const CPA_REVIEWER = 12;
const FORMER_REVIEWER = 13;
const INCOME_TAX = 5;
const AUDIT = 7;
const ZONE = 'Asia/Kolkata';
const mail = mailpit();

describe.each(databaseTargets())('document request reminders ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firmDb: SchemaDb;
  const tenant = { shortName: `req${randomBytes(3).toString('hex')}`, schema: '' };
  const firm: Firm = { shortName: tenant.shortName, name: 'Acme Tax', timeZone: ZONE, country: 'IN' };
  const store = new RequestStore(userAccess.table);
  const links = new RequestLinkMaker({ store, publicBaseUrl: 'https://portal.example.com/' });
  const reminders = new RequestReminders({ store, jobs, firm: async () => firm, links });
  // With Mailpit (CI), the queued e-mails are sent to the real SMTP server and read back from it.
  const mailer = mail ? createMailer({ smtpUrl: mail.smtpUrl, mailFrom: 'Ledgerline <no-reply@ledgerline.invalid>' }, logger) : null;
  const replica = (): Scheduler => startScheduler({
    db, queue: jobs, handlers: { ...reminders.handlers(), ...(mailer ? { [MAIL_JOB]: mailJob(mailer) } : {}) }, batchHandlers: reminders.batchHandlers(),
    logger, pollMs: 60_000, tenants: async () => [tenant],
  }, false);
  const tickOnce = async () => {
    const s = replica();
    const n = await s.tick();
    await s.stop();
    return n;
  };

  const notices = async (requestId: number) => {
    const { rows } = await db.query<{ event: { payload: NotificationRequest } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND event->'payload'->>'actionUrl' = $2 ORDER BY id`, [NOTIFICATION_REQUESTED, `/requests/${requestId}`]);
    return rows.map((r) => `${r.event.payload.title.split(':')[0]} → ${r.event.payload.userId}`);
  };
  const jobRow = async (key: string) => (await firmDb.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table} WHERE key = $1`, [key])).rows[0]?.run_at ?? null;
  const makeDue = (key: string) => makeJobsDue(firmDb, jobs, key);

  /** An open request with two required items and one optional, armed as if created `armedDaysAgo` days ago. */
  async function openRequest(dueDate: string, armedDaysAgo: number, reminderEveryDays = 3): Promise<number> {
    return firmDb.transaction(async (tx) => {
      const id = await store.insert(tx, {
        clientId: 1, clientName: 'Own Client', title: 'March GSTR-3B', message: null, dueDate, reminderEveryDays, reportTypeId: null, trackerItemId: null,
        assignedToId: REVIEWER, assignedToName: 'Reviewer', createdById: REVIEWER,
      }, [
        { title: 'Sales register', description: null, required: true, reportTypeId: null },
        { title: 'Purchase register', description: null, required: true, reportTypeId: null },
        { title: 'Bank statements', description: null, required: false, reportTypeId: null },
      ]);
      await reminders.arm(tx, firm, { id, dueDate, reminderEveryDays }, Date.now() - armedDaysAgo * DAY_MS);
      return id;
    });
  }

  beforeAll(async () => {
    ({ scratch, db, firmDb } = await openFirmSchema(target, tenant, [requestsTenantMigrations, userAccess.migrations, jobs.migrations]));
    const at = new Date().toISOString();
    await userAccess.remember(firmDb, REVIEWER, { role: 'Admin', roleId: 1, clientIds: [], reportTypeIds: [] }, at);
    await userAccess.remember(firmDb, CLIENT_USER, { role: 'Client', roleId: 4, clientIds: [1], reportTypeIds: [] }, at);
    await userAccess.remember(firmDb, 22, { role: 'Client', roleId: 4, clientIds: [2], reportTypeIds: [] }, at);
  });
  afterAll(async () => {
    mailer?.close();
    await scratch.drop();
  });

  it('is armed for 09:00 in the firm\'s zone reminderEveryDays after creation, and the overdue notice for 09:00 the day after the due date', async () => {
    const due = addDays(todayIn(ZONE), 10);
    const id = await openRequest(due, 0, 4);
    expect(await jobRow(`request-reminder:${id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 4), '09:00', ZONE));
    expect(await jobRow(`request-overdue:${id}`)).toEqual(instantAt(addDays(due, 1), '09:00', ZONE));
    expect((await jobRow(`request-reminder:${id}`))!.toISOString()).toMatch(/T03:30:00\.000Z$/);
  });

  it('a due reminder tells the client\'s users (not another client\'s), e-mails the link\'s recipient a fresh working link, and comes again reminderEveryDays later only', async () => {
    const due = addDays(todayIn(ZONE), 10);
    const id = await openRequest(due, 4);
    const owner = `owner.${tenant.shortName}.${target.name.toLowerCase()}@example.com`;
    // The link first sent has expired: the reminder still reaches its recipient, with a new one.
    await firmDb.transaction((tx) => store.links.insert(tx, { ownerId: id, tokenHash: randomBytes(32).toString('hex'), email: owner, expiresAt: new Date(Date.now() - DAY_MS), createdById: REVIEWER }));
    const freshLinkIn = async (text: string) => {
      const url = /https:\/\/portal\.example\.com\/document-request\/(\S+)/.exec(text)?.[1];
      expect(url).toBeDefined();
      const link = await store.links.byHash(firmDb, hashToken(url!));
      expect(link).toMatchObject({ ownerId: id, email: owner, live: true });
      const [row] = (await store.links.list(firmDb, id)).filter((l) => l.id === link!.id);
      // Lives until the end of the 14th day after the due date, in the firm's zone.
      expect(row!.expiresAt).toBe(instantAt(addDays(due, 15), '00:00', ZONE).toISOString());
      expect(text).toContain(`This link works until ${clientDate(addDays(due, 14), 'IN')}.`);
    };
    expect(await tickOnce()).toBeGreaterThanOrEqual(1);
    expect(await notices(id)).toEqual([`Reminder → ${CLIENT_USER}`]);
    if (mail) {
      // The reminder queued its e-mail in its own pass; the next pass sends it.
      await tickOnce();
      const received = await mail.waitForMail(owner);
      expect(received.Subject).toBe(`Reminder: documents due ${clientDate(due, 'IN')} — March GSTR-3B`);
      expect(received.Text).toContain('Still needed: Sales register, Purchase register.');
      expect(received.From).toMatchObject({ Name: 'Acme Tax via Ledgerline' });
      await freshLinkIn(received.Text);
    } else {
      const mails = await firmDb.query<{ payload: { to: string; subject: string; text: string } }>(`SELECT payload FROM ${jobs.table} WHERE kind = $1`, [MAIL_JOB]);
      expect(mails.rows.map((m) => m.payload.to)).toEqual([owner]);
      expect(mails.rows[0]!.payload.subject).toBe(`Reminder: documents due ${clientDate(due, 'IN')} — March GSTR-3B`);
      expect(mails.rows[0]!.payload.text).toContain('Still needed: Sales register, Purchase register.');
      await freshLinkIn(mails.rows[0]!.payload.text);
    }
    // The next one waits its turn: another pass now says nothing.
    expect(await jobRow(`request-reminder:${id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 3), '09:00', ZONE));
    await tickOnce();
    expect(await notices(id)).toHaveLength(1);
    // Its time comes: the second reminder.
    await makeDue(`request-reminder:${id}`);
    await tickOnce();
    expect(await notices(id)).toEqual([`Reminder → ${CLIENT_USER}`, `Reminder → ${CLIENT_USER}`]);
  });

  it('stops when nothing required is outstanding, and after cancellation or completion', async () => {
    const uploaded = await openRequest(addDays(todayIn(ZONE), 10), 4);
    for (const item of (await store.items(firmDb, uploaded)).filter((i) => i.required)) await store.setItem(firmDb, item.id, { status: 'uploaded' });
    const cancelled = await openRequest(addDays(todayIn(ZONE), 10), 4);
    await firmDb.transaction((tx) => store.update(tx, cancelled, { status: 'cancelled' }));
    const completed = await openRequest(addDays(todayIn(ZONE), 10), 4);
    await firmDb.transaction(async (tx) => {
      await store.update(tx, completed, { status: 'completed' });
      await reminders.disarm(tx, completed);
    });
    await tickOnce();
    expect(await notices(uploaded)).toEqual([]);
    expect(await notices(cancelled)).toEqual([]);
    expect(await notices(completed)).toEqual([]);
    // Not rescheduled: the chase is over.
    expect(await jobRow(`request-reminder:${uploaded}`)).toBeNull();
    expect(await jobRow(`request-reminder:${completed}`)).toBeNull();
  });

  it('the overdue notice reaches the reviewer once across two replicas, a restart and a re-arming; a moved due date is noticed again', async () => {
    const due = addDays(todayIn(ZONE), -5);
    const id = await openRequest(due, 1);
    const [a, b] = [replica(), replica()];
    await Promise.all([a.tick(), b.tick()]);
    await a.stop();
    await b.stop();
    expect(await notices(id)).toEqual([`Documents overdue → ${REVIEWER}`]);

    // A restart, and the request armed again (an edit of its title): no second notice.
    await firmDb.transaction((tx) => reminders.arm(tx, firm, { id, dueDate: due, reminderEveryDays: 3 }));
    expect(await tickOnce()).toBe(1);
    expect(await notices(id)).toEqual([`Documents overdue → ${REVIEWER}`]);

    // A new due date, passed as well: the reviewer hears about it once more.
    const later = addDays(todayIn(ZONE), -2);
    await firmDb.transaction(async (tx) => {
      await store.update(tx, id, { dueDate: later });
      await reminders.arm(tx, firm, { id, dueDate: later, reminderEveryDays: 3 });
    });
    await tickOnce();
    expect(await notices(id)).toEqual([`Documents overdue → ${REVIEWER}`, `Documents overdue → ${REVIEWER}`]);
  });

  it('the overdue notice to a CPA reviewer counts only the items of their report types, and a reviewer who lost the client hears nothing', async () => {
    const due = addDays(todayIn(ZONE), -3);
    const at = new Date().toISOString();
    await userAccess.remember(firmDb, CPA_REVIEWER, { role: 'CPA', roleId: 3, clientIds: [1], reportTypeIds: [INCOME_TAX] }, at);
    await userAccess.remember(firmDb, FORMER_REVIEWER, { role: 'CPA', roleId: 3, clientIds: [2], reportTypeIds: [INCOME_TAX] }, at);
    const open = (assignedToId: number) => firmDb.transaction(async (tx) => {
      const id = await store.insert(tx, {
        clientId: 1, clientName: 'Own Client', title: `Year-end ${assignedToId}`, message: null, dueDate: due, reminderEveryDays: 3, reportTypeId: null, trackerItemId: null,
        assignedToId, assignedToName: 'Reviewer', createdById: REVIEWER,
      }, [
        { title: 'Form 16', description: null, required: true, reportTypeId: INCOME_TAX },
        { title: 'Trial balance', description: null, required: true, reportTypeId: AUDIT },
        { title: 'Fixed asset register', description: null, required: true, reportTypeId: AUDIT },
      ]);
      await reminders.arm(tx, firm, { id, dueDate: due, reminderEveryDays: 3 });
      return id;
    });
    const cpas = await open(CPA_REVIEWER);
    const formers = await open(FORMER_REVIEWER);
    await tickOnce();
    const { rows } = await db.query<{ event: { payload: NotificationRequest } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND event->'payload'->>'actionUrl' = $2`, [NOTIFICATION_REQUESTED, `/requests/${cpas}`]);
    expect(rows.map((r) => r.event.payload.message)).toEqual([expect.stringContaining(': 0 of 1 required items are in.')]);
    expect(await notices(formers)).toEqual([]);
  });

  it('an expired link\'s "e-mail me a new link" mails a fresh link to the address it was sent to, once an hour, never for a revoked link, and answers alike', async () => {
    // The service without the directory and files services: renewing a link uses neither.
    const service = new RequestService({ store, jobs, reminders, links, firm: async () => firm, directory: null as never, files: null as never });
    const id = await openRequest(addDays(todayIn(ZONE), 10), 0);
    const owner = `renew.${tenant.shortName}.${target.name.toLowerCase()}@example.com`;
    const stale = `${tenant.shortName}.${randomBytes(32).toString('base64url')}`;
    const revoked = `${tenant.shortName}.${randomBytes(32).toString('base64url')}`;
    await firmDb.transaction(async (tx) => {
      await store.links.insert(tx, { ownerId: id, tokenHash: hashToken(stale), email: owner, expiresAt: new Date(Date.now() - DAY_MS), createdById: REVIEWER });
      const r = await store.links.insert(tx, { ownerId: id, tokenHash: hashToken(revoked), email: owner, expiresAt: new Date(Date.now() - DAY_MS), createdById: REVIEWER });
      await store.links.revoke(tx, id, r);
    });
    const queued = async () => (await firmDb.query<{ payload: { to: string; subject: string; text: string } }>(
      `SELECT payload FROM ${jobs.table} WHERE kind = $1 AND payload->>'to' = $2 ORDER BY id`, [MAIL_JOB, owner])).rows.map((m) => m.payload);
    const answer = { message: REQUEST_MESSAGES.newLinkOnItsWay };
    const open = async () => ({ db: firmDb });
    expect(await service.renewLink(open, revoked)).toEqual(answer);
    expect(await service.renewLink(open, `${tenant.shortName}.${'A'.repeat(43)}`)).toEqual(answer);
    expect(await service.renewLink(open, 'elsewhere.abc')).toEqual(answer);
    expect(await queued()).toEqual([]);
    expect(await service.renewLink(open, stale)).toEqual(answer);
    expect(await service.renewLink(open, stale)).toEqual(answer);
    const mails = await queued();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Acme Tax asks for documents: March GSTR-3B');
    expect(mails[0]!.text).toContain('Still needed: Sales register, Purchase register.');
    const fresh = /https:\/\/portal\.example\.com\/document-request\/(\S+)/.exec(mails[0]!.text)?.[1];
    expect(await store.links.byHash(firmDb, hashToken(fresh!))).toMatchObject({ ownerId: id, email: owner, live: true });
  });
});
