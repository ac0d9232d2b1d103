import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { unzip } from '@ledgerline/kit/testing/unzip.ts';
import type { Role } from '@ledgerline/contracts/identity.contracts.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * The per-role "reveal tax IDs" permission (issue 40, docs/using/clients.md "Tax IDs"): the
 * Admin role has it by default, an Admin gives it to or takes it from any role, and it
 * decides both the reveal call and whether the firm's readable copy carries whole numbers
 * (federal ID, state ID and typed tax IDs) or their last four.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `rv${suffix}`;
const OTHER = `rw${suffix}`;
const tokens: Record<'admin' | 'dta' | 'cpa' | 'otherAdmin' | 'otherCpa', string> = { admin: '', dta: '', cpa: '', otherAdmin: '', otherCpa: '' };
const ids: Record<'client' | 'otherClient', number> = { client: 0, otherClient: 0 };
const WHOLE = [{ type: 'ein', value: '987654321' }, { type: 'ssn', value: '123456789' }];

const T = (path: string, firm = FIRM) => `/api/${firm}${path}`;
const roleNamed = async (firm: string, token: string, name: string) =>
  (await call<Role[]>('GET', T('/roles', firm), token)).body.find((r) => r.name === name)!;
const setReveal = (firm: string, token: string, role: Role, revealTaxIds: boolean) =>
  call<Role>('PUT', T(`/roles/${role.id}`, firm), token, { name: role.name, revealTaxIds });
