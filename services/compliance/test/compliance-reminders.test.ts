import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { OUTBOX_TABLE } from '@ledgerline/kit/outbox/outbox.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler, type Scheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { NOTIFICATION_REQUESTED, type NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
import { complianceTenantMigrations } from '../src/compliance.migrations.ts';
import { ComplianceReminders } from '../src/reminders/compliance-reminders.ts';
import { ScheduleStore } from '../src/schedules/schedule.store.ts';
import { TrackerStore } from '../src/tracker/tracker.store.ts';

/*
 * Reminders and overdue notices through kit's durable scheduler: each fires once per item,
 * whichever of two replicas claims it, and not again after a restart or a second arming.
 */

const logger = createLogger('compliance-reminders-test', 'silent');
const userAccess = createUserAccessReadModel('compliance');
const directory = createDirectoryReadModel('compliance');
const jobs = createJobQueue('compliance');
const DAY_MS = 86_400_000;
const dayOffset = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);
const ADMINS = [11, 12];
const CPA = 13;

describe.each(databaseTargets())('compliance reminders ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firm: SchemaDb;
  const tenant = { shortName: `rem${randomBytes(3).toString('hex')}`, schema: '' };
  const items = new TrackerStore(userAccess, directory);
  const schedules = new ScheduleStore(directory);

  /** A process of the service: its reminders and its scheduler (not polling; the test ticks it). */
  const replica = (): Scheduler => startScheduler({
    db, queue: jobs, handlers: new ComplianceReminders({ jobs, items, users: userAccess }).handlers(), logger, pollMs: 60_000, tenants: async () => [tenant],
  }, false);
  const notices = async (itemId: number) => {
    const { rows } = await db.query<{ event: { payload: NotificationRequest } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND (event->'payload'->'metadata'->>'complianceItemId')::int = $2 ORDER BY id`, [NOTIFICATION_REQUESTED, itemId],
    );
    return rows.map((r) => `${r.event.payload.metadata!.kind} → ${r.event.payload.userId}`).sort();
  };
  /** A schedule's item due on `dueDate`, armed as if generated at `armedAt`. */
  async function itemDue(dueDate: string, armedAt: number, reminderDays = 7): Promise<ComplianceItem> {
    return firm.transaction(async (tx) => {
      const scheduleId = await schedules.insert(tx, { clientId: 1, reportTypeId: 1, frequency: 'yearly', dueDayOfMonth: 1, dueMonths: ['1'], reminderDays, notes: null, periodLagMonths: 0, jurisdiction: 'US' });
      const [made] = await items.insertMissing(tx, [{ schedule: { id: scheduleId, clientId: 1, reportTypeId: 1 }, period: { key: dueDate.slice(0, 7), label: 'FY', start: dueDate, end: dueDate, dueDate } }]);
      const [item] = await items.byIds(tx, [made!.id]);
      await new ComplianceReminders({ jobs, items, users: userAccess }).arm(tx, [item!], () => reminderDays, armedAt);
      return item!;
    });
  }

  beforeAll(async () => {
    ({ scratch, db, firmDb: firm } = await openFirmSchema(target, tenant, [jobs.migrations, complianceTenantMigrations, userAccess.migrations, directory.migrations]));
    const at = new Date().toISOString();
    for (const id of ADMINS) await userAccess.remember(firm, id, { role: 'Admin', roleId: 1, clientIds: [], reportTypeIds: [] }, at);
    await userAccess.remember(firm, CPA, { role: 'CPA', roleId: 3, clientIds: [1], reportTypeIds: [1] }, at);
    await userAccess.remember(firm, 14, { role: 'DTA', roleId: 2, clientIds: [], reportTypeIds: [] }, at);
    await directory.rememberClient(firm, { id: 1, name: 'Acme Ltd', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: null }, at);
    await directory.rememberReportType(firm, { id: 1, name: 'GSTR-3B' }, at);
  });
  afterAll(async () => { await scratch.drop(); });

  it('the reminder and the overdue notice fire once each across two replicas and a restart; Admins when unassigned, else the assignee', async () => {
    const tenDaysAgo = Date.now() - 10 * DAY_MS;
    const unassigned = await itemDue(dayOffset(-5), tenDaysAgo);
    const assigned = await itemDue(dayOffset(-5), tenDaysAgo);
    await firm.transaction((tx) => items.update(tx, assigned.id, { assignedToId: CPA }));
    const filed = await itemDue(dayOffset(-5), tenDaysAgo);
    await firm.transaction((tx) => items.update(tx, filed.id, { status: 'filed', filedDate: new Date().toISOString() }));

    const [a, b] = [replica(), replica()];
    await Promise.all([a.tick(), b.tick()]);
    expect(await notices(unassigned.id)).toEqual(['due_soon → 11', 'due_soon → 12', 'overdue → 11', 'overdue → 12']);
    expect(await notices(assigned.id)).toEqual([`due_soon → ${CPA}`, `overdue → ${CPA}`]);
    expect(await notices(filed.id)).toEqual([]);
    await a.stop();
    await b.stop();

    // A restart, and the same items armed again (a regeneration): nothing is said twice.
    await firm.transaction((tx) => new ComplianceReminders({ jobs, items, users: userAccess }).arm(tx, [unassigned, assigned], () => 7, tenDaysAgo));
    const restarted = replica();
    expect(await restarted.tick()).toBe(4);
    await restarted.stop();
    expect(await notices(unassigned.id)).toHaveLength(4);
    expect(await notices(assigned.id)).toHaveLength(2);
  });

  it('an extended or delayed item is reminded but not announced as overdue (only pending items are overdue)', async () => {
    const tenDaysAgo = Date.now() - 10 * DAY_MS;
    const extended = await itemDue(dayOffset(-5), tenDaysAgo);
    await firm.transaction((tx) => items.update(tx, extended.id, { status: 'extended', extensionDate: dayOffset(20), assignedToId: CPA }));
    const s = replica();
    await s.tick();
    await s.stop();
    expect(await notices(extended.id)).toEqual([`due_soon → ${CPA}`]);
  });

  it('an extension arms the notices again for the extended day, and past it the item is announced as overdue (issue 39)', async () => {
    const tenDaysAgo = Date.now() - 10 * DAY_MS;
    const item = await itemDue(dayOffset(-8), tenDaysAgo);
    await firm.transaction((tx) => items.update(tx, item.id, { assignedToId: CPA }));
    let s = replica();
    await s.tick();
    await s.stop();
    expect(await notices(item.id)).toEqual([`due_soon → ${CPA}`, `overdue → ${CPA}`]);
    // Extended to a day that has passed too: said again for that day.
    await firm.transaction(async (tx) => {
      await items.update(tx, item.id, { status: 'extended', extensionDate: dayOffset(-2) });
      await new ComplianceReminders({ jobs, items, users: userAccess }).rearm(tx, { id: item.id, scheduleId: item.scheduleId, dueDate: dayOffset(-2) }, 7, tenDaysAgo);
    });
    const { rows } = await firm.query<{ key: string; run_at: Date }>(`SELECT key, run_at FROM ${jobs.table} WHERE key = $1`, [`compliance-overdue:${item.id}`]);
    expect(rows.map((r) => r.run_at.toISOString().slice(0, 10))).toEqual([dayOffset(-1)]);
    s = replica();
    await s.tick();
    await s.stop();
    expect(await notices(item.id)).toEqual([`due_soon → ${CPA}`, `due_soon → ${CPA}`, `overdue → ${CPA}`, `overdue → ${CPA}`]);
  });

  it('an item generated already past due is not announced; one outside its reminder window waits', async () => {
    const pastDue = await itemDue(dayOffset(-2), Date.now());
    const later = await itemDue(dayOffset(30), Date.now(), 7);
    const s = replica();
    await s.tick();
    await s.stop();
    expect(await notices(pastDue.id)).toEqual([]);
    expect(await notices(later.id)).toEqual([]);
    const { rows } = await firm.query<{ key: string; run_at: Date }>(`SELECT key, run_at FROM ${jobs.table} WHERE key LIKE $1 ORDER BY key`, [`%:${later.id}`]);
    expect(rows.map((r) => [r.key, r.run_at.toISOString().slice(0, 10)])).toEqual([
      [`compliance-due-soon:${later.id}`, dayOffset(23)], [`compliance-overdue:${later.id}`, dayOffset(31)],
    ]);
  });
});
