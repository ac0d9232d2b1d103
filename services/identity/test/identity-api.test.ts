import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiClient, startTestPortal, TEST_ADMIN, type ApiReply } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import * as OTPAuth from 'otpauth';
import type { MfaRequiredResponse, MfaStatus } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import type { Company, TenantMigrationsOverview } from '@ledgerline/contracts/identity.contracts.ts';
import { SERVICE_MODULES } from '@ledgerline/server/targets.ts';

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const suffix = Math.random().toString(36).slice(2, 7);
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const u = (name: string) => `${name}_${suffix}`;

async function login(tenant: string, username: string, password = 'password1'): Promise<string> {
  const r = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, null, { username, password });
  expect(r.status).toBe(200);
  return r.body.token;
}

beforeAll(async () => {
  portal = await startTestPortal({ LOGIN_MAX_FAILURES_PER_USER: '3', GATEWAY_TENANT_POLL_MS: '100', PORTAL_DEFAULT_TIME_ZONE: 'America/New_York' });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) {
    const r = await call<{ id: number }>('POST', '/api/companies', tokens.platform, { name: `${shortName} Tax`, shortName });
    expect(r.status).toBe(201);
    ids[shortName] = r.body.id;
  }
  const people: [string, string, number, number[] | null][] = [
    [ACME, 'admin', 1, null], [ACME, 'dta', 2, null], [ACME, 'cpa', 3, [7, 9]], [ACME, 'client', 4, [9]], [BETA, 'admin', 1, null],
  ];
  for (const [tenant, who, roleId, clientIds] of people) {
    const r = await call<{ id: number }>('POST', `/api/${tenant}/users`, tokens.platform, {
      username: u(`${tenant}_${who}`), password: 'password1', fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds: who === 'cpa' ? [3] : [],
    });
    expect(r.status).toBe(201);
    ids[`${tenant}_${who}`] = r.body.id;
    tokens[`${tenant}_${who}`] = await login(tenant, u(`${tenant}_${who}`));
  }
}, 120_000);
afterAll(async () => { await portal.stop(); });

const ACTORS = ['platform', 'admin', 'dta', 'cpa', 'client', 'otherTenantAdmin'] as const;
type Actor = (typeof ACTORS)[number];
const tokenOf = (a: Actor) => (a === 'platform' ? tokens.platform! : a === 'otherTenantAdmin' ? tokens[`${BETA}_admin`]! : tokens[`${ACME}_${a}`]!);

