import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { apiClient, createSignedInUser, startTestPortal, testClient, type ApiReply } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { SecurityEvent } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { acnCheckDigit, luhnValid, type TaxId } from '@ledgerline/contracts/tax-ids.ts';

/*
 * Typed tax IDs on the API (issue 40): validated with clear 400s, of the client's
 * jurisdiction, one client per number, masked to the last four in lists and details,
 * revealed whole to an Admin only (a security event), found by the last four.
 * Numbers are made up; the check-digit ones computed here.
 */

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `tax${suffix}`;
const OTHER = `taxo${suffix}`;
const tokens: Record<string, string> = {};
const ROLE = { admin: 1, dta: 2, cpa: 3, client: 4 };

const sin = (() => { for (let d = 0; d <= 9; d += 1) if (luhnValid(`13579246${d}`)) return `13579246${d}`; throw new Error('no SIN'); })();
const acn = `11122233${acnCheckDigit('11122233')}`;
/** An ABN made by finding its two leading check digits for made-up digits. */
const abn = (() => {
  for (let lead = 10; lead <= 99; lead += 1) {
    const d = [...`${lead}246813579`].map(Number);
    d[0]! -= 1;
    if ([10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19].reduce((s, w, i) => s + w * d[i]!, 0) % 89 === 0) return `${lead}246813579`;
  }
  throw new Error('no ABN');
})();