const reveal = (token: string, clientId = ids.client, firm = FIRM) => call('GET', T(`/clients/${clientId}/tax-ids`, firm), token);
async function readableClients(token: string): Promise<Record<string, string>[]> {
  const r = await fetch(`${portal.gatewayUrl}${T('/export/readable')}`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  return parse(unzip(Buffer.from(await r.arrayBuffer()))['clients.csv']!, { columns: true, bom: true }) as Record<string, string>[];
}

beforeAll(async () => {
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
  call = apiClient(portal.gatewayUrl);
  for (const shortName of [FIRM, OTHER]) expect((await call('POST', '/api/companies', portal.adminToken, { name: `Firm ${shortName}`, shortName })).status).toBe(201);
  const user = (firm: string, username: string, roleId: number, clientIds: number[] | null) =>
    createSignedInUser(call, portal.adminToken, firm, { username: `${username}_${suffix}`, fullName: username, roleId, clientIds, reportTypeIds: null });
  tokens.admin = (await user(FIRM, 'admin', 1, null)).token;
  tokens.otherAdmin = (await user(OTHER, 'otheradmin', 1, null)).token;
  const client = await call<{ id: number }>('POST', T('/clients'), tokens.admin, { ...testClient('Rivera Holdings'), federalId: '12-3456789', taxIds: [{ type: 'ssn', value: '123-45-6789' }, { type: 'ein', value: '98-7654321' }] });
  expect(client.status).toBe(201);
  ids.client = client.body.id;
  ids.otherClient = (await call<{ id: number }>('POST', T('/clients', OTHER), tokens.otherAdmin, { ...testClient('Other Holdings'), taxIds: [{ type: 'ein', value: '11-2233445' }] })).body.id;
  tokens.dta = (await user(FIRM, 'dta', 2, null)).token;
  tokens.cpa = (await user(FIRM, 'cpa', 3, [ids.client])).token;
  tokens.otherCpa = (await user(OTHER, 'othercpa', 3, [ids.otherClient])).token;
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('the reveal tax IDs permission', () => {
  it('is the Admin role\'s by default and no other\'s', async () => {
    const roles = (await call<Role[]>('GET', T('/roles'), tokens.admin)).body;
    expect(roles.map((r) => [r.name, r.revealTaxIds])).toEqual([['Admin', true], ['DTA', false], ['CPA', false], ['Client', false]]);
    expect((await reveal(tokens.admin)).body).toEqual(WHOLE);
    expect(await reveal(tokens.dta)).toMatchObject({ status: 403, body: { message: 'Access denied. Your role may not reveal whole tax IDs.' } });
    expect((await reveal(tokens.cpa)).status).toBe(403);
  }, 30_000);

  it('given to the CPA role lets its users reveal their own clients\' numbers, in this firm only', async () => {
    const cpa = await roleNamed(FIRM, tokens.admin, 'CPA');
    const changed = await setReveal(FIRM, tokens.admin, cpa, true);
    expect(changed).toMatchObject({ status: 200, body: { id: cpa.id, name: 'CPA', revealTaxIds: true } });
    await eventually(async () => expect((await reveal(tokens.cpa)).body).toEqual(WHOLE), 20_000, 200);
    // The DTA role was not given it.
    expect((await reveal(tokens.dta)).status).toBe(403);
    // The other firm's CPA role (the same id there) is its own: still refused.
    expect((await reveal(tokens.otherCpa, ids.otherClient, OTHER)).status).toBe(403);
    // Another firm's Admin cannot reach this firm's numbers at all.
    expect((await reveal(tokens.otherAdmin, ids.client)).status).toBe(403);
    // Taken back, it is refused again.
    expect((await setReveal(FIRM, tokens.admin, cpa, false)).body.revealTaxIds).toBe(false);
    await eventually(async () => expect((await reveal(tokens.cpa)).status).toBe(403), 20_000, 200);
  }, 60_000);

  it('is changed by Admins only, and only to true or false', async () => {
    const cpa = await roleNamed(FIRM, tokens.admin, 'CPA');
    expect((await setReveal(FIRM, tokens.dta, cpa, true)).status).toBe(403);
    expect((await setReveal(FIRM, tokens.cpa, cpa, true)).status).toBe(403);
    const bad = await call('PUT', T(`/roles/${cpa.id}`), tokens.admin, { name: 'CPA', revealTaxIds: 'yes' });
    expect(bad).toMatchObject({ status: 400, body: { message: 'revealTaxIds must be true or false' } });
    // A rename alone leaves the permission as it was.
    const admin = await roleNamed(FIRM, tokens.admin, 'Admin');
    expect((await call<Role>('PUT', T(`/roles/${admin.id}`), tokens.admin, { name: 'Admin' })).body.revealTaxIds).toBe(true);
    // A new role has it only when asked for.
    const made = await call<Role>('POST', T('/roles'), tokens.admin, { name: `Partner ${suffix}`, revealTaxIds: true });
    expect(made).toMatchObject({ status: 201, body: { revealTaxIds: true } });
    expect((await call<Role>('POST', T('/roles'), tokens.admin, { name: `Junior ${suffix}` })).body.revealTaxIds).toBe(false);
  }, 30_000);
});

describe('tax IDs in the firm\'s readable copy', () => {
  it('are whole for an Admin whose role may reveal them, and the last four once the Admin role may not', async () => {
    const [whole] = await readableClients(tokens.admin);
    expect(whole).toMatchObject({ name: 'Rivera Holdings', 'federal id': '12-3456789', 'tax ids': 'EIN 987654321; SSN 123456789' });

    const admin = await roleNamed(FIRM, tokens.admin, 'Admin');
    expect((await setReveal(FIRM, tokens.admin, admin, false)).status).toBe(200);
    const [masked] = await readableClients(tokens.admin);
    expect(masked).toMatchObject({ name: 'Rivera Holdings', 'federal id': '•••••6789', 'tax ids': 'EIN •••••4321; SSN •••••6789' });
    expect(JSON.stringify(masked)).not.toMatch(/123456789|987654321|3456789/);
    // The reveal call follows the same permission.
    await eventually(async () => expect((await reveal(tokens.admin)).status).toBe(403), 20_000, 200);
    // The other firm's Admin role keeps its own default.
    expect((await reveal(tokens.otherAdmin, ids.otherClient, OTHER)).body).toEqual([{ type: 'ein', value: '112233445' }]);

    expect((await setReveal(FIRM, tokens.admin, admin, true)).status).toBe(200);
    await eventually(async () => expect((await reveal(tokens.admin)).status).toBe(200), 20_000, 200);
  }, 90_000);
});