describe('authorization matrix (role × endpoint × own/other tenant)', () => {
  const cases: { name: string; allowed: Actor[]; run: (token: string, actor: Actor) => Promise<ApiReply> }[] = [
    // Client users get the people picker (the staff serving their client), not a refusal.
    { name: 'GET users', allowed: ['platform', 'admin', 'dta', 'cpa', 'client'], run: (t) => call('GET', `/api/${ACME}/users`, t) },
    { name: 'GET users/{id}', allowed: ['platform', 'admin', 'dta', 'cpa'], run: (t) => call('GET', `/api/${ACME}/users/${ids[`${ACME}_dta`]}`, t) },
    { name: 'GET users/{id}/client-access of another user', allowed: ['platform', 'admin', 'dta'], run: (t) => call('GET', `/api/${ACME}/users/${ids[`${ACME}_admin`]}/client-access`, t) },
    { name: 'GET users/{id}/report-access of another user', allowed: ['platform', 'admin', 'dta'], run: (t) => call('GET', `/api/${ACME}/users/${ids[`${ACME}_admin`]}/report-access`, t) },
    { name: 'POST users', allowed: ['platform', 'admin'], run: (t, a) => call('POST', `/api/${ACME}/users`, t, { username: u(`new_${a}`), password: 'password1', fullName: 'New', roleId: 3 }) },
    { name: 'PUT users/{id}', allowed: ['platform', 'admin'], run: (t) => call('PUT', `/api/${ACME}/users/${ids[`${ACME}_dta`]}`, t, { username: u(`${ACME}_dta`), fullName: 'dta renamed', roleId: 2, password: '' }) },
    {
      name: 'DELETE users/{id}', allowed: ['platform', 'admin'], run: async (t, a) => {
        const victim = await call<{ id: number }>('POST', `/api/${ACME}/users`, tokens.platform, { username: u(`victim_${a}`), password: 'password1', fullName: 'Victim', roleId: 3 });
        return call('DELETE', `/api/${ACME}/users/${victim.body.id}`, t);
      },
    },
    { name: 'PUT firm-settings', allowed: ['platform', 'admin'], run: (t) => call('PUT', `/api/${ACME}/firm-settings`, t, { timeZone: 'America/New_York' }) },
    { name: 'GET roles', allowed: ['platform', 'admin', 'dta', 'cpa', 'client'], run: (t) => call('GET', `/api/${ACME}/roles`, t) },
    { name: 'POST roles', allowed: ['platform', 'admin'], run: (t, a) => call('POST', `/api/${ACME}/roles`, t, { name: `Reviewer ${a}` }) },
    {
      name: 'PUT roles/{id}', allowed: ['platform', 'admin'], run: async (t, a) => {
        const role = await call<{ id: number }>('POST', `/api/${ACME}/roles`, tokens.platform, { name: `Temp ${a}` });
        return call('PUT', `/api/${ACME}/roles/${role.body.id}`, t, { name: `Temp ${a} renamed` });
      },
    },
    {
      name: 'DELETE roles/{id}', allowed: ['platform', 'admin'], run: async (t, a) => {
        const role = await call<{ id: number }>('POST', `/api/${ACME}/roles`, tokens.platform, { name: `Doomed ${a}` });
        return call('DELETE', `/api/${ACME}/roles/${role.body.id}`, t);
      },
    },
    { name: 'GET companies', allowed: ['platform', 'admin', 'dta', 'otherTenantAdmin'], run: (t) => call('GET', '/api/companies', t) },
    { name: 'POST companies', allowed: ['platform'], run: (t, a) => call('POST', '/api/companies', t, { name: 'X', shortName: `x${a.toLowerCase()}${suffix}` }) },
    { name: 'PUT companies/{id}', allowed: ['platform'], run: (t) => call('PUT', `/api/companies/${ids[ACME]}`, t, { name: `${ACME} Tax`, shortName: ACME }) },
    { name: 'POST companies/{id}/schema/refresh', allowed: ['platform'], run: (t) => call('POST', `/api/companies/${ids[ACME]}/schema/refresh`, t) },
  ];

  for (const c of cases) {
    it.each(ACTORS.map((a) => [a]))(`${c.name} as %s`, async (actor) => {
      const r = await c.run(tokenOf(actor as Actor), actor as Actor);
      if (c.allowed.includes(actor as Actor)) {
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(300);
      } else {
        expect(r.status).toBe(403);
        expect(typeof (r.body as { message?: unknown }).message).toBe('string');
      }
    });
  }

  it('lets a user read their own access lists', async () => {
    expect((await call('GET', `/api/${ACME}/users/${ids[`${ACME}_cpa`]}/client-access`, tokens[`${ACME}_cpa`])).body).toEqual([7, 9]);
    expect((await call('GET', `/api/${ACME}/users/${ids[`${ACME}_cpa`]}/report-access`, tokens[`${ACME}_cpa`])).body).toEqual([3]);
    expect((await call('GET', `/api/${ACME}/users/${ids[`${ACME}_client`]}/client-access`, tokens[`${ACME}_client`])).body).toEqual([9]);
  });

  it('shows a firm Admin only its own company, and platform admins every company', async () => {
    const own = await call<{ shortName: string }[]>('GET', '/api/companies', tokens[`${ACME}_admin`]);
    expect(own.body.map((c) => c.shortName)).toEqual([ACME]);
    const all = await call<{ shortName: string }[]>('GET', '/api/companies', tokens.platform);
    expect(all.body.map((c) => c.shortName)).toEqual(expect.arrayContaining([ACME, BETA]));
  });

  it('never shows one firm another firm\'s users, whatever the path', async () => {
    const viaToken = await call<{ username: string }[]>('GET', '/api/users', tokens[`${ACME}_admin`]);
    expect(viaToken.body.map((x) => x.username)).not.toContain(u(`${BETA}_admin`));
    expect((await call('GET', `/api/${BETA}/users`, tokens[`${ACME}_admin`])).status).toBe(403);
    expect((await call('GET', `/api/${BETA}/users/${ids[`${BETA}_admin`]}`, tokens[`${ACME}_admin`])).status).toBe(403);
  });
});