beforeAll(async () => {
  portal = await startTestPortal();
  call = apiClient(portal.gatewayUrl);
  for (const shortName of [FIRM, OTHER]) expect((await call('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  for (const [who, roleId] of Object.entries(ROLE)) {
    if (who === 'client') continue;
    tokens[who] = (await createSignedInUser(call, portal.adminToken, FIRM, { username: `${who}_${suffix}`, fullName: `${who} user`, roleId, clientIds: null, reportTypeIds: null })).token;
  }
}, 120_000);

afterAll(async () => {
  await portal?.stop();
});

const create = (body: Record<string, unknown>, tenant = FIRM): Promise<ApiReply<Client & { message?: string }>> =>
  call<Client & { message?: string }>('POST', `/api/${tenant}/clients`, tokens.admin, { ...testClient(`Client ${randomBytes(2).toString('hex')}`), ...body });

describe('typed tax IDs', () => {
  it('stores them compact and answers only the last four in details and lists', async () => {
    const r = await create({ name: 'Masked Corp', taxIds: [{ type: 'ein', value: '98-7654321' }, { type: 'SSN', value: '123 45 6789' }] });
    expect(r.status).toBe(201);
    expect(r.body.taxIds).toEqual([{ type: 'ein', last4: '4321', masked: '•••••4321' }, { type: 'ssn', last4: '6789', masked: '•••••6789' }]);
    const list = await call<Client[]>('GET', `/api/${FIRM}/clients`, tokens.admin);
    const listed = list.body.find((c) => c.id === r.body.id)!;
    expect(listed.taxIds.map((t) => t.last4)).toEqual(['4321', '6789']);
    expect(JSON.stringify(list.body)).not.toContain('987654321');
    expect(JSON.stringify((await call('GET', `/api/${FIRM}/clients/${r.body.id}`, tokens.cpa)).body)).not.toContain('123456789');
  });

  it('refuses a bad format, a bad check digit, a foreign type and an unknown type with a clear 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ taxIds: [{ type: 'ein', value: '12-34567' }] }, /^EIN must be 9 digits/],
      [{ jurisdiction: 'CA', taxIds: [{ type: 'sin', value: `${sin.slice(0, 8)}${(Number(sin[8]) + 1) % 10}` }] }, /^SIN is not valid: its check digit does not match/],
      [{ taxIds: [{ type: 'abn', value: abn }] }, /^ABN is not a tax ID of US; a US client may have ssn, itin, ein/],
      [{ taxIds: [{ type: 'passport', value: 'X1' }] }, /^Tax ID type must be one of/],
      [{ taxIds: [{ type: 'ein', value: '12-3456789' }, { type: 'ein', value: '12-3456780' }] }, /at most one tax ID of each type/],
    ];
    for (const [body, message] of cases) {
      const r = await create(body);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    const au = await create({ jurisdiction: 'AU', phone: '(555)-123-4567', taxIds: [{ type: 'acn', value: acn }] });
    expect(au.status).toBe(201);
  });

  it('gives a number to one client of the firm only (409), while another firm may hold it', async () => {
    expect((await create({ taxIds: [{ type: 'itin', value: '912-70-5555' }] })).status).toBe(201);
    const again = await create({ taxIds: [{ type: 'itin', value: '912705555' }] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Another client of the firm already has this ITIN');
    expect((await call('POST', `/api/${OTHER}/clients`, portal.adminToken, { ...testClient('Other firm'), taxIds: [{ type: 'itin', value: '912-70-5555' }] })).status).toBe(201);
  });

  it('an update without taxIds keeps them; with a list replaces them', async () => {
    const r = await create({ taxIds: [{ type: 'ein', value: '11-2223334' }] });
    const kept = await call<Client>('PUT', `/api/${FIRM}/clients/${r.body.id}`, tokens.admin, testClient('Kept Tax Ids'));
    expect(kept.body.taxIds.map((t) => t.type)).toEqual(['ein']);
    const replaced = await call<Client>('PUT', `/api/${FIRM}/clients/${r.body.id}`, tokens.admin, { ...testClient('Kept Tax Ids'), taxIds: [] });
    expect(replaced.body.taxIds).toEqual([]);
  });

  it('search finds a client by the last four of a tax ID, not by the whole number', async () => {
    const r = await create({ name: 'Searchable Tails', taxIds: [{ type: 'ein', value: '55-5558642' }] });
    const byTail = await call<Client[]>('GET', `/api/${FIRM}/clients?search=8642`, tokens.admin);
    expect(byTail.body.map((c) => c.id)).toEqual([r.body.id]);
    const byWhole = await call<Client[]>('GET', `/api/${FIRM}/clients?search=555558642`, tokens.admin);
    expect(byWhole.body).toEqual([]);
  });

  it('reveals the whole values to an Admin only, and records a security event naming who', async () => {
    const r = await create({ name: 'Revealed Ltd', taxIds: [{ type: 'ein', value: '76-5432109' }] });
    for (const who of ['dta', 'cpa']) expect((await call('GET', `/api/${FIRM}/clients/${r.body.id}/tax-ids`, tokens[who])).status).toBe(who === 'cpa' ? 404 : 403);
    const revealed = await call<TaxId[]>('GET', `/api/${FIRM}/clients/${r.body.id}/tax-ids`, tokens.admin);
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual([{ type: 'ein', value: '765432109' }]);
    await eventually(async () => {
      const events = await call<SecurityEvent[]>('GET', `/api/${FIRM}/security-events?kind=tax-ids-revealed`, tokens.admin);
      expect(events.body.some((e) => e.username === `admin_${suffix}` && e.method?.includes(`client ${r.body.id}`))).toBe(true);
    }, 10_000);
  });

  it('another firm cannot see or reveal them', async () => {
    const r = await create({ name: 'Private Numbers', taxIds: [{ type: 'ein', value: '33-4445556' }] });
    const other = await createSignedInUser(call, portal.adminToken, OTHER, { username: `oadmin_${suffix}`, fullName: 'Other admin', roleId: ROLE.admin, clientIds: null, reportTypeIds: null });
    expect((await call('GET', `/api/${FIRM}/clients/${r.body.id}/tax-ids`, other.token)).status).toBeGreaterThanOrEqual(401);
    expect((await call('GET', `/api/${OTHER}/clients/${r.body.id}/tax-ids`, other.token)).status).toBe(404);
    const search = await call<Client[]>('GET', `/api/${OTHER}/clients?search=5556`, other.token);
    expect(search.body).toEqual([]);
  });
});
