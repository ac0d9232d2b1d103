import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { PLATFORM_ADMIN_SCOPE } from '@ledgerline/kit/access/access-scope.ts';
import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { openFirmSchema } from '@ledgerline/kit/testing/firm-schema.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { ReportForwarder } from '@ledgerline/kit/files/report-forwarder.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { OUTBOX_TABLE } from '@ledgerline/kit/outbox/outbox.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { makeJobsDue } from '@ledgerline/kit/testing/job-clock.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { NOTIFICATION_REQUESTED, type NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
import { ORGANIZER_EVENTS, type OrganizerChanged } from '@ledgerline/contracts/organizers.contracts.ts';
import type { RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import { requestsTenantMigrations } from '../src/requests.migrations.ts';
import { RequestLinkMaker } from '../src/requests/request-links.ts';
import { RequestReminders, type Firm } from '../src/requests/request-reminders.ts';
import { RequestService } from '../src/requests/request.service.ts';
import { RequestStore } from '../src/requests/request.store.ts';
import { OrganizerReminders } from '../src/organizers/organizer-reminders.ts';
import { OrganizerService } from '../src/organizers/organizer.service.ts';
import { OrganizerStore } from '../src/organizers/organizer.store.ts';

/*
 * What the API cannot show: sensitive answers are sealed at rest (the raw row holds no SSN),
 * the events organizers put in the outbox, and the reminders on kit's durable scheduler
 * (09:00 in the firm's zone every reminderEveryDays; none once submitted).
 */

const logger = createLogger('organizers-store-test', 'silent');
const userAccess = createUserAccessReadModel('requests');
const directory = createDirectoryReadModel('requests');
const jobs = createJobQueue('requests');
const ZONE = 'America/New_York';
const ADMIN = 11;
const CLIENT_USER = 21;
const CLIENT = 1;

describe.each(databaseTargets())('organizers at rest and on the scheduler ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let firmDb: SchemaDb;
  const tenant = { shortName: `org${randomBytes(3).toString('hex')}`, schema: '' };
  const firm: Firm = { shortName: tenant.shortName, name: 'Acme Tax', timeZone: ZONE, country: 'US' };
  const requests = new RequestStore(userAccess.table);
  const links = new RequestLinkMaker({ store: requests, publicBaseUrl: 'https://portal.example.com/' });
  const directoryLookup = new DirectoryLookup(directory, () => 'http://127.0.0.1:9');
  const files = new ReportForwarder(() => 'http://127.0.0.1:9', new TokenSigner<RequestUploadAssertion>(randomBytes(32)));
  const requestService = new RequestService({ store: requests, jobs, reminders: new RequestReminders({ store: requests, jobs, firm: async () => firm, links }), firm: async () => firm, links, directory: directoryLookup, files });
  const store = new OrganizerStore(directory.tables.reportTypes);
  const reminders = new OrganizerReminders({ store, requests, jobs, firm: async () => firm });
  const service = new OrganizerService({
    store, requests: requestService, reminders, directory: directoryLookup, files, firm: async () => firm,
    box: new SecretBox(randomBytes(32)), links,
  });
  const admin = (): TenantRequest => ({
    shortName: tenant.shortName, db: firmDb, timeZone: ZONE, scope: PLATFORM_ADMIN_SCOPE, token: '', tenant: tenant.shortName,
    claims: { sub: String(ADMIN), username: 'admin', fullName: 'Ada Admin', role: 'Admin', tenant: tenant.shortName, platformAdmin: false },
  } as unknown as TenantRequest);
  const tickOnce = async () => {
    const s = startScheduler({ db, queue: jobs, handlers: reminders.handlers(), logger, pollMs: 60_000, tenants: async () => [tenant] }, false);
    const n = await s.tick();
    await s.stop();
    return n;
  };
  const notices = async (organizerId: number) => {
    const { rows } = await db.query<{ event: { payload: NotificationRequest } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' = $1 AND event->'payload'->>'actionUrl' = $2 ORDER BY id`, [NOTIFICATION_REQUESTED, `/organizers/${organizerId}`]);
    return rows.map((r) => `${r.event.payload.title.split(':')[0]} → ${r.event.payload.userId}`);
  };
  const events = async (organizerId: number) => {
    const { rows } = await db.query<{ event: { type: string; payload: OrganizerChanged } }>(
      `SELECT event FROM ${OUTBOX_TABLE} WHERE event->>'type' LIKE 'organizer.%' AND (event->'payload'->>'organizerId')::int = $1 ORDER BY id`, [organizerId]);
    return rows.map((r) => r.event);
  };
  const jobRow = async (key: string) => (await firmDb.query<{ run_at: Date }>(`SELECT run_at FROM ${jobs.table} WHERE key = $1`, [key])).rows[0]?.run_at ?? null;
  let templateId = 0;
  let year = 2020;

  beforeAll(async () => {
    ({ scratch, db, firmDb } = await openFirmSchema(target, tenant, [requestsTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations]));
    const at = new Date().toISOString();
    await userAccess.remember(firmDb, ADMIN, { role: 'Admin', roleId: 1, clientIds: [], reportTypeIds: [] }, at);
    await userAccess.remember(firmDb, CLIENT_USER, { role: 'Client', roleId: 4, clientIds: [CLIENT], reportTypeIds: [] }, at);
    await directory.rememberClient(firmDb, {
      id: CLIENT, name: 'Own Client', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: 'individual', fiscalYearEnd: '12-31', state: null, registrations: null,
    }, at);
    templateId = (await service.saveTemplate(admin(), {
      name: 'Household', reportTypeId: null, jurisdiction: 'US', description: null,
      sections: [{ id: 'household', title: 'Household', description: null, showIf: null, questions: [
        { id: 'dependants', type: 'group', title: 'Dependants', help: null, required: false, sensitive: false, showIf: null, fields: [
          { id: 'name', type: 'text', title: 'Name', help: null, required: true, sensitive: false, showIf: null },
          { id: 'ssn', type: 'text', title: 'SSN', help: null, required: false, sensitive: true, showIf: null },
        ] },
        { id: 'routing_number', type: 'text', title: 'Routing number', help: null, required: false, sensitive: true, showIf: null },
      ] }],
    })).id;
  });
  afterAll(async () => {
    await scratch.drop();
  });

  const newOrganizer = (sendNow: boolean, reminderEveryDays = 3) => service.create(admin(), {
    clientId: CLIENT, templateId, year: ++year, title: null, message: null, dueDate: addDays(todayIn(ZONE), 30), reminderEveryDays, reportTypeId: null, trackerItemId: null, sendNow,
  });

  it('the shipped templates come with the firm\'s schema; one belongs to the report type of its name while the firm has one, with no write on a read', async () => {
    const shipped = async () => (await store.templates(firmDb)).filter((t) => t.builtIn).map((t) => [t.builtIn, t.reportTypeId]);
    const stamps = async () => (await firmDb.query<{ u: Date }>('SELECT max(updated_at) AS u FROM organizer_templates WHERE built_in IS NOT NULL')).rows[0]!.u.toISOString();
    const before = await stamps();
    expect(await shipped()).toEqual(expect.arrayContaining([['us-1040', null], ['uk-self-assessment', null], ['india-itr', null], ['au-individual', null]]));
    await directory.rememberReportType(firmDb, { id: 77, name: 'Form 1040' }, new Date().toISOString());
    expect(await shipped()).toEqual(expect.arrayContaining([['us-1040', 77], ['uk-self-assessment', null]]));
    await firmDb.query(`UPDATE ${directory.tables.reportTypes} SET deleted = true WHERE id = 77`); // the tombstone a report-type.deleted leaves
    expect(await shipped()).toEqual(expect.arrayContaining([['us-1040', null]]));
    expect(await stamps()).toBe(before);
  });

  it('sensitive answers, in a group row or on their own, are sealed in the row and read back whole', async () => {
    const organizer = await newOrganizer(true);
    const answers = { dependants: [{ name: 'Ann', ssn: '123-45-6789' }], routing_number: '021000021' };
    expect((await service.saveAnswers(admin(), organizer.id, answers)).answers).toEqual(answers);
    const { rows: [raw] } = await firmDb.query<Record<string, unknown>>('SELECT * FROM organizers WHERE id = $1', [organizer.id]);
    const stored = JSON.stringify(raw);
    expect(stored).not.toContain('123-45-6789');
    expect(stored).not.toContain('021000021');
    expect(raw!.answers).toEqual({ dependants: [{ name: 'Ann' }] });
    expect(String(raw!.sensitive_answers)).toMatch(/^v1\./);
    expect((await service.get(admin(), organizer.id)).answers).toEqual(answers);
  });

  it('a sealed answer set opens only for its own organizer: copied to another row, it does not read', async () => {
    const first = await newOrganizer(true);
    const second = await newOrganizer(true);
    await service.saveAnswers(admin(), first.id, { routing_number: '021000021' });
    await firmDb.query('UPDATE organizers SET sensitive_answers = (SELECT sensitive_answers FROM organizers WHERE id = $1) WHERE id = $2', [first.id, second.id]);
    await expect(service.get(admin(), second.id)).rejects.toThrow();
  });

  it('sending puts organizer.sent in the outbox with what the tracker needs, tells the client\'s users and arms a reminder for 09:00 firm time', async () => {
    const organizer = await newOrganizer(true, 4);
    expect((await events(organizer.id)).map((e) => [e.type, e.payload.status, e.payload.clientId])).toEqual([[ORGANIZER_EVENTS.sent, 'sent', CLIENT]]);
    expect(await notices(organizer.id)).toEqual([`Acme Tax has questions for your return → ${CLIENT_USER}`]);
    expect(await jobRow(`organizer-reminder:${organizer.id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 4), '09:00', ZONE));
  });

  it('a draft has no reminder; a due reminder tells the client\'s users again and comes back reminderEveryDays later', async () => {
    const draft = await newOrganizer(false);
    expect(await jobRow(`organizer-reminder:${draft.id}`)).toBeNull();
    const organizer = await newOrganizer(true, 2);
    await makeJobsDue(firmDb, jobs, `organizer-reminder:${organizer.id}`);
    expect(await tickOnce()).toBeGreaterThanOrEqual(1);
    expect(await notices(organizer.id)).toEqual([`Acme Tax has questions for your return → ${CLIENT_USER}`, `Reminder → ${CLIENT_USER}`]);
    expect(await jobRow(`organizer-reminder:${organizer.id}`)).toEqual(instantAt(addDays(todayIn(ZONE), 2), '09:00', ZONE));
  });

  it('a submitted organizer is not reminded (its job, were it still due, sends nothing)', async () => {
    const organizer = await newOrganizer(true, 2);
    await firmDb.query(`UPDATE organizers SET status = 'submitted' WHERE id = $1`, [organizer.id]);
    await makeJobsDue(firmDb, jobs, `organizer-reminder:${organizer.id}`);
    await tickOnce();
    expect(await notices(organizer.id)).toEqual([`Acme Tax has questions for your return → ${CLIENT_USER}`]);
  });
});