describe('users', () => {
  it('shows the people picker of whoever may not administer users id, name, username and role only: no one\'s access lists', async () => {
    for (const who of ['dta', 'cpa', 'client']) {
      const picker = await call<Record<string, unknown>[]>('GET', `/api/${ACME}/users`, tokens[`${ACME}_${who}`]);
      expect(picker.status).toBe(200);
      expect(picker.body.length).toBeGreaterThan(1);
      for (const entry of picker.body) expect(Object.keys(entry).sort()).toEqual(['fullName', 'id', 'role', 'username']);
    }
    const cpaSeenByClient = (await call<Record<string, unknown>[]>('GET', `/api/${ACME}/users`, tokens[`${ACME}_client`])).body.find((x) => x.id === ids[`${ACME}_cpa`]);
    expect(cpaSeenByClient).toEqual({ id: ids[`${ACME}_cpa`], username: u(`${ACME}_cpa`), fullName: `cpa of ${ACME}`, role: 'CPA' });
    const full = await call<Record<string, unknown>[]>('GET', `/api/${ACME}/users`, tokens[`${ACME}_admin`]);
    expect(full.body.find((x) => x.id === ids[`${ACME}_cpa`])).toMatchObject({ clientIds: [7, 9], reportTypeIds: [3] });
  });

  it('returns roleName and client counts data, and keeps the password when blank on update', async () => {
    const list = await call<{ username: string; roleName: string; clientIds: number[] | null }[]>('GET', `/api/${ACME}/users`, tokens[`${ACME}_admin`]);
    const cpa = list.body.find((x) => x.username === u(`${ACME}_cpa`))!;
    expect(cpa).toMatchObject({ roleName: 'CPA', clientIds: [7, 9] });
    const r = await call('PUT', `/api/${ACME}/users/${ids[`${ACME}_cpa`]}`, tokens[`${ACME}_admin`], { username: u(`${ACME}_cpa`), fullName: 'CPA Renamed', roleId: 3, password: '', clientIds: [], reportTypeIds: null });
    expect(r.body).toMatchObject({ fullName: 'CPA Renamed', clientIds: null, reportTypeIds: null });
    await login(ACME, u(`${ACME}_cpa`));
  });

  it.each([
    [{ username: 'ab', password: 'password1', fullName: 'A', roleId: 3 }, 'Username must be at least 3 characters'],
    [{ username: 'abcd', password: 'short', fullName: 'A', roleId: 3 }, 'Password must be at least 6 characters'],
    [{ username: 'abcd', password: 'password1', fullName: '  ', roleId: 3 }, 'Full name is required'],
    [{ username: 'abcd', password: 'password1', fullName: 'A', roleId: 0 }, 'Please select a role'],
    [{ username: 'abcd', password: 'password1', fullName: 'A', roleId: 999 }, 'Please select a role'],
    [{ username: 'abcd', password: 'password1', fullName: 'A' }, 'Please select a role'],
  ])('rejects %j with "%s"', async (body, message) => {
    const r = await call('POST', `/api/${ACME}/users`, tokens[`${ACME}_admin`], body);
    expect(r).toMatchObject({ status: 400, body: { message } });
  });

  it('keeps usernames unique across firms', async () => {
    const r = await call('POST', `/api/${ACME}/users`, tokens[`${ACME}_admin`], { username: u(`${BETA}_admin`), password: 'password1', fullName: 'Dup', roleId: 3 });
    expect(r).toEqual({ status: 409, body: { message: 'Username already exists' } });
    expect((await call('POST', `/api/${ACME}/users`, tokens[`${ACME}_admin`], { username: TEST_ADMIN.username, password: 'password1', fullName: 'Dup', roleId: 3 })).status).toBe(409);
  });

  it('does not let an Admin delete their own account', async () => {
    expect(await call('DELETE', `/api/${ACME}/users/${ids[`${ACME}_admin`]}`, tokens[`${ACME}_admin`])).toEqual({ status: 409, body: { message: 'You cannot delete your own account.' } });
  });

  it('answers 404 for a missing user', async () => {
    expect(await call('GET', `/api/${ACME}/users/99999`, tokens[`${ACME}_admin`])).toEqual({ status: 404, body: { message: 'User not found' } });
    expect((await call('GET', `/api/${ACME}/users/abc`, tokens[`${ACME}_admin`])).status).toBe(400);
  });
});

