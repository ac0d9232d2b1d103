import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { MAIL_JOB } from '@ledgerline/kit/mail/mail-job.ts';
import type { Mail } from '@ledgerline/kit/mail/mailer.ts';
import { startScheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import { invoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import { billingTenantMigrations } from '../src/billing.migrations.ts';
import { invoiceReminderKey, nextReminder } from '../src/invoices/invoice-reminders.ts';
import type { BillingFirm } from '../src/invoices/invoice.service.ts';
import { billingParts } from './support/billing-parts.ts';

/*
 * Reminders of unpaid invoices on kit's durable scheduler: the cadence (a few days before the
 * due date, on it, every few days after, 09:00 in the firm's zone), the firm's settings, the
 * mails they queue to the client's users, and the stop on payment and void.
 */

const ZONE = 'America/New_York';
const DEFAULTS = { remindersEnabled: true, reminderDaysBefore: 3, reminderEveryDaysAfter: 7 };
const nine = (date: string) => instantAt(date, '09:00', ZONE);

describe('nextReminder', () => {
  const due = '2027-03-10';
  it.each([
    ['weeks before: the one 3 days before', DEFAULTS, '2027-03-01T12:00:00Z', { date: '2027-03-07', phase: 'before' }],
    ['the morning of that day, before 09:00 (14:00 UTC in winter)', DEFAULTS, '2027-03-07T13:59:00Z', { date: '2027-03-07', phase: 'before' }],
    ['after it: the due date', DEFAULTS, '2027-03-07T14:00:00Z', { date: '2027-03-10', phase: 'due' }],
    ['after the due date\'s: a week later (summer time: 13:00 UTC)', DEFAULTS, '2027-03-10T15:00:00Z', { date: '2027-03-17', phase: 'overdue' }],
    ['between two after it: the next step', DEFAULTS, '2027-03-20T00:00:00Z', { date: '2027-03-24', phase: 'overdue' }],
    ['months after: still every 7 days from the due date', DEFAULTS, '2027-06-01T12:00:00Z', { date: '2027-06-02', phase: 'overdue' }],
    ['none before when set to 0', { ...DEFAULTS, reminderDaysBefore: 0 }, '2027-03-01T12:00:00Z', { date: '2027-03-10', phase: 'due' }],
    ['none after when set to 0', { ...DEFAULTS, reminderEveryDaysAfter: 0 }, '2027-03-10T15:00:00Z', null],
    ['none when off', { ...DEFAULTS, remindersEnabled: false }, '2027-03-01T12:00:00Z', null],
  ] as const)('%s', (_name, cadence, now, expected) => {
    const next = nextReminder(due, cadence, ZONE, new Date(now));
    expect(next).toEqual(expected && { ...expected, runAt: nine(expected.date) });
  });
});

const logger = createLogger('invoice-reminders-test', 'silent');
const CLIENT = 1;
const CLIENT_USER = 21;
const OTHER_CLIENT_USER = 22;

describe.each(databaseTargets())('invoice reminders ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firmDb: SchemaDb;
  const tenant = { shortName: `rem${randomBytes(3).toString('hex')}`, schema: '' };
  const firm: BillingFirm = { name: 'Acme CPAs', country: 'US', currency: 'USD', timeZone: ZONE };
  const { jobs, userAccess, store, reminders, service } = billingParts(firm);
  const admin = (): TenantRequest => ({
    shortName: tenant.shortName, db: firmDb, timeZone: ZONE, scope: PLATFORM_ADMIN_SCOPE, token: '', tenant: tenant.shortName,
    claims: { sub: '1', username: 'admin', fullName: 'Ada Admin', role: 'Admin', tenant: tenant.shortName, platformAdmin: false },
  } as TenantRequest);
  const tickOnce = async () => {
    const s = startScheduler({ db, queue: jobs, handlers: reminders.handlers(), logger, pollMs: 60_000, tenants: async () => [tenant] }, false);
    const n = await s.tick();
    await s.stop();
    return n;
  };
  const jobRow = async (id: number) => (await firmDb.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table} WHERE key = $1`, [invoiceReminderKey(id)])).rows[0]?.run_at ?? null;
  /** The mails queued (no mailer runs here: the rows are what would be sent). */
  const queued = async () => (await firmDb.query<{ payload: Mail }>(`SELECT payload FROM ${jobs.table} WHERE kind = $1 ORDER BY id`, [MAIL_JOB])).rows.map((r) => r.payload);
  const clearMails = () => firmDb.query(`DELETE FROM ${jobs.table} WHERE kind = $1`, [MAIL_JOB]);

  /** A sent invoice for $1,000.00 due on `dueDate`, armed as sending arms it. */
  async function sentInvoice(dueDate: string, sequence: number): Promise<number> {
    return firmDb.transaction(async (tx) => {
      const totals = invoiceTotals([{ description: 'Bookkeeping', serviceId: null, quantity: 1, unitPrice: 100_000, taxRate: 0, sacCode: null }], { country: 'US', firmState: null, clientState: null });
      const id = await store.insert(tx, {
        clientId: CLIENT, clientName: 'Own Client', clientAddress: null, clientState: null, clientRegistration: null, issueDate: todayIn(ZONE), dueDate,
        currency: 'USD', country: 'US', totals, notes: null, links: {},
      }, 1);
      await store.markSent(tx, id, { sequence, text: `INV-${String(sequence).padStart(4, '0')}` });
      await reminders.arm(tx, firm, { id, dueDate });
      return id;
    });
  }

  beforeAll(async () => {
    ({ scratch, db, firmDb } = await openFirmSchema(target, tenant, [billingTenantMigrations, userAccess.migrations, jobs.migrations]));
    const at = new Date().toISOString();
    for (const [userId, clientId] of [[CLIENT_USER, CLIENT], [OTHER_CLIENT_USER, 2]] as const) {
      await userAccess.remember(firmDb, userId, { role: 'Client', roleId: 4, clientIds: [clientId], reportTypeIds: [] }, at);
      await firmDb.query(`UPDATE ${userAccess.table} SET email = $1 WHERE user_id = $2`, [`user${userId}@example.com`, userId]);
    }
  });
  afterAll(async () => {
    await scratch.drop();
  });

  it('is armed when sent for 09:00 in the firm\'s zone 3 days before the due date; when it comes, mails the client\'s users and waits for the due date', async () => {
    const due = addDays(todayIn(ZONE), 10);
    const id = await sentInvoice(due, 1);
    expect(await jobRow(id)).toEqual(nine(addDays(due, -3)));
    // Not yet: a pass does nothing.
    await tickOnce();
    expect(await queued()).toEqual([]);

    await makeJobsDue(firmDb, jobs, invoiceReminderKey(id));
    expect(await tickOnce()).toBe(1);
    const mails = await queued();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[`user${CLIENT_USER}@example.com`, `Reminder: invoice INV-0001 is due ${clientDate(due, 'US')}`]]);
    expect(mails[0]!.text).toContain(`$1,000.00 is still to pay on invoice INV-0001 from Acme CPAs to Own Client, due ${clientDate(due, 'US')}.`);
    expect(mails[0]!.text).toContain(`View invoice: https://portal.example/${tenant.shortName}/invoices/${id}`);
    expect(mails[0]!.text).toContain('Reminders stop once the invoice is paid.');
    // The next one: the due date, 09:00.
    expect(await jobRow(id)).toEqual(nine(due));
    await clearMails();
  });

  it('a part payment keeps the reminders (for the rest); full payment stops them, and so does voiding', async () => {
    const due = addDays(todayIn(ZONE), -2);
    const paid = await sentInvoice(due, 2);
    const voided = await sentInvoice(due, 3);
    // Two days past due: the next is 7 days after the due date.
    expect(await jobRow(paid)).toEqual(nine(addDays(due, 7)));

    const pay = (amount: number) => service.applyPayment(firmDb, tenant.shortName, paid, PLATFORM_ADMIN_SCOPE, {
      amount, method: 'cheque', receivedOn: todayIn(ZONE), reference: null, providerEventId: null, recordedById: 1,
    }, SYSTEM_ACTOR);
    expect(await pay(40_000)).toBe(true);
    expect(await jobRow(paid)).toEqual(nine(addDays(due, 7)));
    await makeJobsDue(firmDb, jobs, invoiceReminderKey(paid));
    await clearMails();
    await tickOnce();
    expect((await queued()).map((m) => [m.to, m.subject])).toEqual([[`user${CLIENT_USER}@example.com`, `Overdue: invoice INV-0002 was due ${clientDate(due, 'US')}`]]);
    expect((await queued())[0]!.text).toContain('$600.00 is still to pay');
    expect(await jobRow(paid)).toEqual(nine(addDays(due, 14)));

    expect(await pay(60_000)).toBe(true);
    expect(await jobRow(paid)).toBeNull();
    expect((await service.void(admin(), voided)).status).toBe('void');
    expect(await jobRow(voided)).toBeNull();
  });

  it('a reminder that comes round for an invoice no longer open sends nothing and is not re-armed; the firm can turn reminders off', async () => {
    const due = addDays(todayIn(ZONE), 5);
    const id = await sentInvoice(due, 4);
    await firmDb.query(`UPDATE invoices SET status = 'paid', amount_paid = total WHERE id = $1`, [id]);
    await clearMails();
    await makeJobsDue(firmDb, jobs, invoiceReminderKey(id));
    await tickOnce();
    expect(await queued()).toEqual([]);
    expect(await jobRow(id)).toBeNull();

    const settings = await store.settings(firmDb);
    await store.saveSettings(firmDb, { ...settings, remindersEnabled: false });
    const quiet = await sentInvoice(due, 5);
    expect(await jobRow(quiet)).toBeNull();
    await store.saveSettings(firmDb, { ...settings, remindersEnabled: true });
  });
});
