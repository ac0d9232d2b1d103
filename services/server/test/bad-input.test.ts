import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { DB_INT_MAX } from '@ledgerline/contracts/scalars.ts';
import { apiClient, startTestPortal } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * Input the database cannot hold answers a clear 4xx before any query runs, in every
 * service, never a 500: ids and numbers beyond PostgreSQL's integer, NUL and other
 * control characters, and a malformed tenant segment. (Found by fuzzing the merged
 * OpenAPI and by hand: each of these was a 500.)
 */
let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const FIRM = `bad${randomBytes(3).toString('hex')}`;
const HUGE = 9_007_199_254_740_990;
let userId: number;

beforeAll(async () => {
  portal = await startTestPortal();
  call = apiClient(portal.gatewayUrl);
  expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Bad Input LLP', shortName: FIRM })).status).toBe(201);
  const user = await call<{ id: number }>('POST', `/api/${FIRM}/users`, portal.adminToken, { username: `bad_${FIRM}`, password: 'password1', fullName: 'Bad Input', roleId: 3 });
  userId = user.body.id;
}, 60_000);
afterAll(async () => { await portal.stop(); });

const admin = () => portal.adminToken;
const T = (path: string) => `/api/${FIRM}${path}`;

describe('input the database cannot hold', () => {
  it.each([
    ['POST', '/activity-logs', { action: 'view', fileId: HUGE }, 'fileId is required'],
    ['POST', '/users', { username: 'huge_role', password: 'password1', fullName: 'Huge', roleId: HUGE }, 'Please select a role'],
    ['PUT', '/users/{user}', { username: 'huge_role', password: '', fullName: 'Huge', roleId: HUGE }, 'Please select a role'],
    ['POST', '/users', { username: 'huge_list', password: 'password1', fullName: 'Huge', roleId: 3, clientIds: [DB_INT_MAX + 1] }, 'clientIds must be a list of valid ids'],
    ['GET', `/users?clientId=${HUGE}`, undefined, 'clientId must be a valid id'],
    ['GET', `/activity-logs?userId=${HUGE}`, undefined, 'userId must be a whole number from -2147483647 to 2147483647'],
    ['GET', `/files?clientId=${HUGE}`, undefined, 'clientId must be a valid id'],
  ])('%s %s answers 400 with a message', async (method, path, body, message) => {
    const r = await call(method, T(path.replace('{user}', String(userId))), admin(), body);
    expect(r).toMatchObject({ status: 400, body: { message } });
  });

  it.each([['GET', '/users/'], ['GET', '/clients/'], ['GET', '/files/'], ['DELETE', '/roles/'], ['DELETE', '/report-types/'], ['GET', '/clients/{id}/portal-link']])(
    '%s %s answers 404 for an id beyond the database\'s integer', async (method, path) => {
      for (const id of [DB_INT_MAX + 1, HUGE]) {
        const url = path.includes('{id}') ? path.replace('{id}', String(id)) : `${path}${id}`;
        const r = await call(method, T(url), admin());
        expect({ url, status: r.status }).toEqual({ url, status: 404 });
      }
    });

  it('answers 404 for a firm id beyond the database\'s integer, and 400 for an id that is no number', async () => {
    expect((await call('PUT', `/api/companies/${HUGE}`, admin(), { name: 'X', shortName: 'x' })).status).toBe(404);
    expect(await call('GET', T('/users/abc'), admin())).toEqual({ status: 400, body: { message: 'The id in the path must be a whole number.' } });
  });
});

describe('timestamps', () => {
  // Each of these was a 500: an offset beyond what PostgreSQL takes as a zone (±15:59), or one
  // that moves the instant out of years 1–9999.
  const BEYOND = ['9999-12-31T23:30:00-05:00', '2026-06-01T00:00:00+20:00', '2026-06-01T00:00:00-16:00', '0001-01-01T00:30:00+01:00'];

  it('refuses an instant PostgreSQL cannot store with a 400 naming the field, and stores the farthest ones it can', async () => {
    const client = await call<{ id: number }>('POST', T('/clients'), admin(), { name: 'Timestamp Client', address: '1 Main Street, Springfield', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'IL-445', email: 'ts@example.com' });
    const type = await call<{ id: number }>('POST', T('/report-types'), admin(), { name: 'Timestamp Type' });
    const task = await call<{ id: number }>('POST', T('/tasks'), admin(), { title: 'Timestamps' });
    const schedule = await call<{ id: number }>('POST', T('/compliance-schedules'), admin(), { clientId: client.body.id, reportTypeId: type.body.id, frequency: 'yearly', dueMonths: ['6'] });
    const items = await call<{ items: { id: number }[] }>('POST', T(`/compliance-schedules/${schedule.body.id}/generate/2030`), admin());
    const item = items.body.items[0]!.id;
    for (const value of BEYOND) {
      expect({ value, r: await call('PATCH', T(`/tasks/${task.body.id}/status`), admin(), { status: 'completed', completedAt: value }) })
        .toMatchObject({ value, r: { status: 400, body: { message: 'completedAt must be a date (YYYY-MM-DD) or an ISO timestamp with a time zone' } } });
      expect({ value, r: await call('PUT', T(`/compliance-tracker/${item}`), admin(), { status: 'filed', filedDate: value }) })
        .toMatchObject({ value, r: { status: 400, body: { message: 'filedDate must be a date (YYYY-MM-DD) or an ISO timestamp with a time zone' } } });
    }
    const done = await call<{ completedAt: string }>('PATCH', T(`/tasks/${task.body.id}/status`), admin(), { status: 'completed', completedAt: '9999-12-31T23:30:00+05:00' });
    expect(done).toMatchObject({ status: 200, body: { completedAt: '9999-12-31T18:30:00.000Z' } });
    const filed = await call<{ filedDate: string }>('PUT', T(`/compliance-tracker/${item}`), admin(), { status: 'filed', filedDate: '2026-06-01T00:00:00+15:59' });
    expect(filed.status).toBe(200);
    expect(new Date(filed.body.filedDate).toISOString()).toBe('2026-05-31T08:01:00.000Z');
  });
});

describe('control characters', () => {
  it('refuses NUL in a text field, a search term and the unauthenticated login, naming the field', async () => {
    const settings = await call('PUT', T('/client-field-settings'), admin(), { stateIdExample: 'ST\u0000' });
    expect(settings).toEqual({ status: 400, body: { message: 'stateIdExample must not contain control characters' } });
    expect(await call('GET', T('/files?search=tax%00return'), admin())).toEqual({ status: 400, body: { message: 'search must not contain control characters' } });
    expect(await call('GET', T('/clients?search=%00'), admin())).toEqual({ status: 400, body: { message: 'search must not contain control characters' } });
    expect(await call('POST', T('/auth/login'), null, { username: 'a\u0000b', password: 'x' })).toEqual({ status: 400, body: { message: 'username must not contain control characters' } });
  });
});

describe('the tenant segment', () => {
  it('answers a malformed %-escape or a name no firm can have with a JSON 404', async () => {
    for (const segment of ['%E0%A4%A', '%00', 'UPPER', 'a%2Fb']) {
      const r = await fetch(`${portal.gatewayUrl}/api/${segment}/info`);
      expect({ segment, status: r.status, body: await r.json() }).toEqual({ segment, status: 404, body: { message: 'Tenant not found' } });
    }
  });
});