describe('roles', () => {
  it('has the four default roles in every new firm', async () => {
    const r = await call<{ name: string }[]>('GET', `/api/${BETA}/roles`, tokens[`${BETA}_admin`]);
    expect(r.body.map((x) => x.name)).toEqual(['Admin', 'DTA', 'CPA', 'Client']);
  });

  it('validates, keeps names unique and refuses to delete a role in use', async () => {
    expect(await call('POST', `/api/${ACME}/roles`, tokens[`${ACME}_admin`], { name: ' ' })).toEqual({ status: 400, body: expect.objectContaining({ message: 'Role name is required' }) });
    expect(await call('POST', `/api/${ACME}/roles`, tokens[`${ACME}_admin`], { name: 'CPA' })).toEqual({ status: 409, body: { message: 'A role with this name already exists' } });
    expect(await call('DELETE', `/api/${ACME}/roles/3`, tokens[`${ACME}_admin`])).toEqual({ status: 409, body: { message: expect.stringMatching(/^The role "CPA" is assigned to \d+ user\(s\) and cannot be deleted\.$/) } });
    expect(await call('DELETE', `/api/${ACME}/roles/1`, tokens[`${ACME}_admin`])).toEqual({ status: 409, body: { message: 'The Admin role is built in and cannot be renamed or deleted.' } });
  });

  it('refuses a role named like a built-in one in any case (it would take its powers), or like another role in another case', async () => {
    const admin = tokens[`${ACME}_admin`];
    for (const name of ['admin', 'ADMIN', ' Client ', 'client', 'dta', 'Cpa']) {
      const r = await call<{ message: string }>('POST', `/api/${ACME}/roles`, admin, { name });
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^(A role with this name already exists|"\w+" is the name of the built-in \w+ role\. Please choose another name\.)$/);
    }
    expect(await call('POST', `/api/${ACME}/roles`, admin, { name: 'admin' })).toEqual({ status: 409, body: { message: 'A role with this name already exists' } });
    const custom = await call<{ id: number }>('POST', `/api/${ACME}/roles`, admin, { name: 'Reviewer X' });
    expect(await call('POST', `/api/${ACME}/roles`, admin, { name: 'reviewer x' })).toEqual({ status: 409, body: { message: 'A role with this name already exists' } });
    expect(await call('PUT', `/api/${ACME}/roles/${custom.body.id}`, admin, { name: 'client' })).toEqual({ status: 409, body: { message: 'A role with this name already exists' } });
    expect(await call('PUT', `/api/${ACME}/roles/${custom.body.id}`, admin, { name: 'dta' })).toEqual({ status: 409, body: { message: 'A role with this name already exists' } });
    // Another firm renames its DTA role away: the name stays the built-in role's, for no other role to take.
    const betaAdmin = tokens[`${BETA}_admin`];
    expect((await call('PUT', `/api/${BETA}/roles/2`, betaAdmin, { name: 'Data Team' })).status).toBe(200);
    for (const name of ['DTA', 'dta']) {
      expect(await call('POST', `/api/${BETA}/roles`, betaAdmin, { name })).toEqual({ status: 409, body: { message: `"${name}" is the name of the built-in DTA role. Please choose another name.` } });
    }
    expect((await call<{ name: string }>('PUT', `/api/${BETA}/roles/2`, betaAdmin, { name: 'DTA' })).body).toEqual({ id: 2, name: 'DTA', revealTaxIds: false });
    expect((await call<{ name: string }[]>('GET', `/api/${ACME}/roles`, admin)).body.filter((r) => /^(admin|client|dta|cpa)$/i.test(r.name)).map((r) => r.name).sort()).toEqual(['Admin', 'CPA', 'Client', 'DTA']);
  });

  it('moves users with a renamed role: their next token carries the new name', async () => {
    const role = await call<{ id: number }>('POST', `/api/${ACME}/roles`, tokens[`${ACME}_admin`], { name: 'Senior' });
    await call('POST', `/api/${ACME}/users`, tokens[`${ACME}_admin`], { username: u('senior'), password: 'password1', fullName: 'Sen', roleId: role.body.id });
    await call('PUT', `/api/${ACME}/roles/${role.body.id}`, tokens[`${ACME}_admin`], { name: 'Partner' });
    const token = await login(ACME, u('senior'));
    expect((await call('GET', '/api/auth/me', token)).body).toMatchObject({ role: 'Partner', tenant: ACME });
  });
});

