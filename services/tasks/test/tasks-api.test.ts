import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { addDays, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { startSmtpCapture, type CapturedMail } from '@ledgerline/kit/testing/smtp-capture.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { Notification, UnreadCount } from '@ledgerline/contracts/notifications.contracts.ts';
import { NOTIFICATION_PUSH, UNREAD_COUNT_PUSH } from '@ledgerline/contracts/notifications.constants.ts';
import { TASK_MESSAGES, type Task, type TaskClientStatus, type TaskStats } from '@ledgerline/contracts/tasks.contracts.ts';

/** Access lists and names reach the tasks service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 15_000;
const settle = (ms = 600) => new Promise((resolve) => setTimeout(resolve, ms));

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const GAMMA = `gamma${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
let emails: CapturedMail[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpCapture>> | undefined;

/**
 * ACME's time zone: one whose clocks show mid-afternoon now, so that a task due today has
 * passed its 09:00 reminder and one due yesterday its 09:00 overdue notice, whenever this runs.
 */
const ACME_ZONE = (() => {
  let ahead = (15 - new Date().getUTCHours() + 24) % 24;
  if (ahead > 12) ahead -= 24;
  return ahead === 0 ? 'Etc/GMT' : `Etc/GMT${ahead > 0 ? '-' : '+'}${Math.abs(ahead)}`; // Etc/GMT-5 is UTC+5
})();
/** A due date `offsetDays` from today in ACME. */
const day = (offsetDays: number) => addDays(todayIn(ACME_ZONE), offsetDays);

async function createClient(tenant: string, name: string): Promise<number> {
  const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, testClient(name));
  expect(r.status).toBe(201);
  return r.body.id;
}
const tasksOf = async (who: string, query = '') => {
  const r = await call<Task[]>('GET', `/api/${ACME}/tasks${query}`, tokens[who]);
  expect(r.status).toBe(200);
  return r.body;
};
const create = (who: string, body: Record<string, unknown>, tenant = ACME) => call<Task>('POST', `/api/${tenant}/tasks`, tokens[who], body);
const notificationsOf = async (who: string) => (await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens[who])).body;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  emails = smtp.mails;
  portal = await startTestPortal({ SMTP_URL: smtp.url, SCHEDULER_POLL_MS: '200', TASK_REMINDER_LEAD_SECONDS: '3600' });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  // BETA and GAMMA sit on either side of the date line: Kiritimati's date is always a day or more ahead of Pago Pago's.
  const zones: Record<string, string> = { [ACME]: ACME_ZONE, [BETA]: 'Pacific/Kiritimati', [GAMMA]: 'Pacific/Pago_Pago' };
  for (const shortName of [ACME, BETA, GAMMA]) {
    const r = await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} Tax`, shortName, timeZone: zones[shortName] });
    expect(r.status).toBe(201);
    ids[shortName] = r.body.id;
  }
  ids.own = await createClient(ACME, 'Own Client');
  ids.other = await createClient(ACME, 'Other Client');
  ids.beta = await createClient(BETA, 'Beta Client');
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], null, { username: `cpa.${suffix}@example.com` });
  await cast.user(ACME, 'cpaOther', 3, [ids.other!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  await cast.user(GAMMA, 'gammaAdmin', 1, null);
  // The tasks service learns users and clients from events: wait until it knows the CPA and both clients.
  await eventually(async () => {
    const r = await create('admin', { title: 'warm-up', assignedToId: ids.cpa, clientIds: [ids.own, ids.other] });
    expect(r.status).toBe(201);
    expect(r.body.assignedToName).toBe(`cpa of ${ACME}`);
    expect((await call('DELETE', `/api/${ACME}/tasks/${r.body.id}`, tokens.admin)).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  // With sockets still open: shutting down must not wait for them (the suite would time out).
  await portal?.stop();
  cast.closeSockets();
  await smtp?.close();
});

describe('tasks: validation (400 with a clear message)', () => {
  it.each([
    [{ description: 'no title' }, TASK_MESSAGES.titleRequired],
    [{ title: '   ' }, TASK_MESSAGES.titleRequired],
    [{ title: 'x', priority: 'critical' }, TASK_MESSAGES.priority],
    [{ title: 'x', status: 'done' }, TASK_MESSAGES.status],
    [{ title: 'x', isRecurring: true, recurringPattern: 'hourly', dueDate: day(3) }, TASK_MESSAGES.pattern],
    [{ title: 'x', isRecurring: true, dueDate: day(3) }, TASK_MESSAGES.patternRequired],
    [{ title: 'x', isRecurring: true, recurringPattern: 'weekly' }, TASK_MESSAGES.dueDateRequired],
    [{ title: 'x', isRecurring: true, recurringPattern: 'weekly', dueDate: day(10), recurringEndDate: day(2) }, TASK_MESSAGES.endBeforeDue],
    [{ title: 'x', clientIds: ['abc'] }, TASK_MESSAGES.clientIds],
    [{ title: 'x', clientIds: [3_000_000_000] }, TASK_MESSAGES.clientIds],
    [{ title: 'x', dueDate: 'next friday' }, 'dueDate must be a date (YYYY-MM-DD) or an ISO timestamp with a time zone'],
    [{ title: 'x', recurringEndDate: '2030-02-30' }, 'recurringEndDate must be a date (YYYY-MM-DD) or an ISO timestamp with a time zone'],
    [{ title: 'bad\u0000title' }, 'title must not contain control characters'],
  ])('%j → %s', async (body, message) => {
    const r = await create('admin', body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message });
  });

  it('clients must be of this firm (404 Client not found) and the assignee a staff user of this firm', async () => {
    expect(await create('admin', { title: 'x', clientIds: [999_999] })).toMatchObject({ status: 404, body: { message: 'Client not found' } });
    expect(await create('admin', { title: 'x', assignedToId: ids.client })).toMatchObject({ status: 400, body: { message: TASK_MESSAGES.assigneeNotStaff } });
    expect(await create('admin', { title: 'x', assignedToId: 999_999 })).toMatchObject({ status: 400, body: { message: TASK_MESSAGES.assigneeNotStaff } });
  });

  it('path ids: not a number is 400, one no row can have is 404', async () => {
    expect((await call('PATCH', `/api/${ACME}/tasks/abc`, tokens.admin, { title: 'y' })).status).toBe(400);
    expect(await call('PATCH', `/api/${ACME}/tasks/99999999999`, tokens.admin, { title: 'y' })).toMatchObject({ status: 404, body: { message: TASK_MESSAGES.taskNotFound } });
    expect((await call('PATCH', `/api/${ACME}/tasks/1/client-status/99999999999`, tokens.admin, { status: 'pending' })).status).toBe(404);
    expect((await call('PATCH', `/api/${ACME}/notifications/abc/read`, tokens.admin)).status).toBe(400);
  });
});

describe('tasks: every call', () => {
  let task: Task;

  it('creates with defaults; the creator is the caller whatever the body says; names come from the read models', async () => {
    const r = await create('admin', { title: '  Quarterly VAT  ', clientIds: [ids.own, ids.other, ids.own], dueDate: day(3), assignedToId: ids.cpa, createdById: ids.dta, reportTypeId: null });
    expect(r.status).toBe(201);
    task = r.body;
    expect(task).toMatchObject({
      title: 'Quarterly VAT', description: null, priority: 'medium', status: 'pending', assignedToId: ids.cpa, assignedToName: `cpa of ${ACME}`,
      createdById: ids.admin, clientIds: [ids.own, ids.other], clientName: 'Own Client, Other Client', isRecurring: false, recurringPattern: null, completedAt: null,
    });
  });

  it('lists with the assignedToId, clientId, status and priority filters', async () => {
    await create('admin', { title: 'Urgent payroll', priority: 'urgent', clientIds: [ids.other], assignedToId: ids.dta, dueDate: day(1) });
    const titles = async (q: string) => (await tasksOf('admin', q)).map((t) => t.title);
    expect(await titles(`?assignedToId=${ids.cpa}`)).toContain('Quarterly VAT');
    expect(await titles(`?assignedToId=${ids.cpa}`)).not.toContain('Urgent payroll');
    expect(await titles(`?clientId=${ids.own}`)).toEqual(expect.arrayContaining(['Quarterly VAT']));
    expect(await titles(`?clientId=${ids.own}`)).not.toContain('Urgent payroll');
    expect(await titles('?priority=urgent')).toEqual(['Urgent payroll']);
    expect(await titles('?status=completed')).toEqual([]);
    expect((await call('GET', `/api/${ACME}/tasks?status=done`, tokens.admin)).status).toBe(400);
  });

  it('edits only the fields sent', async () => {
    const r = await call<Task>('PATCH', `/api/${ACME}/tasks/${task.id}`, tokens.admin, { description: 'Collect invoices', priority: 'high' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ description: 'Collect invoices', priority: 'high', dueDate: task.dueDate, clientIds: task.clientIds, assignedToId: ids.cpa, status: 'pending' });
  });

  it('lists one status per client, with statusFilter, and updates one with comments and the caller\'s name', async () => {
    const all = await call<TaskClientStatus[]>('GET', `/api/${ACME}/tasks/${task.id}/client-statuses`, tokens.admin);
    expect(all.body.map((s) => [s.clientId, s.clientName, s.status])).toEqual([[ids.other, 'Other Client', 'pending'], [ids.own, 'Own Client', 'pending']]);
    const r = await call<TaskClientStatus>('PATCH', `/api/${ACME}/tasks/${task.id}/client-status/${ids.own}`, tokens.cpa, { status: 'in_progress', comments: 'Waiting on bank statements' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ clientId: ids.own, status: 'in_progress', comments: 'Waiting on bank statements', updatedById: ids.cpa, updatedByName: `cpa of ${ACME}` });
    const filtered = await call<TaskClientStatus[]>('GET', `/api/${ACME}/tasks/${task.id}/client-statuses?statusFilter=in_progress`, tokens.admin);
    expect(filtered.body.map((s) => s.clientId)).toEqual([ids.own]);
    expect((await call('PATCH', `/api/${ACME}/tasks/${task.id}/client-status/${ids.own}`, tokens.cpa, { status: 'finished' })).status).toBe(400);
  });

  it('the list carries per-client progress and the latest client comment', async () => {
    const listed = async () => (await tasksOf('admin')).find((t) => t.id === task.id)!;
    expect(await listed()).toMatchObject({
      clientProgress: { done: 0, total: 2 },
      latestClientComment: { clientId: ids.own, clientName: 'Own Client', comments: 'Waiting on bank statements', updatedByName: `cpa of ${ACME}` },
    });
    await call('PATCH', `/api/${ACME}/tasks/${task.id}/client-status/${ids.other}`, tokens.admin, { status: 'completed', comments: 'Filed on the portal' });
    expect(await listed()).toMatchObject({
      clientProgress: { done: 1, total: 2 },
      latestClientComment: { clientId: ids.other, clientName: 'Other Client', comments: 'Filed on the portal' },
    });
    // Clearing a comment leaves the one before it as the latest.
    await call('PATCH', `/api/${ACME}/tasks/${task.id}/client-status/${ids.other}`, tokens.admin, { status: 'completed', comments: '' });
    expect((await listed()).latestClientComment).toMatchObject({ clientId: ids.own, comments: 'Waiting on bank statements' });
    const fresh = (await create('admin', { title: 'No clients yet' })).body;
    expect(fresh).toMatchObject({ clientProgress: { done: 0, total: 0 }, latestClientComment: null });
  });

  it('quick actions: Mark Complete stamps completedAt, Mark Pending clears it', async () => {
    const completedAt = new Date().toISOString();
    const done = await call<Task>('PATCH', `/api/${ACME}/tasks/${task.id}/status`, tokens.admin, { status: 'completed', completedAt });
    expect(done.body).toMatchObject({ status: 'completed', completedAt });
    const reopened = await call<Task>('PATCH', `/api/${ACME}/tasks/${task.id}/status`, tokens.admin, { status: 'pending', completedAt: null });
    expect(reopened.body).toMatchObject({ status: 'pending', completedAt: null });
  });

  it('stats, overdue and upcoming', async () => {
    const late = (await create('admin', { title: 'Late filing', dueDate: day(-2), clientIds: [ids.own] })).body;
    const soon = (await create('admin', { title: 'Soon filing', dueDate: day(5), clientIds: [ids.own] })).body;
    const far = (await create('admin', { title: 'Far filing', dueDate: day(20), clientIds: [ids.own] })).body;
    const closed = (await create('admin', { title: 'Closed late', dueDate: day(-3), status: 'completed' })).body;
    expect(closed.completedAt).not.toBeNull();
    const overdue = (await call<Task[]>('GET', `/api/${ACME}/tasks/overdue`, tokens.admin)).body.map((t) => t.id);
    expect(overdue).toContain(late.id);
    expect(overdue).not.toContain(closed.id);
    expect(overdue).not.toContain(soon.id);
    const upcoming = (await call<Task[]>('GET', `/api/${ACME}/tasks/upcoming?days=7`, tokens.admin)).body.map((t) => t.id);
    expect(upcoming).toEqual(expect.arrayContaining([soon.id, task.id]));
    expect(upcoming).not.toContain(far.id);
    expect(upcoming).not.toContain(late.id);
    const all = await tasksOf('admin');
    const stats = (await call<TaskStats>('GET', `/api/${ACME}/tasks/stats`, tokens.admin)).body;
    expect(stats).toEqual({
      total: all.length, pending: all.filter((t) => t.status === 'pending').length, in_progress: all.filter((t) => t.status === 'in_progress').length,
      completed: all.filter((t) => t.status === 'completed').length, overdue: overdue.length, thisMonth: all.length,
    });
  });

  it('deletes a task with its statuses (then 404)', async () => {
    const t = (await create('admin', { title: 'Throwaway', clientIds: [ids.own] })).body;
    expect(await call('DELETE', `/api/${ACME}/tasks/${t.id}`, tokens.admin)).toMatchObject({ status: 200, body: { message: 'Task deleted successfully' } });
    expect((await call('DELETE', `/api/${ACME}/tasks/${t.id}`, tokens.admin)).status).toBe(404);
    expect((await call('GET', `/api/${ACME}/tasks/${t.id}/client-statuses`, tokens.admin)).status).toBe(404);
  });
});

describe('tasks: who may do what', () => {
  let both: Task;
  let ownOnly: Task;
  let unrelated: Task;
  beforeAll(async () => {
    both = (await create('admin', { title: 'Both clients', clientIds: [ids.own, ids.other], assignedToId: ids.dta })).body;
    ownOnly = (await create('admin', { title: 'Own only', clientIds: [ids.own], assignedToId: ids.dta })).body;
    unrelated = (await create('admin', { title: 'Assigned to cpaOther', assignedToId: ids.cpaOther })).body;
  });

  it('Admin and DTA reach every task of the firm', async () => {
    for (const who of ['admin', 'dta']) {
      const seen = (await tasksOf(who)).map((t) => t.id);
      expect(seen).toEqual(expect.arrayContaining([both.id, ownOnly.id, unrelated.id]));
    }
    expect((await call('PATCH', `/api/${ACME}/tasks/${unrelated.id}`, tokens.dta, { priority: 'low' })).status).toBe(200);
  });

  it('CPA and custom roles: tasks assigned to them or touching a client in their list; only those clients\' statuses', async () => {
    const cpaOther = (await tasksOf('cpaOther')).map((t) => t.id);
    expect(cpaOther).toEqual(expect.arrayContaining([both.id, unrelated.id]));
    expect(cpaOther).not.toContain(ownOnly.id);
    const cpa = (await tasksOf('cpa')).map((t) => t.id);
    expect(cpa).toEqual(expect.arrayContaining([both.id, ownOnly.id]));
    expect(cpa).not.toContain(unrelated.id);
    // Out of reach answers as missing.
    expect((await call('PATCH', `/api/${ACME}/tasks/${ownOnly.id}`, tokens.cpaOther, { title: 'mine now' })).status).toBe(404);
    expect((await call('PATCH', `/api/${ACME}/tasks/${ownOnly.id}/status`, tokens.cpaOther, { status: 'completed' })).status).toBe(404);
    expect((await call('DELETE', `/api/${ACME}/tasks/${ownOnly.id}`, tokens.cpaOther)).status).toBe(404);
    expect((await call('GET', `/api/${ACME}/tasks/${ownOnly.id}/client-statuses`, tokens.cpaOther)).status).toBe(404);
    const statuses = await call<TaskClientStatus[]>('GET', `/api/${ACME}/tasks/${both.id}/client-statuses`, tokens.cpaOther);
    expect(statuses.body.map((s) => s.clientId)).toEqual([ids.other]);
    expect(await call('PATCH', `/api/${ACME}/tasks/${both.id}/client-status/${ids.own}`, tokens.cpaOther, { status: 'completed' })).toMatchObject({ status: 404, body: { message: 'Client not found' } });
    expect((await call('PATCH', `/api/${ACME}/tasks/${both.id}/client-status/${ids.other}`, tokens.cpaOther, { status: 'completed' })).status).toBe(200);
    // They create tasks for their own clients only.
    expect(await create('cpa', { title: 'x', clientIds: [ids.other] })).toMatchObject({ status: 404, body: { message: 'Client not found' } });
    expect((await create('cpa', { title: 'For my client', clientIds: [ids.own] })).status).toBe(201);
    const stats = (await call<TaskStats>('GET', `/api/${ACME}/tasks/stats`, tokens.cpaOther)).body;
    expect(stats.total).toBe(cpaOther.length);
  });

  it('names only the clients the caller may see (a CPA never learns the names of another CPA\'s clients)', async () => {
    const seenByCpa = (await tasksOf('cpa')).find((t) => t.id === both.id)!;
    expect(seenByCpa).toMatchObject({ clientIds: [ids.own, ids.other], clientName: 'Own Client' });
    expect((await tasksOf('cpaOther')).find((t) => t.id === both.id)).toMatchObject({ clientName: 'Other Client' });
    expect((await tasksOf('dta')).find((t) => t.id === both.id)).toMatchObject({ clientName: 'Own Client, Other Client' });
    const unnamed = (await tasksOf('cpa')).find((t) => t.id === unrelated.id);
    expect(unnamed).toBeUndefined();
    // An edit by the CPA answers the same way, and keeps the client outside their list on the task.
    const edited = await call<Task>('PATCH', `/api/${ACME}/tasks/${both.id}`, tokens.cpa, { priority: 'high' });
    expect(edited.body).toMatchObject({ clientIds: [ids.own, ids.other], clientName: 'Own Client' });
    // Progress and the latest comment count only the clients the caller reaches.
    await call('PATCH', `/api/${ACME}/tasks/${both.id}/client-status/${ids.other}`, tokens.admin, { status: 'completed', comments: 'Other client note' });
    expect((await tasksOf('cpa')).find((t) => t.id === both.id)).toMatchObject({ clientProgress: { done: 0, total: 1 }, latestClientComment: null });
    expect((await tasksOf('cpaOther')).find((t) => t.id === both.id)).toMatchObject({ clientProgress: { done: 1, total: 1 }, latestClientComment: { comments: 'Other client note' } });
  });

  it('a task\'s report type must exist and be one the caller may use (else 404 Report type not found)', async () => {
    const type = await call<{ id: number }>('POST', `/api/${ACME}/report-types`, tokens.admin, { name: `Payroll ${suffix}` });
    expect(type.status).toBe(201);
    expect(await create('admin', { title: 'x', reportTypeId: 999_999 })).toMatchObject({ status: 404, body: { message: 'Report type not found' } });
    // The CPA's report-type list is empty: no type is theirs to use, on create or on edit.
    expect(await create('cpa', { title: 'x', clientIds: [ids.own], reportTypeId: type.body.id })).toMatchObject({ status: 404, body: { message: 'Report type not found' } });
    expect(await call('PATCH', `/api/${ACME}/tasks/${ownOnly.id}`, tokens.cpa, { reportTypeId: type.body.id })).toMatchObject({ status: 404, body: { message: 'Report type not found' } });
    const typed = await create('admin', { title: 'Typed', clientIds: [ids.own], reportTypeId: type.body.id });
    expect(typed).toMatchObject({ status: 201, body: { reportTypeId: type.body.id } });
    // A task of a type outside their list is not theirs, as a tracker item's is not (issue 38): 404, and not listed ...
    expect((await call('PATCH', `/api/${ACME}/tasks/${typed.body.id}`, tokens.cpa, { priority: 'low' })).status).toBe(404);
    expect((await tasksOf('cpa')).map((t) => t.id)).not.toContain(typed.body.id);
    // ... unless it is assigned to them; editing something else of it is not a use of its type.
    const assigned = await create('admin', { title: 'Typed, theirs', clientIds: [ids.own], reportTypeId: type.body.id, assignedToId: ids.cpa });
    expect((await call('PATCH', `/api/${ACME}/tasks/${assigned.body.id}`, tokens.cpa, { priority: 'low', reportTypeId: type.body.id })).status).toBe(200);
  });

  it('Client users have no task API (403)', async () => {
    for (const [method, path] of [['GET', '/tasks'], ['POST', '/tasks'], ['GET', '/tasks/stats'], ['GET', `/tasks/${both.id}/client-statuses`], ['PATCH', `/tasks/${both.id}/status`]] as const) {
      const r = await call(method, `/api/${ACME}${path}`, tokens.client, method === 'GET' ? undefined : { title: 'x', status: 'completed' });
      expect(r).toMatchObject({ status: 403, body: { message: TASK_MESSAGES.clientsDenied } });
    }
  });

  it('another firm never reaches these tasks', async () => {
    expect(await call('GET', `/api/${ACME}/tasks`, tokens.betaAdmin)).toMatchObject({ status: 403, body: { message: 'This account belongs to another firm.' } });
    expect((await call<Task[]>('GET', '/api/tasks', tokens.betaAdmin)).body).toEqual([]);
    expect((await call('PATCH', `/api/${BETA}/tasks/${both.id}`, tokens.betaAdmin, { title: 'stolen' })).status).toBe(404);
    expect(await create('betaAdmin', { title: 'x', clientIds: [ids.beta], assignedToId: ids.cpa }, BETA)).toMatchObject({ status: 400, body: { message: TASK_MESSAGES.assigneeNotStaff } });
  });
});

describe('notifications', () => {
  it('the assignee is notified of a new task, pushed over the socket with the unread count', async () => {
    const s = await cast.socket(tokens.cpa);
    if (!('socket' in s)) throw new Error(s.error);
    // Every push is kept: on the real broker a notice of an earlier test may still arrive first.
    const pushes: Notification[] = [];
    const counts: number[] = [];
    s.socket.on(NOTIFICATION_PUSH, (p: Notification) => pushes.push(p));
    s.socket.on(UNREAD_COUNT_PUSH, (c: UnreadCount) => counts.push(c.count));
    const t = (await create('admin', { title: 'Bank reconciliation', assignedToId: ids.cpa, clientIds: [ids.own] })).body;
    await eventually(async () => expect(pushes.some((p) => p.taskId === t.id)).toBe(true), BUS_WAIT_MS);
    const n = pushes.find((p) => p.taskId === t.id)!;
    expect(n).toMatchObject({ title: 'New task assigned', category: 'task', type: 'info', userId: ids.cpa, taskId: t.id, taskTitle: 'Bank reconciliation', isRead: false, actionUrl: `/tasks?task=${t.id}` });
    expect(n.message).toBe(`admin of ${ACME} assigned you "Bank reconciliation".`);
    // The last count pushed is the unread count the server answers.
    await eventually(async () => {
      const unread = (await call<UnreadCount>('GET', `/api/${ACME}/notifications/unread-count?userId=${ids.cpa}`, tokens.cpa)).body.count;
      expect(counts.at(-1)).toBe(unread);
    }, BUS_WAIT_MS);
    expect(await notificationsOf('cpa')).toContainEqual(n);
  });

  it('the creator is notified when someone else changes the status; nobody is notified of their own doing', async () => {
    const t = (await create('admin', { title: 'Payroll run', assignedToId: ids.cpa, clientIds: [ids.own] })).body;
    await call('PATCH', `/api/${ACME}/tasks/${t.id}/status`, tokens.cpa, { status: 'in_progress' });
    await eventually(async () => expect((await notificationsOf('admin'))[0]).toMatchObject({ title: 'Task status changed', message: `cpa of ${ACME} set "Payroll run" to In Progress.`, taskId: t.id }), BUS_WAIT_MS);
    await call('PATCH', `/api/${ACME}/tasks/${t.id}/status`, tokens.admin, { status: 'completed' });
    const mine = (await create('cpa', { title: 'Self-assigned', assignedToId: ids.cpa, clientIds: [ids.own] })).body;
    await settle();
    // Counted per task: earlier tests' reminders and notices to the admin may still be arriving.
    expect((await notificationsOf('admin')).filter((n) => n.taskId === t.id)).toHaveLength(1);
    expect((await notificationsOf('cpa')).some((n) => n.taskId === mine.id)).toBe(false);
  });

  it('a caller only ever reads, counts, marks or deletes their own, whatever userId says', async () => {
    await eventually(async () => expect((await notificationsOf('cpa')).length).toBeGreaterThan(0), BUS_WAIT_MS);
    const theirs = (await notificationsOf('cpa'))[0]!;
    const viaUserId = await call<Notification[]>('GET', `/api/${ACME}/notifications?userId=${ids.cpa}`, tokens.dta);
    expect(viaUserId.body.some((n) => n.id === theirs.id)).toBe(false);
    expect((await call('PATCH', `/api/${ACME}/notifications/${theirs.id}/read`, tokens.dta)).status).toBe(404);
    expect((await call('DELETE', `/api/${ACME}/notifications/${theirs.id}`, tokens.dta)).status).toBe(404);
    await call('PATCH', `/api/${ACME}/notifications/mark-all-read`, tokens.dta, { userId: ids.cpa });
    expect((await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.cpa)).body.find((n) => n.id === theirs.id)?.isRead).toBe(false);
    expect((await call('GET', `/api/${BETA}/notifications`, tokens.cpa)).status).toBe(403);
  });

  it('marks one read, all read, deletes; the unread count follows', async () => {
    const count = async () => (await call<UnreadCount>('GET', `/api/${ACME}/notifications/unread-count`, tokens.cpa)).body.count;
    const list = await notificationsOf('cpa');
    const start = await count();
    expect(start).toBe(list.filter((n) => !n.isRead).length);
    const first = list.find((n) => !n.isRead)!;
    expect(await call('PATCH', `/api/${ACME}/notifications/${first.id}/read`, tokens.cpa)).toMatchObject({ status: 200, body: { id: first.id, isRead: true } });
    expect(await count()).toBe(start - 1);
    expect((await call('DELETE', `/api/${ACME}/notifications/${first.id}`, tokens.cpa)).status).toBe(200);
    expect((await notificationsOf('cpa')).some((n) => n.id === first.id)).toBe(false);
    await call('PATCH', `/api/${ACME}/notifications/mark-all-read`, tokens.cpa, { userId: ids.cpa });
    expect(await count()).toBe(0);
    const unreadOnly = await call<Notification[]>('GET', `/api/${ACME}/notifications?isRead=false`, tokens.cpa);
    expect(unreadOnly.body).toEqual([]);
  });
});

describe('reminders (durable scheduler) and email', () => {
  it('reminds the assignee before the due date and once when overdue, by notification and email', async () => {
    const dueSoon = (await create('admin', { title: 'Due today', assignedToId: ids.cpa, dueDate: day(0) })).body;
    const late = (await create('admin', { title: 'Already late', assignedToId: ids.cpa, dueDate: day(-1) })).body;
    await eventually(async () => {
      const mine = await notificationsOf('cpa');
      expect(mine.filter((n) => n.taskId === dueSoon.id && n.category === 'reminder')).toHaveLength(1);
      expect(mine.filter((n) => n.taskId === late.id && n.category === 'deadline')).toHaveLength(1);
    }, BUS_WAIT_MS, 200);
    await eventually(() => {
      expect(emails.filter((e) => e.body.includes('Task due soon: Due today'))).toHaveLength(1);
      expect(emails.filter((e) => e.body.includes('Task overdue: Already late'))).toHaveLength(1);
    }, BUS_WAIT_MS, 200);
    expect(emails.every((e) => e.to === `cpa.${suffix}@example.com`)).toBe(true);
    // Several scheduler passes later, still once each.
    await settle(1500);
    const mine = await notificationsOf('cpa');
    expect(mine.filter((n) => n.taskId === late.id && n.category === 'deadline')).toHaveLength(1);
    expect(mine.filter((n) => n.taskId === late.id && n.category === 'reminder')).toHaveLength(1);
    // They name the due date itself, the same for everyone wherever they read it.
    expect(mine.find((n) => n.taskId === late.id && n.category === 'deadline')?.message).toBe(`"Already late" was due ${day(-1)} and is not completed.`);
    expect(mine.find((n) => n.taskId === dueSoon.id && n.category === 'reminder')?.message).toBe(`"Due today" is due ${day(0)}.`);
  });

  it('a completed task is not reminded; a user without an email address gets notifications but no email', async () => {
    const sent = emails.length;
    const done = (await create('admin', { title: 'Done before due', assignedToId: ids.dta, dueDate: day(-1), status: 'completed' })).body;
    const dtaLate = (await create('admin', { title: 'DTA late', assignedToId: ids.dta, dueDate: day(-1) })).body;
    await eventually(async () => expect((await notificationsOf('dta')).some((n) => n.taskId === dtaLate.id && n.category === 'deadline')).toBe(true), BUS_WAIT_MS, 200);
    await settle(1000);
    expect((await notificationsOf('dta')).some((n) => n.taskId === done.id && n.category !== 'task')).toBe(false);
    expect(emails.length).toBe(sent);
  });
});

describe('due dates are calendar dates in the firm\'s time zone', () => {
  it('answers the date it was given, and reads an instant as its date in the firm\'s zone', async () => {
    expect((await create('admin', { title: 'Plain date', dueDate: '2026-12-15' })).body.dueDate).toBe('2026-12-15');
    // New York's local midnight of 15 Dec (what the old form sent): in Kiritimati (UTC+14) that is still the 15th…
    expect((await create('betaAdmin', { title: 'NY midnight', dueDate: '2026-12-15T05:00:00.000Z' }, BETA)).body.dueDate).toBe('2026-12-15');
    // …and in Pago Pago (UTC-11) the evening of the 14th.
    expect((await create('gammaAdmin', { title: 'NY midnight', dueDate: '2026-12-15T05:00:00.000Z' }, GAMMA)).body.dueDate).toBe('2026-12-14');
    const moved = await call<Task>('PATCH', `/api/${ACME}/tasks/${(await create('admin', { title: 'Moved', dueDate: '2026-12-15' })).body.id}`, tokens.admin, { dueDate: '2026-12-16', recurringEndDate: null });
    expect(moved.body.dueDate).toBe('2026-12-16');
  });

  it('tells the assignee the date itself', async () => {
    const r = await create('admin', { title: 'Dated notice', assignedToId: ids.cpa, dueDate: '2026-12-15' });
    await eventually(async () => {
      expect((await notificationsOf('cpa')).find((n) => n.taskId === r.body.id && n.category === 'task')?.message).toBe(`admin of ${ACME} assigned you "Dated notice" (due 2026-12-15).`);
    }, BUS_WAIT_MS, 200);
  });

  it('a task is overdue once its date is before today in the firm\'s zone', async () => {
    // The same date: before today in Kiritimati (UTC+14), today or later in Pago Pago (UTC-11).
    const date = todayIn('Pacific/Pago_Pago');
    const beta = (await create('betaAdmin', { title: 'Date-line task', dueDate: date }, BETA)).body;
    const gamma = (await create('gammaAdmin', { title: 'Date-line task', dueDate: date }, GAMMA)).body;
    const overdue = async (tenant: string, who: string) => (await call<Task[]>('GET', `/api/${tenant}/tasks/overdue`, tokens[who])).body.map((t) => t.id);
    expect(await overdue(BETA, 'betaAdmin')).toContain(beta.id);
    expect(await overdue(GAMMA, 'gammaAdmin')).not.toContain(gamma.id);
    expect((await call<TaskStats>('GET', `/api/${GAMMA}/tasks/stats`, tokens.gammaAdmin)).body.overdue).toBe(0);
    expect((await call<TaskStats>('GET', `/api/${BETA}/tasks/stats`, tokens.betaAdmin)).body.overdue).toBeGreaterThanOrEqual(1);
    expect((await call<Task[]>('GET', `/api/${GAMMA}/tasks/upcoming?days=1`, tokens.gammaAdmin)).body.map((t) => t.id)).toContain(gamma.id);
  });
});

describe('recurrence', () => {
  const occurrences = async (title: string) => (await tasksOf('admin')).filter((t) => t.title === title).sort((a, b) => a.dueDate!.localeCompare(b.dueDate!));
  const complete = (id: number) => call<Task>('PATCH', `/api/${ACME}/tasks/${id}/status`, tokens.admin, { status: 'completed', completedAt: new Date().toISOString() });

  it('completing an occurrence creates the next one with fresh client statuses: 31 Jan → 28 Feb → 31 Mar, until the end date', async () => {
    const first = (await create('admin', {
      title: 'Monthly close', clientIds: [ids.own, ids.other], assignedToId: ids.cpa, dueDate: '2031-01-31',
      isRecurring: true, recurringPattern: 'monthly', recurringEndDate: '2031-03-31',
    })).body;
    await call('PATCH', `/api/${ACME}/tasks/${first.id}/client-status/${ids.own}`, tokens.admin, { status: 'completed', comments: 'done' });
    await complete(first.id);
    let series = await occurrences('Monthly close');
    expect(series.map((t) => [t.dueDate, t.status])).toEqual([['2031-01-31', 'completed'], ['2031-02-28', 'pending']]);
    const second = series[1]!;
    expect(second).toMatchObject({ isRecurring: true, recurringPattern: 'monthly', assignedToId: ids.cpa, clientIds: [ids.own, ids.other], completedAt: null });
    const fresh = await call<TaskClientStatus[]>('GET', `/api/${ACME}/tasks/${second.id}/client-statuses`, tokens.admin);
    expect(fresh.body.map((s) => [s.status, s.comments])).toEqual([['pending', null], ['pending', null]]);
    // Cancelling counts as closing it.
    expect((await call('PATCH', `/api/${ACME}/tasks/${second.id}/status`, tokens.admin, { status: 'cancelled' })).status).toBe(200);
    series = await occurrences('Monthly close');
    expect(series.map((t) => t.dueDate)).toEqual(['2031-01-31', '2031-02-28', '2031-03-31']);
    // 30 Apr is past the end date: the series ends.
    await complete(series[2]!.id);
    expect(await occurrences('Monthly close')).toHaveLength(3);
  });

  it('reopening and completing again, or two completions racing, make the next occurrence once', async () => {
    const first = (await create('admin', { title: 'Leap filing', dueDate: '2032-02-29', isRecurring: true, recurringPattern: 'yearly' })).body;
    await Promise.all([complete(first.id), complete(first.id), complete(first.id)]);
    await call('PATCH', `/api/${ACME}/tasks/${first.id}/status`, tokens.admin, { status: 'pending', completedAt: null });
    await complete(first.id);
    const series = await occurrences('Leap filing');
    expect(series.map((t) => t.dueDate)).toEqual(['2032-02-29', '2033-02-28']);
    await complete(series[1]!.id);
    expect((await occurrences('Leap filing')).map((t) => t.dueDate)).toEqual(['2032-02-29', '2033-02-28', '2034-02-28']);
  });

  it('moving a due date re-anchors the series', async () => {
    const first = (await create('admin', { title: 'Weekly check', dueDate: '2031-05-05', isRecurring: true, recurringPattern: 'weekly' })).body;
    await call('PATCH', `/api/${ACME}/tasks/${first.id}`, tokens.admin, { dueDate: '2031-05-07' });
    await complete(first.id);
    expect((await occurrences('Weekly check')).map((t) => t.dueDate)).toEqual(['2031-05-07', '2031-05-14']);
  });
});

describe('realtime endpoint through the gateway', () => {
  it('refuses no token, a bad token, another firm\'s, and a deactivated firm\'s', async () => {
    expect(await cast.socket(undefined)).toEqual({ error: 'Authentication required. Please log in again.' });
    expect(await cast.socket('a.b.c')).toMatchObject({ error: expect.stringContaining('Please log in again.') });
    expect(await cast.socket(tokens.betaAdmin, ACME)).toEqual({ error: 'This account belongs to another firm.' });
    expect('socket' in (await cast.socket(tokens.gammaAdmin))).toBe(true);
    const r = await call('PUT', `/api/companies/${ids[GAMMA]}`, tokens.platform, { name: `${GAMMA} Tax`, shortName: GAMMA, isActive: false });
    expect(r.status).toBe(200);
    await eventually(async () => expect(await cast.socket(tokens.gammaAdmin)).toEqual({ error: 'Tenant not found' }), BUS_WAIT_MS, 300);
  });
});
