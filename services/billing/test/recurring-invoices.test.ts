import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { MAIL_JOB } from '@ledgerline/kit/mail/mail-job.ts';
import type { Mail } from '@ledgerline/kit/mail/mailer.ts';
import { OUTBOX_TABLE } from '@ledgerline/kit/outbox/outbox.ts';
import { startScheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { INVOICE_CHANGED, RECURRING_MESSAGES, type InvoiceChanged } from '@ledgerline/contracts/billing.contracts.ts';
import { invoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import { billingTenantMigrations } from '../src/billing.migrations.ts';
import { invoiceReminderKey } from '../src/invoices/invoice-reminders.ts';
import type { BillingFirm } from '../src/invoices/invoice.service.ts';
import { billingParts } from './support/billing-parts.ts';
import { RecurringInvoices, nextIssueDate, recurringKey } from '../src/invoices/recurring-invoices.ts';

/*
 * Recurring invoices on kit's durable scheduler: the dates (monthly, quarterly, a 31st kept
 * the month's last), and each issue: a numbered, sent copy of the draft template with its
 * e-mail, event and reminder, once across two replicas; sending the template stops it.
 */

describe('nextIssueDate', () => {
  it.each([
    ['2027-01-15', 'monthly', 15, '2027-02-15'],
    ['2027-01-31', 'monthly', 31, '2027-02-28'],
    ['2027-02-28', 'monthly', 31, '2027-03-31'],
    ['2028-01-31', 'monthly', 31, '2028-02-29'],
    ['2027-12-05', 'monthly', 5, '2028-01-05'],
    ['2027-01-31', 'quarterly', 31, '2027-04-30'],
    ['2027-11-30', 'quarterly', 30, '2028-02-29'],
  ] as const)('%s %s (day %i) → %s', (date, frequency, anchor, expected) => {
    expect(nextIssueDate(date, frequency, anchor)).toBe(expected);
  });
});

const logger = createLogger('recurring-invoices-test', 'silent');
const ZONE = 'Europe/London';
const CLIENT_USER = 21;

describe.each(databaseTargets())('recurring invoices ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firmDb: SchemaDb;
  const tenant = { shortName: `rec${randomBytes(3).toString('hex')}`, schema: '' };
  const firm: BillingFirm = { name: 'Acme Bookkeeping', country: 'GB', currency: 'GBP', timeZone: ZONE };
  const { jobs, userAccess, store, reminders, service } = billingParts(firm);
  const recurring = new RecurringInvoices({ store, service, jobs, firm: async () => firm, logger });
  const replica = () => startScheduler({ db, queue: jobs, handlers: { ...reminders.handlers(), ...recurring.handlers() }, logger, pollMs: 60_000, tenants: async () => [tenant] }, false);
  const tickOnce = async () => {
    const s = replica();
    await s.tick();
    await s.stop();
  };
  const jobAt = async (key: string) => (await firmDb.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table} WHERE key = $1`, [key])).rows[0]?.run_at ?? null;
  const issued = async (templateId: number) => (await store.list(firmDb, PLATFORM_ADMIN_SCOPE, { limit: 100, offset: 0 })).filter((i) => i.id !== templateId && i.status !== 'draft');

  async function template(): Promise<number> {
    const totals = invoiceTotals([{ description: 'Monthly bookkeeping', serviceId: null, quantity: 1, unitPrice: 25_000, taxRate: 0, sacCode: null }], { country: 'GB', firmState: null, clientState: null });
    return store.insert(firmDb, {
      clientId: 1, clientName: 'Own Client Ltd', clientAddress: '1 High Street, Leeds', clientState: null, clientRegistration: null, issueDate: null, dueDate: null,
      currency: 'GBP', country: 'GB', totals, notes: 'Bookkeeping for the month', links: {},
    }, 1);
  }

  beforeAll(async () => {
    ({ scratch, db, firmDb } = await openFirmSchema(target, tenant, [billingTenantMigrations, userAccess.migrations, jobs.migrations]));
    await userAccess.remember(firmDb, CLIENT_USER, { role: 'Client', roleId: 4, clientIds: [1], reportTypeIds: [] }, new Date().toISOString());
    await firmDb.query(`UPDATE ${userAccess.table} SET email = 'owner@example.com' WHERE user_id = $1`, [CLIENT_USER]);
  });
  afterAll(async () => {
    await scratch.drop();
  });

  it('is armed for 09:00 in the firm\'s zone on the issue date; each issue sends a numbered copy (mail, event, reminder) once across replicas, and arms the next', async () => {
    const id = await template();
    const first = addDays(todayIn(ZONE), 3);
    await firmDb.transaction((tx) => recurring.save(tx, firm, id, { frequency: 'monthly', nextIssueDate: first, dueInDays: 14 }, 1));
    expect(await jobAt(recurringKey(id))).toEqual(instantAt(first, '09:00', ZONE));
    await tickOnce();
    expect(await issued(id)).toEqual([]);

    await makeJobsDue(firmDb, jobs, recurringKey(id));
    const [a, b] = [replica(), replica()];
    await Promise.all([a.tick(), b.tick()]);
    await a.stop();
    await b.stop();
    const [copy] = await issued(id);
    expect(await issued(id)).toHaveLength(1);
    expect(copy).toMatchObject({
      number: 'INV-0001', status: 'sent', clientId: 1, clientName: 'Own Client Ltd', issueDate: first, dueDate: addDays(first, 14), total: 25_000, notes: 'Bookkeeping for the month',
    });
    // The template stays a draft, unnumbered.
    expect((await store.get(firmDb, id, PLATFORM_ADMIN_SCOPE))!.status).toBe('draft');
    // Sent like any invoice: its e-mail to the client's user, its event (by the System), its first reminder.
    const mails = (await firmDb.query<{ payload: Mail }>(`SELECT payload FROM ${jobs.table} WHERE kind = $1`, [MAIL_JOB])).rows.map((r) => r.payload);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([['owner@example.com', 'Invoice INV-0001 from Acme Bookkeeping']]);
    const events = (await db.query<{ event: { payload: InvoiceChanged } }>(`SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND event->>'tenant' = $2`, [INVOICE_CHANGED, tenant.shortName])).rows;
    expect(events.map((e) => [e.event.payload.invoiceId, e.event.payload.action, e.event.payload.actorName])).toEqual([[copy!.id, 'sent', 'System']]);
    expect(await jobAt(invoiceReminderKey(copy!.id))).not.toBeNull();
    // The next issue: a month later, 09:00.
    const next = nextIssueDate(first, 'monthly', Number(first.slice(8)));
    expect(await recurring.schedule(firmDb, id)).toMatchObject({ active: true, nextIssueDate: next, lastInvoiceId: copy!.id, lastIssuedOn: first });
    expect(await jobAt(recurringKey(id))).toEqual(instantAt(next, '09:00', ZONE));

    // Its time comes: the second copy, the next number.
    await makeJobsDue(firmDb, jobs, recurringKey(id));
    await tickOnce();
    expect((await issued(id)).map((i) => [i.number, i.issueDate]).sort()).toEqual([['INV-0001', first], ['INV-0002', next]]);
  });

  it('stops (paused, saying why) when the template was sent; a deleted template leaves nothing to run', async () => {
    const sentOne = await template();
    const deleted = await template();
    for (const id of [sentOne, deleted]) {
      await firmDb.transaction((tx) => recurring.save(tx, firm, id, { frequency: 'quarterly', nextIssueDate: addDays(todayIn(ZONE), 1), dueInDays: null }, 1));
    }
    await firmDb.transaction(async (tx) => {
      await tx.query(`UPDATE invoices SET status = 'sent', sequence = 900, number = 'INV-0900' WHERE id = $1`, [sentOne]);
    });
    await firmDb.query('DELETE FROM invoices WHERE id = $1', [deleted]);
    expect(await recurring.schedule(firmDb, deleted)).toBeNull();
    const before = (await store.list(firmDb, PLATFORM_ADMIN_SCOPE, { limit: 500, offset: 0 })).length;
    for (const id of [sentOne, deleted]) await makeJobsDue(firmDb, jobs, recurringKey(id));
    await tickOnce();
    expect(await recurring.schedule(firmDb, sentOne)).toMatchObject({ active: false, pausedReason: RECURRING_MESSAGES.templateSent });
    expect(await jobAt(recurringKey(sentOne))).toBeNull();
    expect(await jobAt(recurringKey(deleted))).toBeNull();
    expect((await store.list(firmDb, PLATFORM_ADMIN_SCOPE, { limit: 500, offset: 0 })).length).toBe(before);
  });
});