describe('tenants', () => {
  it.each([
    [{ name: '', shortName: 'ok1' }, 'Company name is required'],
    [{ name: 'A', shortName: 'Bad Name' }, 'Only lowercase letters and numbers allowed'],
    [{ name: 'A', shortName: 'okname', schemaName: 'Bad-Schema' }, 'Only lowercase letters, numbers, and underscores allowed'],
    [{ name: 'A', shortName: 'files' }, '"files" is reserved by the portal; choose another short name'],
    [{ name: 'A', shortName: 'okname', urlPattern: 'ftp' }, 'URL pattern must be path, subdomain or domain'],
  ])('rejects %j with "%s"', async (body, message) => {
    expect(await call('POST', '/api/companies', tokens.platform, body)).toMatchObject({ status: 400, body: { message } });
  });

  it.each(['admin', 'api', 'login', 'users', 'files', 'socket', 'auth'])('refuses the reserved short name "%s" when creating or renaming a firm', async (reserved) => {
    const message = `"${reserved}" is reserved by the portal; choose another short name`;
    expect(await call('POST', '/api/companies', tokens.platform, { name: 'Reserved', shortName: reserved })).toEqual({ status: 400, body: expect.objectContaining({ message }) });
    const firm = (await call<Company[]>('GET', '/api/companies', tokens.platform)).body.find((c) => c.shortName === ACME)!;
    expect(await call('PUT', `/api/companies/${firm.id}`, tokens.platform, { name: firm.name, shortName: reserved })).toEqual({ status: 400, body: expect.objectContaining({ message }) });
    expect((await call<Company[]>('GET', '/api/companies', tokens.platform)).body.find((c) => c.id === firm.id)!.shortName).toBe(ACME);
  });

  it('refuses a duplicate short name with 409', async () => {
    expect(await call('POST', '/api/companies', tokens.platform, { name: 'Again', shortName: ACME })).toEqual({ status: 409, body: { message: 'A tenant with this short name already exists' } });
  });

  it('keeps the schema name when the short name changes, and reports refresh actions', async () => {
    const created = await call<{ id: number; schemaName: string }>('POST', '/api/companies', tokens.platform, { name: 'Gamma', shortName: `gamma${suffix}`, schemaName: `gamma_${suffix}` });
    expect(created.body.schemaName).toBe(`gamma_${suffix}`);
    const renamed = await call<{ shortName: string; schemaName: string }>('PUT', `/api/companies/${created.body.id}`, tokens.platform, { name: 'Gamma', shortName: `delta${suffix}` });
    expect(renamed.body).toMatchObject({ shortName: `delta${suffix}`, schemaName: `gamma_${suffix}` });
    expect(await call('POST', `/api/companies/${created.body.id}/schema/refresh`, tokens.platform)).toEqual({ status: 200, body: { refreshResult: { actions: [] } } });
  });

  it('answers info for active firms only, and stops logins and tokens of an inactive firm', async () => {
    expect((await call('GET', `/api/${ACME}/info`)).body).toMatchObject({ name: `${ACME} Tax`, shortName: ACME, isActive: true });
    expect(await call('GET', '/api/nosuchfirm/info')).toEqual({ status: 404, body: { message: 'Tenant not found' } });
    const firm = await call<{ id: number }>('POST', '/api/companies', tokens.platform, { name: 'Sleepy', shortName: `sleepy${suffix}` });
    await call('POST', `/api/sleepy${suffix}/users`, tokens.platform, { username: u('sleeper'), password: 'password1', fullName: 'Sleeper', roleId: 1 });
    const token = await login(`sleepy${suffix}`, u('sleeper'));
    await call('PUT', `/api/companies/${firm.body.id}`, tokens.platform, { name: 'Sleepy', shortName: `sleepy${suffix}`, isActive: false });
    expect(await call('GET', `/api/sleepy${suffix}/info`)).toEqual({ status: 404, body: { message: 'Tenant not found' } });
    expect(await call('POST', `/api/sleepy${suffix}/auth/login`, null, { username: u('sleeper'), password: 'password1' })).toEqual({ status: 404, body: { message: 'Tenant not found' } });
    await new Promise((r) => setTimeout(r, 400)); // the gateway's routing snapshot refreshes every 100 ms here
    expect((await call('GET', '/api/users', token)).status).toBe(404);
  });

  it('keeps each firm\'s time zone: the platform default until the platform admin or the firm\'s Admin chooses one', async () => {
    const firm = await call<{ id: number; timeZone: string; timeZoneIsDefault: boolean }>('POST', '/api/companies', tokens.platform, { name: 'Zoned', shortName: `zoned${suffix}` });
    expect(firm.body).toMatchObject({ timeZone: 'America/New_York', timeZoneIsDefault: true });
    const put = (body: Record<string, unknown>) => call<{ timeZone: string }>('PUT', `/api/companies/${firm.body.id}`, tokens.platform, { name: 'Zoned', shortName: `zoned${suffix}`, ...body });
    expect((await put({ timeZone: 'Asia/Kolkata' })).body).toMatchObject({ timeZone: 'Asia/Kolkata', timeZoneIsDefault: false });
    // The spec's tenant form sends no time zone: the firm keeps its own.
    expect((await put({ isActive: true })).body).toMatchObject({ timeZone: 'Asia/Kolkata' });
    expect((await call('GET', `/api/zoned${suffix}/info`)).body).toMatchObject({ shortName: `zoned${suffix}`, timeZone: 'Asia/Kolkata' });
    for (const bad of ['IST', '+05:30', 'Mars/Olympus', 42]) {
      expect(await put({ timeZone: bad })).toMatchObject({ status: 400, body: { message: 'Time zone must be an IANA time zone name such as Asia/Kolkata or America/New_York' } });
    }
    expect((await put({ timeZone: null })).body).toMatchObject({ timeZone: 'America/New_York', timeZoneIsDefault: true });

    // A firm's Admin sets their own firm's zone; it reaches info and nobody else's firm.
    expect((await call('PUT', `/api/${ACME}/firm-settings`, tokens[`${ACME}_admin`], { timeZone: 'Australia/Sydney' })).body).toMatchObject({ shortName: ACME, timeZone: 'Australia/Sydney' });
    expect((await call('GET', `/api/${ACME}/info`)).body).toMatchObject({ timeZone: 'Australia/Sydney' });
    expect((await call('GET', `/api/${BETA}/info`)).body).toMatchObject({ timeZone: 'America/New_York' });
    expect((await call('PUT', `/api/${BETA}/firm-settings`, tokens[`${ACME}_admin`], { timeZone: 'Asia/Tokyo' })).status).toBeGreaterThanOrEqual(401);
    expect((await call('GET', `/api/${BETA}/info`)).body).toMatchObject({ timeZone: 'America/New_York' });
    expect(await call('PUT', `/api/${ACME}/firm-settings`, tokens[`${ACME}_admin`], { timeZone: 'Nowhere' })).toMatchObject({ status: 400 });
    expect(await call('PUT', `/api/${ACME}/firm-settings`, tokens[`${ACME}_admin`], {})).toMatchObject({ status: 400 });
  });

  it('keeps each firm\'s country (ISO 3166-1 alpha-2) and gives its currency in the firm reads, its own firm only to a firm Admin', async () => {
    type Firm = { id: number; country: string | null; currency: string | null; timeZone: string };
    const firm = await call<Firm>('POST', '/api/companies', tokens.platform, { name: 'Hudson & Pine CPAs', shortName: `hudson${suffix}`, country: 'US', timeZone: 'America/New_York' });
    expect(firm).toMatchObject({ status: 201, body: { country: 'US', currency: 'USD', timeZone: 'America/New_York' } });
    const put = (body: Record<string, unknown>) => call<Firm>('PUT', `/api/companies/${firm.body.id}`, tokens.platform, { name: 'Hudson & Pine CPAs', shortName: `hudson${suffix}`, ...body });
    // Lower case and the common 'UK' are read as the ISO code.
    expect((await put({ country: 'gb' })).body).toMatchObject({ country: 'GB', currency: 'GBP' });
    expect((await put({ country: 'UK' })).body).toMatchObject({ country: 'GB', currency: 'GBP' });
    expect((await put({ country: 'IN' })).body).toMatchObject({ country: 'IN', currency: 'INR' });
    // The spec's tenant form sends no country: the firm keeps its own.
    expect((await put({ isActive: true })).body).toMatchObject({ country: 'IN', currency: 'INR' });
    for (const bad of ['FR', 'USA', 1, '']) {
      expect(await put({ country: bad })).toMatchObject({ status: 400, body: { message: 'Country must be one of US, IN, GB, AU, CA' } });
    }
    expect(await call('POST', '/api/companies', tokens.platform, { name: 'Nowhere', shortName: `nowhere${suffix}`, country: 'ZZ' })).toMatchObject({ status: 400 });
    const listed = (await call<Firm[]>('GET', '/api/companies', tokens.platform)).body.find((c) => c.id === firm.body.id);
    expect(listed).toMatchObject({ country: 'IN', currency: 'INR' });
    // The firm's public facts, which its pages read, carry both.
    expect((await call('GET', `/api/hudson${suffix}/info`)).body).toMatchObject({ country: 'IN', currency: 'INR', timeZone: 'America/New_York' });
    expect((await put({ country: null })).body).toMatchObject({ country: null, currency: null });

    // A firm without a country chosen reads null; another firm's Admin neither sees nor changes this one.
    expect((await call('GET', `/api/${BETA}/info`)).body).toMatchObject({ country: null, currency: null });
    const betaList = await call<Firm[]>('GET', '/api/companies', tokens[`${BETA}_admin`]);
    expect(betaList.body.map((c) => c.id)).toEqual([ids[BETA]]);
    expect((await call('PUT', `/api/companies/${firm.body.id}`, tokens[`${BETA}_admin`], { name: 'Taken', shortName: `hudson${suffix}`, country: 'AU' })).status).toBe(403);
    expect((await call('GET', `/api/hudson${suffix}/info`)).body).toMatchObject({ country: null });
  });

  it('removes the company record but preserves its data', async () => {
    const firm = await call<{ id: number }>('POST', '/api/companies', tokens.platform, { name: 'Keep', shortName: `keep${suffix}` });
    await call('POST', `/api/keep${suffix}/users`, tokens.platform, { username: u('keeper'), password: 'password1', fullName: 'Keeper', roleId: 1 });
    expect(await call('DELETE', `/api/companies/${firm.body.id}`, tokens.platform)).toMatchObject({ status: 200, body: { message: 'Tenant Deleted Successfully' } });
    expect((await call('GET', `/api/keep${suffix}/info`)).status).toBe(404);
    // Re-creating a firm on the same schema brings its preserved users back.
    await call('POST', '/api/companies', tokens.platform, { name: 'Keep', shortName: `keep${suffix}` });
    await login(`keep${suffix}`, u('keeper'));
  });
});

