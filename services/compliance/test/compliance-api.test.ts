import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent, type EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import {
  COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_MESSAGES, entryFits, COMPLIANCE_SCHEDULE_DELETED, COMPLIANCE_SCHEDULE_UPSERTED, INSIGHTS_MATCH_DETECTED,
  type BulkGenerationResult, type CalendarDayCounts, type ComplianceItem, type ComplianceItemEvent, type CompliancePreset, type ComplianceSchedule, type GenerationResult, type PresetApplyResult,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { CLIENT_FIELD_MESSAGES, type Client, type ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { NOTIFICATION_REQUESTED, type Notification, type NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';

/** Access lists, names and deletions reach the compliance service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 15_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `cacme${suffix}`;
const BETA = `cbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const published: EventEnvelope[] = [];
const THIS_YEAR = new Date().getUTCFullYear();
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (isoDay: string, n: number) => new Date(Date.parse(`${isoDay}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const path = (p: string, tenant = ACME) => `/api/${tenant}${p}`;
const createSchedule = (who: string, body: Record<string, unknown>, tenant = ACME) => call<ComplianceSchedule>('POST', path('/compliance-schedules', tenant), tokens[who], body);
const generate = (who: string, scheduleId: number, year: number | string) => call<GenerationResult>('POST', path(`/compliance-schedules/${scheduleId}/generate/${year}`), tokens[who]);
const tracker = async (who: string, query = '', tenant = ACME) => {
  const r = await call<ComplianceItem[]>('GET', path(`/compliance-tracker${query}`, tenant), tokens[who]);
  expect(r.status).toBe(200);
  return r.body;
};
const put = (who: string, id: number, body: Record<string, unknown>) => call<ComplianceItem>('PUT', path(`/compliance-tracker/${id}`), tokens[who], body);
async function schedule(body: Record<string, unknown>, who = 'admin'): Promise<ComplianceSchedule> {
  const r = await createSchedule(who, body);
  expect(r.status).toBe(201);
  return r.body;
}
async function generated(scheduleId: number, year: number, who = 'admin'): Promise<ComplianceItem[]> {
  const r = await generate(who, scheduleId, year);
  expect(r.status).toBe(200);
  return r.body.items;
}

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '200' });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  await portal.bus!.subscribe(`compliance-test-${suffix}`, [
    COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_ITEM_DELETED, COMPLIANCE_SCHEDULE_UPSERTED, COMPLIANCE_SCHEDULE_DELETED, NOTIFICATION_REQUESTED,
  ], async (e) => { published.push(e); });
  for (const shortName of [ACME, BETA]) expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  // Ids are per firm: this firm's client 1 is removed, so the other firm's client 1 (ids.beta) is not one of its ids.
  const removed = await cast.created(path('/clients'), testClient('Removed Client'));
  expect((await call('DELETE', path(`/clients/${removed}`), tokens.platform)).status).toBe(200);
  ids.own = await cast.created(path('/clients'), testClient('Own Client'));
  ids.other = await cast.created(path('/clients'), testClient('Other Client'));
  ids.beta = await cast.created(path('/clients', BETA), testClient('Beta Client'));
  ids.rtOwn = await cast.created(path('/report-types'), { name: 'Own Return' });
  ids.rtOther = await cast.created(path('/report-types'), { name: 'Other Return' });
  ids.rtBeta = await cast.created(path('/report-types', BETA), { name: 'Beta Return' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'admin2', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], [ids.rtOwn!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('compliance schedules: validation (400 with a clear message)', () => {
  it.each([
    [{}, COMPLIANCE_MESSAGES.clientId],
    [{ clientId: 'x', reportTypeId: 1, frequency: 'monthly' }, COMPLIANCE_MESSAGES.clientId],
    [{ clientId: 1, frequency: 'monthly' }, COMPLIANCE_MESSAGES.reportTypeId],
    [{ clientId: 1, reportTypeId: 1 }, COMPLIANCE_MESSAGES.frequency],
    [{ clientId: 1, reportTypeId: 1, frequency: 'weekly' }, COMPLIANCE_MESSAGES.frequency],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', dueDayOfMonth: 0 }, COMPLIANCE_MESSAGES.dueDay],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', dueDayOfMonth: 32 }, COMPLIANCE_MESSAGES.dueDay],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', dueDayOfMonth: 2.5 }, COMPLIANCE_MESSAGES.dueDay],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', reminderDays: 0 }, COMPLIANCE_MESSAGES.reminderDays],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', reminderDays: 91 }, COMPLIANCE_MESSAGES.reminderDays],
    [{ clientId: 1, reportTypeId: 1, frequency: 'quarterly', dueMonths: ['13'] }, COMPLIANCE_MESSAGES.dueMonth],
    [{ clientId: 1, reportTypeId: 1, frequency: 'quarterly', dueMonths: 'March' }, COMPLIANCE_MESSAGES.dueMonth],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', dueMonths: ['3'] }, COMPLIANCE_MESSAGES.monthlyMonths],
    [{ clientId: 1, reportTypeId: 1, frequency: 'quarterly', dueMonths: [] }, COMPLIANCE_MESSAGES.quarterlyMonths],
    [{ clientId: 1, reportTypeId: 1, frequency: 'yearly', dueMonths: ['3', '4'] }, COMPLIANCE_MESSAGES.yearlyMonths],
    [{ clientId: 1, reportTypeId: 1, frequency: 'yearly' }, COMPLIANCE_MESSAGES.yearlyMonths],
    [{ clientId: 1, reportTypeId: 1, frequency: 'monthly', notes: 'bad\u0000note' }, 'notes must not contain control characters'],
  ])('%j → %s', async (body, message) => {
    const r = await createSchedule('admin', body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message });
  });

  it('the client and report type must be this firm\'s (400 naming which)', async () => {
    expect(await createSchedule('admin', { clientId: 999_999, reportTypeId: ids.rtOwn, frequency: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Client not found' } });
    expect(await createSchedule('admin', { clientId: ids.beta, reportTypeId: ids.rtOwn, frequency: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Client not found' } });
    expect(await createSchedule('admin', { clientId: ids.own, reportTypeId: 999_999, frequency: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Report type not found' } });
  });
});

describe('compliance schedules: create and list', () => {
  it('creates with the defaults (due day 15, reminder 7 days, active) and the names from the directory', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly', notes: '  Monthly VAT  ' });
    expect(s).toMatchObject({
      clientId: ids.own, clientName: 'Own Client', reportTypeId: ids.rtOwn, reportTypeName: 'Own Return', frequency: 'monthly',
      dueDayOfMonth: 15, dueMonths: [], isActive: true, reminderDays: 7, notes: 'Monthly VAT',
    });
    const q = await schedule({ clientId: ids.other, reportTypeId: ids.rtOther, frequency: 'quarterly', dueMonths: ['12', 3, '6', '3'], dueDayOfMonth: '20', reminderDays: 30 });
    expect(q).toMatchObject({ dueMonths: ['3', '6', '12'], dueDayOfMonth: 20, reminderDays: 30 });
    const all = (await call<ComplianceSchedule[]>('GET', path('/compliance-schedules'), tokens.admin)).body.map((x) => x.id);
    expect(all).toEqual(expect.arrayContaining([s.id, q.id]));
    const own = (await call<ComplianceSchedule[]>('GET', path(`/compliance-schedules?clientId=${ids.own}`), tokens.admin)).body;
    expect(own.every((x) => x.clientId === ids.own)).toBe(true);
    expect(own.map((x) => x.id)).toContain(s.id);
    expect((await call('GET', path('/compliance-schedules?clientId=abc'), tokens.admin)).status).toBe(400);
    await eventually(async () => expect(published.some((e) => e.type === COMPLIANCE_SCHEDULE_UPSERTED && (e.payload as { id: number }).id === q.id)).toBe(true), BUS_WAIT_MS);
  });
});

describe('compliance schedules: generating a year', () => {
  it('monthly: twelve items, labelled by month, the due day clamped to each month\'s end (leap year 2028)', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly', dueDayOfMonth: 31 });
    const r = await generate('admin', s.id, 2028);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ scheduleId: s.id, year: 2028, created: 12, existing: 0 });
    expect(r.body.items.map((i) => [i.period, i.dueDate])).toEqual([
      ['Jan 2028', '2028-01-31'], ['Feb 2028', '2028-02-29'], ['Mar 2028', '2028-03-31'], ['Apr 2028', '2028-04-30'],
      ['May 2028', '2028-05-31'], ['Jun 2028', '2028-06-30'], ['Jul 2028', '2028-07-31'], ['Aug 2028', '2028-08-31'],
      ['Sep 2028', '2028-09-30'], ['Oct 2028', '2028-10-31'], ['Nov 2028', '2028-11-30'], ['Dec 2028', '2028-12-31'],
    ]);
    expect(r.body.items[1]).toMatchObject({
      scheduleId: s.id, clientId: ids.own, clientName: 'Own Client', reportTypeId: ids.rtOwn, reportTypeName: 'Own Return', periodStart: '2028-02-01', periodEnd: '2028-02-29',
      status: 'pending', filedDate: null, extensionDate: null, remarks: null, assignedToId: null, assignedToName: null, aiConfidence: 0, autoDetected: false, sourceFileId: null,
    });
    const feb2027 = (await generated(s.id, 2027))[1]!;
    expect(feb2027).toMatchObject({ period: 'Feb 2027', dueDate: '2027-02-28', periodEnd: '2027-02-28' });
  });

  it('29 February clamps to the 28th outside leap years (2100 is not one)', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['2'], dueDayOfMonth: 29 });
    expect((await generated(s.id, 2100)).map((i) => i.dueDate)).toEqual(['2100-02-28']);
    expect((await generated(s.id, 2096)).map((i) => i.dueDate)).toEqual(['2096-02-29']);
  });

  it('quarterly: one per chosen month, labelled by calendar quarter', async () => {
    const s = await schedule({ clientId: ids.other, reportTypeId: ids.rtOther, frequency: 'quarterly', dueMonths: ['3', '6', '9', '12'], dueDayOfMonth: 31 });
    const items = await generated(s.id, 2027);
    expect(items.map((i) => [i.period, i.dueDate, i.periodStart, i.periodEnd])).toEqual([
      ['Q1 2027', '2027-03-31', '2027-01-01', '2027-03-31'], ['Q2 2027', '2027-06-30', '2027-04-01', '2027-06-30'],
      ['Q3 2027', '2027-09-30', '2027-07-01', '2027-09-30'], ['Q4 2027', '2027-12-31', '2027-10-01', '2027-12-31'],
    ]);
  });

  it('yearly: one item, labelled with the year it covers (a US client\'s calendar year, lag 0 by default)', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['12'], dueDayOfMonth: 31 });
    expect(s).toMatchObject({ periodLagMonths: 0, jurisdiction: 'US' });
    expect((await generated(s.id, 2027)).map((i) => [i.period, i.dueDate, i.periodStart, i.periodEnd])).toEqual([['2027', '2027-12-31', '2027-01-01', '2027-12-31']]);
  });

  it('generating again never duplicates, and keeps what changed on the items', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' });
    const first = await generated(s.id, 2029);
    expect((await put('admin', first[0]!.id, { status: 'filed' })).status).toBe(200);
    const again = await generate('admin', s.id, 2029);
    expect(again.body).toMatchObject({ created: 0, existing: 12, items: [] });
    const items = (await tracker('admin', '?startDate=2029-01-01&endDate=2029-12-31')).filter((i) => i.scheduleId === s.id);
    expect(items).toHaveLength(12);
    expect(items[0]).toMatchObject({ id: first[0]!.id, status: 'filed' });
  });

  it('two generations at the same moment make each item once', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' });
    const [a, b, c] = await Promise.all([generate('admin', s.id, 2031), generate('dta', s.id, 2031), generate('admin2', s.id, 2031)]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(a.body.created + b.body.created + c.body.created).toBe(12);
    const items = (await tracker('admin', '?startDate=2031-01-01&endDate=2031-12-31')).filter((i) => i.scheduleId === s.id);
    expect(items.map((i) => i.period)).toHaveLength(12);
    expect(new Set(items.map((i) => i.period)).size).toBe(12);
  });

  it('a whole firm\'s year in one call: every active schedule within reach (or one client\'s), each item once', async () => {
    const bulk = (who: string, year: number, query = '') => call<BulkGenerationResult>('POST', path(`/compliance-schedules/generate/${year}${query}`), tokens[who]);
    const all = (await call<ComplianceSchedule[]>('GET', path('/compliance-schedules'), tokens.admin)).body;
    const ofOwn = all.filter((s) => s.clientId === ids.own);
    const perYear = (list: ComplianceSchedule[]) => list.reduce((n, s) => n + (s.frequency === 'monthly' ? 12 : s.dueMonths.length), 0);
    expect((await bulk('admin', 2050, `?clientId=${ids.own}`)).body).toEqual({ year: 2050, schedules: ofOwn.length, created: perYear(ofOwn), createdFiled: 0, existing: 0, leftOut: [] });
    const r = await bulk('dta', 2050);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ year: 2050, schedules: all.length, created: perYear(all) - perYear(ofOwn), createdFiled: 0, existing: perYear(ofOwn), leftOut: [] });
    expect((await bulk('admin', 2050)).body).toMatchObject({ created: 0, existing: perYear(all) });
    expect((await tracker('admin', '?startDate=2050-01-01&endDate=2050-12-31')).length).toBe(perYear(all));
    // A CPA generates only within their lists; a Client user not at all.
    const cpaSchedules = (await call<ComplianceSchedule[]>('GET', path('/compliance-schedules'), tokens.cpa)).body;
    expect((await bulk('cpa', 2051)).body).toEqual({ year: 2051, schedules: cpaSchedules.length, created: perYear(cpaSchedules), createdFiled: 0, existing: 0, leftOut: [] });
    expect((await tracker('admin', '?startDate=2051-01-01&endDate=2051-12-31')).every((i) => i.clientId === ids.own && i.reportTypeId === ids.rtOwn)).toBe(true);
    expect((await bulk('client', 2052)).status).toBe(403);
    expect(await call('POST', path('/compliance-schedules/generate/1999'), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.year } });
  });

  it('bad years and schedule ids', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' });
    for (const year of ['abc', '1999', '2101', '20270', '2027.5']) {
      expect(await generate('admin', s.id, year)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.year } });
    }
    expect((await generate('admin', 999_999, 2027))).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.scheduleNotFound } });
    expect((await call('POST', path('/compliance-schedules/abc/generate/2027'), tokens.admin)).status).toBe(400);
  });

  it('publishes compliance.item.upserted with the facts a read model needs', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['5'] });
    const [item] = await generated(s.id, 2033);
    await eventually(async () => {
      const e = published.find((x) => x.type === COMPLIANCE_ITEM_UPSERTED && (x.payload as ComplianceItemEvent).id === item!.id);
      expect(e?.tenant).toBe(ACME);
      expect(e?.payload).toEqual({
        id: item!.id, scheduleId: s.id, clientId: ids.own, reportTypeId: ids.rtOwn, period: '2033', periodStart: '2033-01-01', periodEnd: '2033-12-31',
        statutoryDueDate: '2033-05-15', dueDate: '2033-05-15', dueDateReason: null, holidayCalendar: null, status: 'pending', filedDate: null,
        extendedDueDate: null, extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: false, sourceFileId: null,
      });
    }, BUS_WAIT_MS);
  });
});

describe('compliance tracker: PUT (§4 transitions)', () => {
  let items: ComplianceItem[];
  beforeAll(async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' });
    items = await generated(s.id, 2034);
  });

  it('filed stamps filedDate with now, or the past date sent (a future one is refused); leaving filed clears it', async () => {
    const before = Date.now();
    const filed = await put('admin', items[0]!.id, { status: 'filed' });
    expect(filed.status).toBe(200);
    expect(filed.body.status).toBe('filed');
    expect(Date.parse(filed.body.filedDate!)).toBeGreaterThanOrEqual(before - 1000);
    const given = await put('admin', items[1]!.id, { status: 'filed', filedDate: '2025-02-10T09:30:00Z' });
    expect(given.body).toMatchObject({ status: 'filed', filedDate: '2025-02-10T09:30:00.000Z' });
    const tomorrowAnywhere = addDays(today(), 2);
    expect(await put('admin', items[2]!.id, { status: 'filed', filedDate: tomorrowAnywhere })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.filedInFuture } });
    const reopened = await put('admin', items[1]!.id, { status: 'delayed' });
    expect(reopened.body).toMatchObject({ status: 'delayed', filedDate: null });
  });

  it('an extension date makes the item extended; remarks and the assignee as sent', async () => {
    const r = await put('dta', items[2]!.id, { extensionDate: '2034-04-30', remarks: 'Client asked for time', assignedToId: ids.cpa });
    expect(r.body).toMatchObject({ status: 'extended', extensionDate: '2034-04-30', remarks: 'Client asked for time', assignedToId: ids.cpa, assignedToName: `cpa of ${ACME}` });
    // The dialog sends the extension it shows with any status change: an unchanged extension does not override it.
    const filed = await put('dta', items[2]!.id, { status: 'filed', extensionDate: '2034-04-30' });
    expect(filed.body).toMatchObject({ status: 'filed', extensionDate: '2034-04-30' });
    const cleared = await put('dta', items[2]!.id, { extensionDate: null, assignedToId: 0, remarks: '' });
    expect(cleared.body).toMatchObject({ extensionDate: null, assignedToId: null, assignedToName: null, remarks: null, status: 'filed' });
  });

  it('bad input: 400 with a message; unknown items 404', async () => {
    expect(await put('admin', items[3]!.id, { status: 'done' })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.status } });
    expect((await put('admin', items[3]!.id, { extensionDate: '2034-02-30' })).status).toBe(400);
    expect((await put('admin', items[3]!.id, { filedDate: 'yesterday', status: 'filed' })).status).toBe(400);
    expect(await put('admin', items[3]!.id, { assignedToId: ids.client })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.assigneeNotStaff } });
    expect(await put('admin', items[3]!.id, { assignedToId: 999_999 })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.assigneeNotStaff } });
    expect(await put('admin', 999_999, { status: 'filed' })).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.itemNotFound } });
    expect((await put('admin', 99_999_999_999, { status: 'filed' })).status).toBe(404);
    expect((await call('PUT', path('/compliance-tracker/abc'), tokens.admin, { status: 'filed' })).status).toBe(400);
  });
});

describe('compliance tracker: lists', () => {
  let pastItems: ComplianceItem[];
  let currentItems: ComplianceItem[];
  beforeAll(async () => {
    const past = await schedule({ clientId: ids.other, reportTypeId: ids.rtOther, frequency: 'monthly', dueDayOfMonth: 3 });
    pastItems = await generated(past.id, 2020);
    const current = await schedule({ clientId: ids.other, reportTypeId: ids.rtOther, frequency: 'monthly', dueDayOfMonth: 28 });
    currentItems = [...await generated(current.id, THIS_YEAR), ...await generated(current.id, THIS_YEAR + 1)];
    await put('admin', pastItems[0]!.id, { status: 'filed' });
    await put('admin', pastItems[1]!.id, { extensionDate: '2020-03-31' });
  });

  it('by client and status', async () => {
    const filed = await tracker('admin', `?clientId=${ids.other}&status=filed`);
    expect(filed.map((i) => i.id)).toContain(pastItems[0]!.id);
    expect(filed.every((i) => i.status === 'filed' && i.clientId === ids.other)).toBe(true);
    expect((await tracker('admin', `?clientId=${ids.own}`)).every((i) => i.clientId === ids.own)).toBe(true);
    expect((await call('GET', path('/compliance-tracker?status=done'), tokens.admin)).status).toBe(400);
  });

  it('by due-date range (ISO days or timestamps, both ends inclusive), sorted by the day due in effect (an extension\'s day once extended)', async () => {
    const march = await tracker('admin', `?startDate=2020-03-03T00:00:00.000Z&endDate=2020-04-03T23:59:59.999Z&clientId=${ids.other}`);
    // pastItems[1] was due 3 Feb 2020 and is extended to 31 Mar 2020.
    expect(march.map((i) => i.id)).toEqual([pastItems[2]!.id, pastItems[1]!.id, pastItems[3]!.id]);
    expect(await call('GET', path('/compliance-tracker?startDate=2020-03-01'), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.rangeIncomplete } });
    expect(await call('GET', path('/compliance-tracker?startDate=2020-03-01&endDate=2020-02-01'), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.rangeReversed } });
    expect((await call('GET', path('/compliance-tracker?startDate=soon&endDate=later'), tokens.admin)).status).toBe(400);
  });

  it('overdue: the day due in effect passed (the due date, or the extended due date once extended) and not filed', async () => {
    const overdue = (await call<ComplianceItem[]>('GET', path(`/compliance-tracker/overdue?clientId=${ids.other}`), tokens.admin)).body;
    const ids_ = overdue.map((i) => i.id);
    expect(ids_).toEqual(expect.arrayContaining(pastItems.slice(1).map((i) => i.id)));
    expect(ids_).not.toContain(pastItems[0]!.id);
    const effective = (i: ComplianceItem) => (i.status === 'extended' ? i.extendedDueDate! : i.dueDate);
    expect(overdue.every((i) => (i.status === 'pending' || i.status === 'extended') && effective(i) < today())).toBe(true);
    const expectedCurrent = currentItems.filter((i) => i.dueDate < today()).map((i) => i.id);
    expect(ids_).toEqual(expect.arrayContaining(expectedCurrent));
  });

  it('upcoming: due within 30 days, today included, not filed', async () => {
    const upcoming = (await call<ComplianceItem[]>('GET', path(`/compliance-tracker/upcoming?clientId=${ids.other}`), tokens.admin)).body;
    const expected = currentItems.filter((i) => i.dueDate >= today() && i.dueDate <= addDays(today(), 30)).map((i) => i.id);
    expect(upcoming.map((i) => i.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    await put('admin', expected[0]!, { status: 'filed' });
    const after = (await call<ComplianceItem[]>('GET', path(`/compliance-tracker/upcoming?clientId=${ids.other}`), tokens.admin)).body;
    expect(after.map((i) => i.id)).not.toContain(expected[0]);
  });

  it('pages every list with limit and offset, X-Total-Count telling how many match in all', async () => {
    // Due today: upcoming (the test above filed the one there was).
    await generated((await schedule({ clientId: ids.other, reportTypeId: ids.rtOwn, frequency: 'monthly', dueDayOfMonth: new Date().getUTCDate() })).id, THIS_YEAR);
    const page = async (list: string, query: string) => {
      const r = await fetch(`${portal.gatewayUrl}${path(`/compliance-tracker${list}?clientId=${ids.other}${query}`)}`, { headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(r.status).toBe(200);
      return { ids: ((await r.json()) as ComplianceItem[]).map((i) => i.id), total: r.headers.get('x-total-count') };
    };
    for (const list of ['', '/overdue', '/upcoming']) {
      const whole = await page(list, '');
      expect(whole.total).toBeNull(); // unpaged: the bare array of §7, as before
      expect(whole.ids.length).toBeGreaterThan(0);
      const first = await page(list, '&limit=1');
      const rest = await page(list, `&limit=${whole.ids.length}&offset=1`);
      expect(first).toEqual({ ids: whole.ids.slice(0, 1), total: String(whole.ids.length) });
      expect(rest).toEqual({ ids: whole.ids.slice(1), total: String(whole.ids.length) });
      expect((await page(list, `&limit=3&offset=${whole.ids.length}`)).ids).toEqual([]);
    }
    // A calendar range with perDay: each due day's first items, and every day's counts in X-Day-Counts.
    const range = `startDate=${THIS_YEAR}-01-01T00:00:00.000Z&endDate=${THIS_YEAR}-03-31T23:59:59.999Z&clientId=${ids.other}`;
    // A second item on the 28th of each month, so that perDay=1 has something to cut.
    await generated((await schedule({ clientId: ids.other, reportTypeId: ids.rtOwn, frequency: 'monthly', dueDayOfMonth: 28 })).id, THIS_YEAR);
    const r = await fetch(`${portal.gatewayUrl}${path(`/compliance-tracker?${range}&perDay=1`)}`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    const capped = (await r.json()) as ComplianceItem[];
    const whole = await tracker('admin', `?${range}`);
    const counts = JSON.parse(r.headers.get('x-day-counts')!) as CalendarDayCounts;
    const days = [...new Set(whole.map((i) => i.dueDate))];
    expect(Object.keys(counts).sort()).toEqual(days.sort());
    for (const day of days) {
      const ofDay = whole.filter((i) => i.dueDate === day);
      expect(counts[day]).toEqual({ total: ofDay.length, overdue: ofDay.filter((i) => i.dueDate < today() && !['filed', 'extended'].includes(i.status)).length });
      expect(capped.filter((i) => i.dueDate === day).map((i) => i.id)).toEqual([Math.min(...ofDay.map((i) => i.id))]);
    }
    expect(whole.length).toBeGreaterThan(days.length); // some day holds two items, so the cap did cap
    expect(await call('GET', path('/compliance-tracker?perDay=3'), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.perDayNeedsRange } });
    expect(await call('GET', path(`/compliance-tracker?startDate=${THIS_YEAR}-01-01&endDate=${THIS_YEAR}-12-31&perDay=3`), tokens.admin))
      .toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.perDayRangeTooLong } });
    for (const bad of ['limit=0', 'limit=5001', 'limit=two', 'offset=-1']) {
      const r = await call('GET', path(`/compliance-tracker/overdue?${bad}`), tokens.admin);
      expect(r.status).toBe(400);
      expect(String(r.body.message)).toMatch(/^(limit|offset) must be a whole number/);
    }
  });
});

describe('compliance tracker: the count cap', () => {
  it('counts to 10,000 at most: beyond, X-Total-Count says 10000 and X-Total-Count-Capped: true', async () => {
    // A firm of its own with 10,080 items (42 monthly schedules, 20 years ahead, so no reminder is due).
    const CAP = `ccap${suffix}`;
    expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${CAP} Tax`, shortName: CAP })).status).toBe(201);
    const clientId = await cast.created(path('/clients', CAP), testClient('Busy Client'));
    const reportTypeId = await cast.created(path('/report-types', CAP), { name: 'Monthly Return' });
    await cast.user(CAP, 'capAdmin', 1, null);
    await eventually(async () => expect((await createSchedule('capAdmin', { clientId, reportTypeId, frequency: 'monthly' }, CAP)).status).toBe(201), BUS_WAIT_MS);
    for (let i = 1; i < 42; i++) expect((await createSchedule('capAdmin', { clientId, reportTypeId, frequency: 'monthly', dueDayOfMonth: 1 + (i % 28) }, CAP)).status).toBe(201);
    for (let year = 2060; year < 2080; year++) {
      expect((await call<BulkGenerationResult>('POST', path(`/compliance-schedules/generate/${year}`, CAP), tokens.capAdmin)).body).toMatchObject({ created: 504 });
    }
    const headers = async (query: string) => {
      const r = await fetch(`${portal.gatewayUrl}${path(`/compliance-tracker${query}`, CAP)}`, { headers: { authorization: `Bearer ${tokens.capAdmin}` } });
      expect(r.status).toBe(200);
      return { items: ((await r.json()) as ComplianceItem[]).length, total: r.headers.get('x-total-count'), capped: r.headers.get('x-total-count-capped') };
    };
    expect(await headers('?limit=25')).toEqual({ items: 25, total: '10000', capped: 'true' });
    expect(await headers('?limit=25&offset=10050')).toEqual({ items: 25, total: '10000', capped: 'true' });
    // Under the cap the count is exact and unmarked.
    const year = await tracker('capAdmin', '?startDate=2070-01-01&endDate=2070-12-31', CAP);
    expect(await headers('?limit=25&startDate=2070-01-01&endDate=2070-12-31')).toEqual({ items: 25, total: String(year.length), capped: null });
    expect(year.length).toBeGreaterThan(400);
  }, 300_000);
});

describe('compliance: who may do what (roles × own/other client × own/other firm)', () => {
  let ownItem: ComplianceItem;
  let otherClientItem: ComplianceItem;
  let otherTypeItem: ComplianceItem;
  let ownSchedule: ComplianceSchedule;
  let otherSchedule: ComplianceSchedule;
  beforeAll(async () => {
    ownSchedule = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['4'] });
    otherSchedule = await schedule({ clientId: ids.other, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['4'] });
    const otherType = await schedule({ clientId: ids.own, reportTypeId: ids.rtOther, frequency: 'yearly', dueMonths: ['4'] });
    ownItem = (await generated(ownSchedule.id, 2040))[0]!;
    otherClientItem = (await generated(otherSchedule.id, 2040))[0]!;
    otherTypeItem = (await generated(otherType.id, 2040))[0]!;
  });
  const range = '?startDate=2040-01-01&endDate=2040-12-31';

  it('Admin and DTA: every schedule and item of the firm, and every change', async () => {
    for (const who of ['admin', 'dta']) {
      const seen = (await tracker(who, range)).map((i) => i.id);
      expect(seen).toEqual(expect.arrayContaining([ownItem.id, otherClientItem.id, otherTypeItem.id]));
      expect((await put(who, otherClientItem.id, { remarks: `seen by ${who}` })).status).toBe(200);
    }
    expect((await generate('dta', otherSchedule.id, 2041)).status).toBe(200);
    expect((await createSchedule('dta', { clientId: ids.other, reportTypeId: ids.rtOther, frequency: 'monthly' })).status).toBe(201);
  });

  it('CPA: only clients AND report types in their lists; others are missing (404) or refused as references (400)', async () => {
    expect((await tracker('cpa', range)).map((i) => i.id)).toEqual([ownItem.id]);
    const schedules = (await call<ComplianceSchedule[]>('GET', path('/compliance-schedules'), tokens.cpa)).body;
    expect(schedules.every((s) => s.clientId === ids.own && s.reportTypeId === ids.rtOwn)).toBe(true);
    expect(schedules.map((s) => s.id)).toContain(ownSchedule.id);
    expect((await put('cpa', ownItem.id, { status: 'filed' })).status).toBe(200);
    expect(await put('cpa', otherClientItem.id, { status: 'filed' })).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.itemNotFound } });
    expect((await put('cpa', otherTypeItem.id, { status: 'filed' })).status).toBe(404);
    expect((await generate('cpa', ownSchedule.id, 2041)).status).toBe(200);
    expect(await generate('cpa', otherSchedule.id, 2041)).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.scheduleNotFound } });
    expect((await createSchedule('cpa', { clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' })).status).toBe(201);
    expect(await createSchedule('cpa', { clientId: ids.other, reportTypeId: ids.rtOwn, frequency: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Client not found' } });
    expect(await createSchedule('cpa', { clientId: ids.own, reportTypeId: ids.rtOther, frequency: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Report type not found' } });
    const overdue = (await call<ComplianceItem[]>('GET', path('/compliance-tracker/overdue'), tokens.cpa)).body;
    expect(overdue.every((i) => i.clientId === ids.own && i.reportTypeId === ids.rtOwn)).toBe(true);
  });

  it('Client user: reads their own client\'s items (every report type), nothing else, changes nothing', async () => {
    const seen = await tracker('client', range);
    expect(seen.map((i) => i.id).sort()).toEqual([ownItem.id, otherTypeItem.id].sort());
    expect(await tracker('client', `?clientId=${ids.other}`)).toEqual([]);
    const upcoming = (await call<ComplianceItem[]>('GET', path('/compliance-tracker/upcoming'), tokens.client)).body;
    expect(upcoming.every((i) => i.clientId === ids.own)).toBe(true);
    expect(await call('GET', path('/compliance-schedules'), tokens.client)).toMatchObject({ status: 403, body: { message: COMPLIANCE_MESSAGES.clientsDenied } });
    expect((await createSchedule('client', { clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' })).status).toBe(403);
    expect((await generate('client', ownSchedule.id, 2042)).status).toBe(403);
    expect((await put('client', ownItem.id, { status: 'delayed' })).status).toBe(403);
    expect((await call('GET', '/api/compliance-presets', tokens.client)).status).toBe(403);
  });

  it('one item by id (an insight\'s link): as the lists reach it, 404 beyond', async () => {
    const one = (who: string, id: number | string, tenant = ACME) => call<ComplianceItem & { message?: string }>('GET', path(`/compliance-tracker/${id}`, tenant), tokens[who]);
    expect((await one('dta', otherClientItem.id)).body).toMatchObject({ id: otherClientItem.id, period: otherClientItem.period, clientId: ids.other });
    expect((await one('cpa', ownItem.id)).body.id).toBe(ownItem.id);
    expect(await one('cpa', otherTypeItem.id)).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.itemNotFound } });
    expect((await one('client', otherTypeItem.id)).body.id).toBe(otherTypeItem.id);
    expect((await one('client', otherClientItem.id)).status).toBe(404);
    expect((await one('admin', 'abc')).status).toBe(400);
    expect((await one('betaAdmin', ownItem.id, BETA)).status).toBe(404);
  });

  it('another firm: nothing of this firm is reachable, in either path form', async () => {
    expect([401, 403, 404]).toContain((await call('GET', path('/compliance-tracker'), tokens.betaAdmin)).status);
    expect([401, 403, 404]).toContain((await put('betaAdmin', ownItem.id, { status: 'filed' })).status);
    expect(await tracker('betaAdmin', range, BETA)).toEqual([]);
    expect((await call<ComplianceItem[]>('GET', '/api/compliance-tracker/overdue', tokens.betaAdmin)).body).toEqual([]);
    expect((await call('PUT', path(`/compliance-tracker/${ownItem.id}`, BETA), tokens.betaAdmin, { status: 'filed' })).status).toBe(404);
    expect((await call('POST', path(`/compliance-schedules/${ownSchedule.id}/generate/2040`, BETA), tokens.betaAdmin)).status).toBe(404);
    expect(await createSchedule('betaAdmin', { clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'monthly' }, BETA)).toMatchObject({ status: 400, body: { message: 'Client not found' } });
    expect((await call('GET', path('/compliance-tracker'))).status).toBe(401);
  });
});

describe('compliance: reminders (notification.requested, once per item)', () => {
  it('an item inside its reminder window reminds the firm\'s Admins at once when unassigned, and only once', async () => {
    const due = addDays(today(), 3);
    const [year, month, day] = due.split('-').map(Number) as [number, number, number];
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: [String(month)], dueDayOfMonth: day, reminderDays: 7 });
    const [item] = await generated(s.id, year);
    const reminders = () => published.filter((e) => e.type === NOTIFICATION_REQUESTED && (e.payload as NotificationRequest).metadata?.complianceItemId === item!.id);
    await eventually(async () => expect(reminders().map((e) => (e.payload as NotificationRequest).userId).sort()).toEqual([ids.admin, ids.admin2].sort()), BUS_WAIT_MS);
    expect(reminders()[0]!.payload).toMatchObject({ category: 'compliance', type: 'warning', title: 'Compliance due soon: Own Return', actionUrl: '/compliance', clientId: ids.own });
    // The tasks service turned it into the Admin's notification.
    await eventually(async () => {
      const mine = (await call<Notification[]>('GET', path('/notifications'), tokens.admin)).body;
      expect(mine.filter((n) => n.metadata?.complianceItemId === item!.id)).toHaveLength(1);
    }, BUS_WAIT_MS);
    // Generating again arms nothing new; polls of the scheduler pass; still one each.
    expect((await generate('admin', s.id, year)).body.created).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(reminders()).toHaveLength(2);
  });
});

describe('compliance: events from other services', () => {
  it('insights.match.detected records confidence, file and auto-detection on the item', async () => {
    const s = await schedule({ clientId: ids.own, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['9'] });
    const [item] = await generated(s.id, 2044);
    await portal.bus!.publish([newEvent(INSIGHTS_MATCH_DETECTED, ACME, { itemId: item!.id, aiConfidence: 0.87, sourceFileId: 42 })]);
    await eventually(async () => {
      const [seen] = await tracker('admin', `?startDate=2044-09-15&endDate=2044-09-15&clientId=${ids.own}`);
      expect(seen).toMatchObject({ id: item!.id, aiConfidence: 0.87, autoDetected: true, sourceFileId: 42, status: 'pending' });
    }, BUS_WAIT_MS);
  });

  it('deleting a client removes its schedules and items, announced as deletions', async () => {
    const gone = await cast.created(path('/clients'), testClient('Leaving Client'));
    const s = await schedule({ clientId: gone, reportTypeId: ids.rtOwn, frequency: 'quarterly', dueMonths: ['3', '9'] });
    const items = await generated(s.id, 2045);
    expect((await call('DELETE', path(`/clients/${gone}`), tokens.platform)).status).toBe(200);
    await eventually(async () => {
      expect(await tracker('admin', `?clientId=${gone}`)).toEqual([]);
      expect((await call<ComplianceSchedule[]>('GET', path(`/compliance-schedules?clientId=${gone}`), tokens.admin)).body).toEqual([]);
    }, BUS_WAIT_MS);
    await eventually(async () => {
      const deleted = published.filter((e) => e.type === COMPLIANCE_ITEM_DELETED && (e.payload as { clientId: number }).clientId === gone).map((e) => (e.payload as { id: number }).id);
      expect(deleted.sort()).toEqual(items.map((i) => i.id).sort());
      expect(published.some((e) => e.type === COMPLIANCE_SCHEDULE_DELETED && (e.payload as { id: number }).id === s.id)).toBe(true);
    }, BUS_WAIT_MS);
  });
});

describe('compliance presets', () => {
  it('lists the four jurisdictions, every entry with its source', async () => {
    const r = await call<CompliancePreset[]>('GET', path('/compliance-presets'), tokens.cpa);
    expect(r.status).toBe(200);
    expect(r.body.map((p) => p.id)).toEqual(['india', 'us', 'uk', 'australia', 'canada']);
    const names = r.body.flatMap((p) => p.entries.map((e) => e.reportTypeName));
    expect(names).toEqual(expect.arrayContaining(['GSTR-1', 'GSTR-3B', 'TDS return (Form 24Q/26Q)', 'Advance tax instalment', 'ITR (income tax return)',
      'Form 1040', 'Form 941', 'Form 1120-S', 'Form 1065', 'Estimated tax (Form 1040-ES)', 'VAT Return', 'Self Assessment return (SA100)', 'PAYE payment',
      'BAS (quarterly)', 'Income tax return (individual)']));
    expect(r.body.every((p) => p.entries.every((e) => e.source.length > 10))).toBe(true);
  });

  it('apply creates the missing report types and the schedules; applying again creates nothing', async () => {
    const r = await call<PresetApplyResult>('POST', path('/compliance-presets/india/apply'), tokens.admin, { clientIds: [ids.own, ids.other] });
    expect(r.status).toBe(200);
    const preset = (await call<CompliancePreset[]>('GET', path('/compliance-presets'), tokens.admin)).body.find((p) => p.id === 'india')!;
    // Clients without an entity type get every entry but the opt-in schemes (QRMP).
    const india = { ...preset, entries: preset.entries.filter((e) => entryFits(e, null)) };
    expect(india.entries.map((e) => e.id)).not.toContain('gstr-1-qrmp');
    expect(r.body.createdReportTypes.map((t) => t.name).sort()).toEqual(india.entries.map((e) => e.reportTypeName).sort());
    expect(r.body.createdSchedules).toHaveLength(india.entries.length * 2);
    const gstr1 = r.body.createdSchedules.find((s) => s.reportTypeName === 'GSTR-1' && s.clientId === ids.own);
    expect(gstr1).toMatchObject({ frequency: 'monthly', dueDayOfMonth: 11, clientName: 'Own Client', periodLagMonths: 1, jurisdiction: 'IN' });
    const types = (await call<ReportType[]>('GET', path('/report-types'), tokens.admin)).body.map((t) => t.name);
    expect(types).toEqual(expect.arrayContaining(india.entries.map((e) => e.reportTypeName)));
    const again = await call<PresetApplyResult>('POST', path('/compliance-presets/india/apply'), tokens.dta, { clientIds: [ids.own] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ createdReportTypes: [], createdSchedules: [] });
    expect(again.body.skipped).toHaveLength(india.entries.length);
  });

  it('refusals and bad input', async () => {
    expect(await call('POST', path('/compliance-presets/india/apply'), tokens.cpa, { clientIds: [ids.own] })).toMatchObject({ status: 403, body: { message: COMPLIANCE_MESSAGES.presetDenied } });
    expect((await call('POST', path('/compliance-presets/india/apply'), tokens.client, { clientIds: [ids.own] })).status).toBe(403);
    expect(await call('POST', path('/compliance-presets/mars/apply'), tokens.admin, { clientIds: [ids.own] })).toMatchObject({ status: 404, body: { message: COMPLIANCE_MESSAGES.presetNotFound } });
    expect(await call('POST', path('/compliance-presets/india/apply'), tokens.admin, { clientIds: [] })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.clientIds } });
    expect(await call('POST', path('/compliance-presets/india/apply'), tokens.admin, { clientIds: [ids.beta] })).toMatchObject({ status: 400, body: { message: 'Client not found' } });
    // DTA may apply, but only an Admin may create the report types a preset lacks (the directory's rule).
    expect((await call('POST', path('/compliance-presets/us/apply'), tokens.dta, { clientIds: [ids.own] })).status).toBe(403);
  });
});

describe('covered periods, onboarding mid-year, schedule edit and delete (issue 23)', () => {
  beforeAll(async () => {
    ids.inCo = await cast.created(path('/clients'), { ...testClient('Mumbai Traders'), jurisdiction: 'IN', entityType: 'company' });
    ids.usCorp = await cast.created(path('/clients'), { ...testClient('Delaware Corp'), entityType: 'c_corp' });
    ids.usS = await cast.created(path('/clients'), { ...testClient('Austin S Corp'), entityType: 's_corp' });
    ids.rtGst = await cast.created(path('/report-types'), { name: 'GST return (own)' });
    await cast.user(ACME, 'cpa2', 3, [ids.usCorp!, ids.inCo!], []);
  });

  it('a schedule that covers the period before its due date names that period, in the client\'s years', async () => {
    const gst = await schedule({ clientId: ids.inCo, reportTypeId: ids.rtGst, frequency: 'monthly', dueDayOfMonth: 20, periodLagMonths: 1 });
    expect(gst).toMatchObject({ periodLagMonths: 1, jurisdiction: 'IN' });
    const items = await generated(gst.id, 2026);
    expect(items.find((i) => i.dueDate === '2026-11-20')).toMatchObject({ period: 'Oct 2026', periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    const tds = await schedule({ clientId: ids.inCo, reportTypeId: ids.rtGst, frequency: 'quarterly', dueMonths: ['1', '4', '7', '10'], dueDayOfMonth: 31, periodLagMonths: 1 });
    expect((await generated(tds.id, 2026)).map((i) => [i.dueDate, i.period])).toEqual([
      ['2026-01-31', 'Q3 FY 2025-26'], ['2026-04-30', 'Q4 FY 2025-26'], ['2026-07-31', 'Q1 FY 2026-27'], ['2026-10-31', 'Q2 FY 2026-27'],
    ]);
    expect(await createSchedule('admin', { clientId: ids.inCo, reportTypeId: ids.rtGst, frequency: 'monthly', periodLagMonths: 25 }))
      .toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.periodLag } });
  });

  it('generation from a start date creates only the periods ending on or after it (one schedule, and all)', async () => {
    const s = await schedule({ clientId: ids.inCo, reportTypeId: ids.rtGst, frequency: 'monthly', dueDayOfMonth: 11, periodLagMonths: 1 });
    const r = await call<GenerationResult>('POST', path(`/compliance-schedules/${s.id}/generate/2026?from=2026-11-26`), tokens.admin);
    expect(r.status).toBe(200);
    expect(r.body.items.map((i) => [i.dueDate, i.period])).toEqual([['2026-12-11', 'Nov 2026']]);
    const next = await call<GenerationResult>('POST', path(`/compliance-schedules/${s.id}/generate/2027?from=2026-11-26`), tokens.admin);
    expect(next.body.created).toBe(12);
    const all = await call<BulkGenerationResult>('POST', path(`/compliance-schedules/generate/2041?clientId=${ids.inCo}&from=2041-12-01`), tokens.admin);
    expect(all.status).toBe(200);
    // Monthly schedules (lag 1 or 0) of this client: December's period at most; the quarterly one ends in September.
    expect(all.body.created).toBeLessThanOrEqual(all.body.schedules);
    expect((await call('POST', path(`/compliance-schedules/${s.id}/generate/2026?from=26-11-2026`), tokens.admin))).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.from } });
  });

  it('earlier=filed makes the periods before the start as filed (a client taken over mid-year): none overdue, remarked', async () => {
    const s = await schedule({ clientId: ids.inCo, reportTypeId: ids.rtGst, frequency: 'monthly', dueDayOfMonth: 20, periodLagMonths: 1 });
    const from = today();
    const year = Number(from.slice(0, 4));
    const r = await call<GenerationResult>('POST', path(`/compliance-schedules/${s.id}/generate/${year}?from=${from}&earlier=filed`), tokens.admin);
    expect(r.status).toBe(200);
    const before = r.body.items.filter((i) => i.periodEnd < from);
    expect(r.body).toMatchObject({ created: 12, createdFiled: before.length, existing: 0 });
    expect(before.every((i) => i.status === 'filed' && i.filedDate === null && i.remarks === `Filed before ${from}, when the firm took the work over`)).toBe(true);
    expect(r.body.items.filter((i) => i.periodEnd >= from).every((i) => i.status === 'pending' && i.remarks === null)).toBe(true);
    // Those due before today are not overdue: they are filed.
    const overdue = (await call<ComplianceItem[]>('GET', path(`/compliance-tracker/overdue?clientId=${ids.inCo}`), tokens.admin)).body;
    expect(overdue.filter((i) => i.scheduleId === s.id)).toEqual([]);
    // Again: everything exists, nothing is made twice.
    const again = await call<GenerationResult>('POST', path(`/compliance-schedules/${s.id}/generate/${year}?from=${from}&earlier=filed`), tokens.admin);
    expect(again.body).toMatchObject({ created: 0, createdFiled: 0, existing: 12 });
    const all = await call<BulkGenerationResult>('POST', path(`/compliance-schedules/generate/2028?clientId=${ids.inCo}&from=2028-07-01&earlier=filed`), tokens.admin);
    expect(all.status).toBe(200);
    expect(all.body.createdFiled).toBeGreaterThan(0);
    expect(all.body.createdFiled).toBeLessThan(all.body.created);
    expect(await call('POST', path(`/compliance-schedules/${s.id}/generate/2030?earlier=filed`), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.earlierNeedsFrom } });
    expect(await call('POST', path(`/compliance-schedules/${s.id}/generate/2030?from=2030-06-01&earlier=yes`), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.earlier } });
  });

  it('PUT replaces a schedule: due day, lag, months, active; later generations follow it, the items made keep theirs', async () => {
    const s = await schedule({ clientId: ids.usCorp, reportTypeId: ids.rtOwn, frequency: 'quarterly', dueMonths: ['3', '6', '9', '12'], dueDayOfMonth: 15 });
    const before = await generated(s.id, 2035);
    const r = await call<ComplianceSchedule>('PUT', path(`/compliance-schedules/${s.id}`), tokens.admin, {
      clientId: ids.usCorp, reportTypeId: ids.rtOwn, frequency: 'quarterly', dueMonths: ['1', '4', '7', '10'], dueDayOfMonth: 31, periodLagMonths: 1, reminderDays: 10, notes: 'moved',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dueMonths: ['1', '4', '7', '10'], dueDayOfMonth: 31, periodLagMonths: 1, reminderDays: 10, notes: 'moved', isActive: true });
    expect((await generated(s.id, 2036)).map((i) => i.period)).toEqual(['Q4 2035', 'Q1 2036', 'Q2 2036', 'Q3 2036']);
    expect((await tracker('admin', '?startDate=2035-01-01&endDate=2035-12-31')).filter((i) => i.scheduleId === s.id).map((i) => i.id)).toEqual(before.map((i) => i.id));
    const off = await call<ComplianceSchedule>('PUT', path(`/compliance-schedules/${s.id}`), tokens.admin, { ...r.body, isActive: false });
    expect(off.body.isActive).toBe(false);
    const bulk = await call<BulkGenerationResult>('POST', path(`/compliance-schedules/generate/2037?clientId=${ids.usCorp}`), tokens.admin);
    expect((await tracker('admin', '?startDate=2037-01-01&endDate=2037-12-31')).some((i) => i.scheduleId === s.id)).toBe(false);
    expect(bulk.status).toBe(200);
    expect(await call('PUT', path(`/compliance-schedules/${s.id}`), tokens.admin, { ...r.body, frequency: 'yearly' })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.yearlyMonths } });
    expect(await call('PUT', path(`/compliance-schedules/${s.id}`, BETA), tokens.betaAdmin, r.body)).toMatchObject({ status: 404 });
    expect((await call('PUT', path(`/compliance-schedules/${s.id}`), tokens.client, r.body)).status).toBe(403);
    // The CPA's lists do not hold this client: as if it did not exist.
    expect((await call('PUT', path(`/compliance-schedules/${s.id}`), tokens.cpa, r.body)).status).toBe(404);
  });

  it('DELETE removes a schedule; deleteItems=pending removes its pending items and keeps the filed ones, none keeps all', async () => {
    const s = await schedule({ clientId: ids.usCorp, reportTypeId: ids.rtOwn, frequency: 'monthly' });
    const items = await generated(s.id, 2038);
    expect((await put('admin', items[0]!.id, { status: 'filed', filedDate: '2026-01-05' })).status).toBe(200);
    expect((await call('DELETE', path(`/compliance-schedules/${s.id}`, BETA), tokens.betaAdmin)).status).toBe(404);
    expect(await call('DELETE', path(`/compliance-schedules/${s.id}?deleteItems=all`), tokens.admin)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.deleteItems } });
    const r = await call('DELETE', path(`/compliance-schedules/${s.id}?deleteItems=pending`), tokens.admin);
    expect(r).toMatchObject({ status: 200, body: { id: s.id, deletedItems: 11, keptItems: 1 } });
    expect((await tracker('admin', '?startDate=2038-01-01&endDate=2038-12-31')).filter((i) => i.scheduleId === s.id).map((i) => i.id)).toEqual([items[0]!.id]);
    expect((await call<ComplianceSchedule[]>('GET', path('/compliance-schedules'), tokens.admin)).body.some((x) => x.id === s.id)).toBe(false);
    expect((await call('DELETE', path(`/compliance-schedules/${s.id}`), tokens.admin)).status).toBe(404);
    expect((await generate('admin', s.id, 2039)).status).toBe(404);
    await eventually(async () => {
      expect(published.some((e) => e.type === COMPLIANCE_SCHEDULE_DELETED && (e.payload as { id: number }).id === s.id)).toBe(true);
      expect(published.filter((e) => e.type === COMPLIANCE_ITEM_DELETED && items.slice(1).some((i) => i.id === (e.payload as { id: number }).id))).toHaveLength(11);
    }, BUS_WAIT_MS);

    const kept = await schedule({ clientId: ids.usCorp, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['5'] });
    await generated(kept.id, 2040);
    expect(await call('DELETE', path(`/compliance-schedules/${kept.id}`), tokens.admin)).toMatchObject({ status: 200, body: { deletedItems: 0, keptItems: 1 } });
  });

  it('the tracker assigns work to staff', async () => {
    const s = await schedule({ clientId: ids.usCorp, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['6'] });
    const [item] = await generated(s.id, 2042);
    await eventually(async () => expect((await put('admin', item!.id, { assignedToId: ids.cpa2 })).body).toMatchObject({ assignedToId: ids.cpa2, assignedToName: `cpa2 of ${ACME}` }), BUS_WAIT_MS);
    expect(await put('admin', item!.id, { assignedToId: ids.client })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.assigneeNotStaff } });
  });

  it('the US calendar gives a C corporation Form 1120 and no Form 1040, and grants the types to the CPA serving it', async () => {
    const r = await call<PresetApplyResult>('POST', path('/compliance-presets/us/apply'), tokens.admin, { clientIds: [ids.usCorp, ids.usS] });
    expect(r.status).toBe(200);
    const of = (clientId: number) => r.body.createdSchedules.filter((s) => s.clientId === clientId).map((s) => s.reportTypeName).sort();
    expect(of(ids.usCorp!)).toEqual(['Corporate estimated tax (Form 1120-W)', 'Form 1099-MISC', 'Form 1099-NEC', 'Form 1120', 'Form 940', 'Form 941', 'Form W-2 / W-3']);
    expect(of(ids.usS!)).toEqual(['Form 1099-MISC', 'Form 1099-NEC', 'Form 1120-S', 'Form 940', 'Form 941', 'Form W-2 / W-3']);
    // cpa2 serves the C corporation (not the S corporation): granted the C corporation's types, once.
    const corpTypes = r.body.createdSchedules.filter((s) => s.clientId === ids.usCorp).map((s) => s.reportTypeId).sort();
    expect(r.body.grantedReportTypes).toEqual([{ userId: ids.cpa2, reportTypeIds: expect.any(Array) }]);
    expect([...r.body.grantedReportTypes[0]!.reportTypeIds].sort()).toEqual(corpTypes);
    // Identity announced it: the CPA reaches the new items in the tracker.
    const form1120 = r.body.createdSchedules.find((s) => s.reportTypeName === 'Form 1120')!;
    expect(form1120).toMatchObject({ periodLagMonths: 4, jurisdiction: 'US' });
    const made = await call<GenerationResult>('POST', path(`/compliance-schedules/${form1120.id}/generate/2027`), tokens.admin);
    expect(made.body.items.map((i) => [i.dueDate, i.period])).toEqual([['2027-04-15', '2026']]);
    await eventually(async () => expect((await tracker('cpa2', `?clientId=${ids.usCorp}`)).map((i) => i.reportTypeName)).toContain('Form 1120'), BUS_WAIT_MS);
  });

  it('entryIds choose per client; grantToUserIds names who is granted; bad ids are refused', async () => {
    const r = await call<PresetApplyResult>('POST', path('/compliance-presets/india/apply'), tokens.admin, {
      clientIds: [ids.inCo], entryIds: { [ids.inCo!]: ['gstr-1-qrmp', 'gstr-3b-qrmp'] }, grantToUserIds: [ids.cpa2],
    });
    expect(r.status).toBe(200);
    expect(r.body.createdSchedules.map((s) => s.reportTypeName).sort()).toEqual(['GSTR-1 (QRMP)', 'GSTR-3B (QRMP)']);
    expect(r.body.grantedReportTypes).toEqual([{ userId: ids.cpa2, reportTypeIds: expect.arrayContaining(r.body.createdSchedules.map((s) => s.reportTypeId)) }]);
    expect(await call('POST', path('/compliance-presets/india/apply'), tokens.admin, { clientIds: [ids.inCo], entryIds: ['gstr-42'] }))
      .toMatchObject({ status: 400, body: { message: `${COMPLIANCE_MESSAGES.entryIds}: gstr-42` } });
    expect(await call('POST', path('/compliance-presets/india/apply'), tokens.admin, { clientIds: [ids.inCo], entryIds: ['gstr-1'], grantToUserIds: [ids.admin] }))
      .toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.grantee } });
    // Identity's own call: an Admin adds report types to a CPA's list; nobody else may, and Admins have no list to extend.
    const grant = (who: string, userId: number, tenant = ACME) => call('POST', path(`/users/${userId}/report-access`, tenant), tokens[who], { reportTypeIds: [ids.rtOther] });
    expect(await grant('admin', ids.cpa2!)).toMatchObject({ status: 200, body: { userId: ids.cpa2, reportTypeIds: [ids.rtOther] } });
    expect(await grant('admin', ids.cpa2!)).toMatchObject({ status: 200, body: { userId: ids.cpa2, reportTypeIds: [] } });
    expect((await grant('cpa', ids.cpa2!)).status).toBe(403);
    expect((await grant('dta', ids.cpa2!)).status).toBe(403);
    expect(await grant('admin', ids.admin2!)).toMatchObject({ status: 400, body: { message: 'Report types are granted to CPAs and custom-role users only' } });
    expect((await grant('betaAdmin', ids.cpa2!, BETA)).status).toBe(404);
  });
});

describe('statutory calendars right to the official tables (issue 39)', () => {
  const START = '2026-11-27';
  const apply = (presetId: string, body: Record<string, unknown>, who = 'admin') =>
    call<PresetApplyResult>('POST', path(`/compliance-presets/${presetId}/apply`), tokens[who], body);
  const extend = (who: string, id: number, body: Record<string, unknown> = {}, tenant = ACME) =>
    call<ComplianceItem>('POST', path(`/compliance-tracker/${id}/extend`, tenant), tokens[who], body);
  const itemOf = async (clientId: number, reportTypeName: string, period: string) =>
    (await tracker('admin', `?clientId=${clientId}`)).find((i) => i.reportTypeName === reportTypeName && i.period === period);

  beforeAll(async () => {
    ids.ukCo = await cast.created(path('/clients'), { ...testClient('London Widgets'), jurisdiction: 'UK', entityType: 'company', state: 'GB-ENG' });
    ids.auCo = await cast.created(path('/clients'), { ...testClient('Sydney Pty'), jurisdiction: 'AU', entityType: 'company' });
    ids.sCorp = await cast.created(path('/clients'), { ...testClient('Hudson S Corp'), entityType: 's_corp', state: 'US-NY', registrations: ['employer'] });
    ids.person = await cast.created(path('/clients'), { ...testClient('Jane Filer'), entityType: 'individual', registrations: null });
  });

  it('clients carry fiscalYearEnd (the jurisdiction\'s default when not said), state and registrations; bad values are 400s', async () => {
    const uk = (await call<Client>('GET', path(`/clients/${ids.ukCo}`), tokens.platform)).body;
    expect(uk).toMatchObject({ fiscalYearEnd: '12-31', state: 'GB-ENG', registrations: null });
    expect((await call<Client>('GET', path(`/clients/${ids.auCo}`), tokens.platform)).body.fiscalYearEnd).toBe('06-30');
    expect((await call<Client>('GET', path(`/clients/${ids.sCorp}`), tokens.platform)).body).toMatchObject({ fiscalYearEnd: '12-31', state: 'US-NY', registrations: ['employer'] });
    const bad = async (body: Record<string, unknown>) => (await call<{ message: string }>('POST', path('/clients'), tokens.platform, { ...testClient('Bad Fields'), ...body })).body.message;
    expect(await bad({ fiscalYearEnd: '13-01' })).toContain(CLIENT_FIELD_MESSAGES.fiscalYearEnd);
    expect(await bad({ fiscalYearEnd: '02-30' })).toContain(CLIENT_FIELD_MESSAGES.fiscalYearEnd);
    expect(await bad({ state: 'XX-99' })).toContain(CLIENT_FIELD_MESSAGES.state);
    expect(await bad({ jurisdiction: 'UK', state: 'US-NY' })).toContain(CLIENT_FIELD_MESSAGES.stateCountry);
    expect(await bad({ state: 'IN-DL' })).toContain(CLIENT_FIELD_MESSAGES.stateCountry); // the firm's country: US
    expect(await bad({ registrations: ['bogus'] })).toContain(CLIENT_FIELD_MESSAGES.registrations);
    // A client of its own: the onboarding case below reads London Widgets' year end through
    // compliance's read model, which a change here would reach only when its event does.
    const leeds = await cast.created(path('/clients'), { ...testClient('Leeds Widgets'), jurisdiction: 'UK', entityType: 'company', state: 'GB-ENG' });
    const r = await call<Client>('PUT', path(`/clients/${leeds}`), tokens.platform, { ...testClient('Leeds Widgets'), fiscalYearEnd: '03-31' });
    expect(r.body).toMatchObject({ fiscalYearEnd: '03-31', state: 'GB-ENG', jurisdiction: 'UK' });
    const back = await call<Client>('PUT', path(`/clients/${leeds}`), tokens.platform, { ...testClient('Leeds Widgets'), fiscalYearEnd: null });
    expect(back.body.fiscalYearEnd).toBe('12-31');
  });

  it('onboarding in late November keeps the UK company\'s CT600 for 2025 and the Australian company\'s FY2026 return, and says what it left out', async () => {
    const uk = await apply('uk', { clientIds: [ids.ukCo], entryIds: ['ct600', 'vat-return'], from: START });
    expect(uk.status).toBe(200);
    const ct600 = await itemOf(ids.ukCo!, 'Corporation Tax return (CT600)', 'FY Jan–Dec 2025');
    expect(ct600).toMatchObject({ statutoryDueDate: '2026-12-31', dueDate: '2026-12-31', dueDateReason: null, periodStart: '2025-01-01', periodEnd: '2025-12-31' });
    expect(uk.body.leftOut).toEqual(expect.arrayContaining([
      expect.objectContaining({ clientId: ids.ukCo, reportTypeName: 'VAT Return', period: 'Apr–Jun 2026', dueDate: '2026-08-07', reason: 'Due 7 Aug 2026, before the start day 27 Nov 2026' }),
    ]));
    const au = await apply('australia', { clientIds: [ids.auCo], entryIds: ['company-return', 'bas-quarterly'], from: START });
    expect(au.status).toBe(200);
    expect(await itemOf(ids.auCo!, 'Company tax return', 'FY2026')).toMatchObject({
      statutoryDueDate: '2027-02-28', dueDate: '2027-03-01', dueDateReason: '28 Feb 2027 is a Sunday', holidayCalendar: expect.stringContaining('Australian'),
    });
    expect(au.body.leftOut.map((l) => l.period)).toContain('Q1 FY2027');
    expect(au.body.createdItems).toBeGreaterThan(0);
  });

  it('941 for Q4 2026 is due Monday 1 Feb 2027, and the calendar shows it there', async () => {
    await apply('us', { clientIds: [ids.sCorp], entryIds: ['form-941', 'form-1120-s'], from: START });
    const q4 = await itemOf(ids.sCorp!, 'Form 941', 'Q4 2026');
    expect(q4).toMatchObject({ statutoryDueDate: '2027-01-31', dueDate: '2027-02-01', dueDateReason: '31 Jan 2027 is a Sunday', holidayCalendar: 'US federal holidays and DC Emancipation Day (IRC §7503)' });
    const day = await tracker('admin', `?startDate=2027-02-01&endDate=2027-02-01&clientId=${ids.sCorp}`);
    expect(day.map((i) => i.id)).toContain(q4!.id);
  });

  it('extending by the rule: 1120-S to 15 Sep 2027, and the calendar, overdue and upcoming follow the extended day', async () => {
    const s = (await itemOf(ids.sCorp!, 'Form 1120-S', '2026'))!;
    expect(s).toMatchObject({ dueDate: '2027-03-15', extendedDueDate: null });
    const r = await extend('admin', s.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'extended', extendedDueDate: '2027-09-15', extensionDate: '2027-09-15', dueDate: '2027-03-15' });
    expect((await tracker('admin', `?startDate=2027-09-15&endDate=2027-09-15&clientId=${ids.sCorp}`)).map((i) => i.id)).toContain(s.id);
    expect((await tracker('admin', `?startDate=2027-03-15&endDate=2027-03-15&clientId=${ids.sCorp}`)).map((i) => i.id)).not.toContain(s.id);
    // A day given wins; it may not be before the due date; a filed item is not extended.
    expect((await extend('admin', s.id, { extendedDueDate: '2027-08-02' })).body).toMatchObject({ extendedDueDate: '2027-08-02' });
    expect(await extend('admin', s.id, { extendedDueDate: '2027-01-01' })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.extendedBeforeDue } });
    expect(await extend('admin', s.id, { extendedDueDate: '15/09/2027' })).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.extendedDueDate } });
  });

  it('the bulk extend (PUT status extended) takes the rule too; a schedule made by hand needs a day', async () => {
    await apply('us', { clientIds: [ids.person], entryIds: ['form-1040'], from: START });
    const f1040 = (await itemOf(ids.person!, 'Form 1040', '2026'))!;
    expect((await put('admin', f1040.id, { status: 'extended' })).body).toMatchObject({ status: 'extended', extendedDueDate: '2027-10-15' });
    const own = await schedule({ clientId: ids.person, reportTypeId: ids.rtOwn, frequency: 'yearly', dueMonths: ['5'] });
    const [item] = await generated(own.id, 2027);
    expect(item).toMatchObject({ statutoryDueDate: item!.dueDate, dueDateReason: null, holidayCalendar: null });
    expect(await extend('admin', item!.id)).toMatchObject({ status: 400, body: { message: COMPLIANCE_MESSAGES.noExtensionRule } });
    expect((await extend('admin', item!.id, { extendedDueDate: '2027-08-31' })).body.extendedDueDate).toBe('2027-08-31');
  });

  it('another firm and a Client user cannot extend', async () => {
    const s = (await itemOf(ids.sCorp!, 'Form 941', 'Q4 2026'))!;
    expect((await extend('betaAdmin', s.id, {}, BETA)).status).toBe(404);
    expect([403, 404]).toContain((await extend('betaAdmin', s.id)).status);
    expect((await extend('client', s.id)).status).toBe(403);
    expect((await extend('admin', 99_999_999)).status).toBe(404);
  });

  it('pre-selection: an individual whose registrations are not said gets no 1099s; an S corporation with employer gets payroll returns', async () => {
    const us = (await call<CompliancePreset[]>('GET', path('/compliance-presets'), tokens.admin)).body.find((p) => p.id === 'us')!;
    expect(us.entries.filter((e) => entryFits(e, 'individual', null)).map((e) => e.id)).toEqual(['form-1040', 'form-1040-es']);
    expect(us.entries.filter((e) => entryFits(e, 's_corp', ['employer'])).map((e) => e.id)).toEqual(['form-1120-s', 'form-941', 'form-940', 'form-w-2']);
  });
});