describe('logins', () => {
  it('signs a firm user in at /login without naming the firm, and returns their firm', async () => {
    const r = await call<{ token: string; user: Record<string, unknown>; tenant: Record<string, unknown> }>('POST', '/api/auth/login', null, { username: u(`${ACME}_dta`), password: 'password1' });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ username: u(`${ACME}_dta`), role: 'DTA', tenant: ACME, platformAdmin: false });
    expect(r.body.tenant).toMatchObject({ shortName: ACME, isActive: true });
    const admin = await call<{ user: Record<string, unknown> }>('POST', '/api/auth/login', null, TEST_ADMIN);
    expect(admin.body.user).toMatchObject({ platformAdmin: true, tenant: null });
  });

  it('refuses a firm user at another firm\'s login page', async () => {
    expect(await call('POST', `/api/${BETA}/auth/login`, null, { username: u(`${ACME}_dta`), password: 'password1' })).toEqual({ status: 401, body: { message: 'Invalid username or password' } });
  });

  it('answers the spec messages for missing fields and bad credentials', async () => {
    expect(await call('POST', `/api/${ACME}/auth/login`, null, { password: 'x' })).toMatchObject({ status: 400, body: { message: 'Username is required' } });
    expect(await call('POST', '/api/auth/login', null, { username: 'someone', password: 'wrong-one' })).toEqual({ status: 401, body: { message: 'Invalid username or password' } });
    expect(await call('POST', '/api/admin/auth/login', null, { username: u(`${ACME}_admin`), password: 'password1' })).toEqual({ status: 401, body: { message: 'Invalid admin credentials' } });
  });

  it('throttles repeated failures for a username with a clear 429', async () => {
    const username = u(`${ACME}_client`);
    for (let i = 0; i < 3; i++) expect((await call('POST', `/api/${ACME}/auth/login`, null, { username, password: 'nope-nope' })).status).toBe(401);
    const blocked = await call('POST', `/api/${ACME}/auth/login`, null, { username, password: 'password1' });
    expect(blocked).toEqual({ status: 429, body: { message: expect.stringMatching(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/) } });
  });
});

describe('second factors by provider', () => {
  it('a firm user\'s Security is the portal\'s own on the built-in issuer, the realm\'s account console on Keycloak', async () => {
    const token = tokens[`${ACME}_cpa`]!;
    const status = await call<MfaStatus>('GET', `/api/${ACME}/auth/mfa`, token);
    expect(status.status).toBe(200);
    const keycloakUrl = process.env.KEYCLOAK_URL;
    if (!keycloakUrl) {
      expect(status.body).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: 0, required: false, managedByKeycloak: false });
      return;
    }
    expect(status.body).toEqual({
      totp: false, recoveryCodesLeft: 0, passkeys: 0, required: false, managedByKeycloak: true,
      accountConsoleUrl: `${keycloakUrl.replace(/\/+$/, '')}/realms/${process.env.KEYCLOAK_REALM_PREFIX ?? 'portal-'}${ACME}/account`,
    });
    // The link opens the realm's account console (its page; the browser then signs in there).
    const console = await fetch(status.body.accountConsoleUrl!, { redirect: 'manual' });
    expect(console.status).toBe(200);
    expect(await console.text()).toContain('<html');
    // Enrolment in the portal is refused: the realm keeps the factors.
    expect((await call('POST', `/api/${ACME}/auth/passkeys/options`, token)).status).toBe(409);
    expect((await call('POST', `/api/${ACME}/auth/passkey-login/options`, null)).status).toBe(409);
  });

  // The realm's direct-grant flow asks users with an authenticator for its code with the password.
  const keycloakUrl = process.env.KEYCLOAK_URL?.replace(/\/+$/, '');
  if (keycloakUrl) it('on Keycloak, a user with an authenticator in the realm signs in through the product\'s form with password and code', async () => {
    const username = u('otp_user');
    expect((await call('POST', `/api/${ACME}/users`, tokens.platform, { username, password: 'password1', fullName: 'Otto Otp', roleId: 3, clientIds: [], reportTypeIds: [] })).status).toBe(201);
    // The authenticator is set up in the realm (as the account console would), through Keycloak's admin API.
    const realm = `${process.env.KEYCLOAK_REALM_PREFIX ?? 'portal-'}${ACME}`;
    const adminToken = ((await (await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST', body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: process.env.KEYCLOAK_ADMIN_USERNAME ?? 'admin', password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin' }),
    })).json()) as { access_token: string }).access_token;
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const [realmUser] = (await (await fetch(`${keycloakUrl}/admin/realms/${realm}/users?username=${username}&exact=true`, { headers: admin })).json()) as { id: string }[];
    const secret = 'portal-otp-secret-0123';
    const otp = { type: 'otp', userLabel: 'Phone', secretData: JSON.stringify({ value: secret }), credentialData: JSON.stringify({ subType: 'totp', digits: 6, counter: 0, period: 30, algorithm: 'HmacSHA1' }) };
    expect((await fetch(`${keycloakUrl}/admin/realms/${realm}/users/${realmUser!.id}`, { method: 'PUT', headers: admin, body: JSON.stringify({ credentials: [otp] }) })).status).toBe(204);
    // Keycloak keys the code with the secret's own bytes.
    const code = (at = Date.now()) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromLatin1(secret), digits: 6, period: 30 }).generate({ timestamp: at });
    const signIn = (password: string) => call<MfaRequiredResponse>('POST', `/api/${ACME}/auth/login`, null, { username, password });
    const verify = (challenge: string, c: string) => call<{ token: string; user: { id: number } }>('POST', `/api/${ACME}/auth/mfa/verify`, null, { challenge, method: 'totp', code: c });

    // The realm locks a user out for a minute after two refusals within a second (brute-force
    // protection's quick-login check): a person types slower than this test, which waits.
    const humanPause = () => new Promise((resolve) => setTimeout(resolve, 1_100));

    const first = await signIn('password1');
    expect(first.body).toEqual({ mfaRequired: true, challenge: expect.stringMatching(new RegExp(`^${ACME}\\.`)), methods: ['totp'] });
    const signedIn = await verify(first.body.challenge, code());
    expect(signedIn.status).toBe(200);
    expect((await call('GET', `/api/${ACME}/auth/me`, signedIn.body.token)).body).toMatchObject({ username });
    // Another firm's path does not take the challenge (the realm is not asked).
    const other = await signIn('password1');
    expect(await call('POST', `/api/${BETA}/auth/mfa/verify`, null, { challenge: other.body.challenge, method: 'totp', code: code() })).toEqual({ status: 401, body: { message: 'This sign-in has expired. Please sign in again.' } });
    await humanPause();
    const wrongCode = await signIn('password1');
    await humanPause();
    expect(await verify(wrongCode.body.challenge, '000000')).toEqual({ status: 401, body: { message: 'The code is not valid. Please try again.' } });
    // A wrong password looks the same until the realm sees it with the code: then it is refused.
    await humanPause();
    const wrongPassword = await signIn('not-the-password');
    expect(wrongPassword.body.methods).toEqual(['totp']);
    await humanPause();
    expect((await verify(wrongPassword.body.challenge, code(Date.now() + 30_000))).status).toBe(401);
  });
});

describe('administrator overview', () => {
  it('counts firms, users and users active in the last 7 days, for platform administrators only', async () => {
    const r = await call<{ totalCompanies: number; activeCompanies: number; totalUsers: number; activeUsers7d: number; recentTenants: { shortName: string }[] }>('GET', '/api/admin/overview', tokens.platform);
    expect(r.status).toBe(200);
    expect(r.body.totalCompanies).toBeGreaterThanOrEqual(2);
    expect(r.body.activeCompanies).toBeLessThanOrEqual(r.body.totalCompanies);
    expect(r.body.totalUsers).toBeGreaterThanOrEqual(5);
    expect(r.body.activeUsers7d).toBeGreaterThanOrEqual(5); // every seeded user signed in above
    expect(r.body.activeUsers7d).toBeLessThanOrEqual(r.body.totalUsers);
    expect(r.body.recentTenants.length).toBeLessThanOrEqual(5);
    expect((await call('GET', '/api/admin/overview', tokens[`${ACME}_admin`])).status).toBe(403);
  });

  it('lists, service by service, the firms still being migrated since start: none once every service has caught up', async () => {
    const r = await call<TenantMigrationsOverview>('GET', '/api/admin/tenant-migrations', tokens.platform);
    expect(r.status).toBe(200);
    // Every service that migrates firms in the background answers (in the test portal they run in this process), with nothing closed.
    expect(r.body.services.map((s) => s.service).sort()).toEqual(SERVICE_MODULES.map((m) => m.name).filter((n) => n !== 'identity').sort());
    expect(r.body.services.every((s) => s.reachable && s.pending === 0)).toBe(true);
    expect(r.body.pendingFirms).toEqual([]);
    expect((await call('GET', '/api/admin/tenant-migrations', tokens[`${ACME}_admin`])).status).toBe(403);
  });
});
