import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { apiClient, createSignedInUser, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { CLIENTS_UPSERTED, type Client, type ClientsUpsertedEvent } from '@ledgerline/contracts/directory.contracts.ts';
import type { EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { USERS_UPSERTED } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { IMPORT_TEMPLATE_HEADERS, type ClientImportResult } from '@ledgerline/contracts/client-import.contracts.ts';

/*
 * The client import (issue 40) on the API: dry run first (writes nothing), then rows become
 * clients with Client users and staff assignments; a bad row is skipped whole; a tax ID or
 * name finds the client to update; Admin and DTA only; another firm sees nothing of it.
 */

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `imp${suffix}`;
const OTHER = `impo${suffix}`;
const tokens: Record<string, string> = {};
const userIds: Record<string, number> = {};
const ROLE = { admin: 1, dta: 2, cpa: 3, client: 4 };
const cpaName = `cpa_${suffix}`;

const HEADER = ['Client name', 'Entity type', 'Address', 'Phone', 'Email', 'Federal ID', 'State ID', 'State', 'EIN', 'SSN',
  'Report types', 'Assigned staff', 'Contact 1 first name', 'Contact 1 last name', 'Contact 1 e-mail', 'Spouse first name', 'Spouse last name', 'Spouse e-mail', 'Invite'];
const q = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csv = (rows: string[][]) => [HEADER, ...rows].map((r) => r.map(q).join(',')).join('\r\n');
const row = (name: string, o: Partial<Record<'entity' | 'ein' | 'ssn' | 'email1' | 'email2' | 'staff' | 'reportTypes' | 'phone' | 'state', string>> = {}) => [
  name, o.entity ?? 'C corporation', '1 Main Street, Springfield', o.phone ?? '(555)-123-4567', `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
  '12-3456789', 'IL-445', o.state ?? 'NY', o.ein ?? '', o.ssn ?? '', o.reportTypes ?? '', o.staff ?? '',
  ...(o.email1 ? ['Pat', `${name.split(' ')[0]}`, o.email1] : ['', '', '']), ...(o.email2 ? ['Sam', `${name.split(' ')[0]}`, o.email2] : ['', '', '']), 'yes',
];

async function upload(tenant: string, token: string, body: string, fields: Record<string, string> = {}, accept?: string): Promise<{ status: number; body: ClientImportResult & { message?: string }; text: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([body], { type: 'text/csv' }), 'clients.csv');
  const r = await fetch(`${portal.gatewayUrl}/api/${tenant}/clients/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) }, body: form });
  const text = await r.text();
  return { status: r.status, body: accept ? ({} as ClientImportResult) : JSON.parse(text), text };
}
const clientsNamed = async (tenant: string, token: string, name: string) =>
  (await call<Client[]>('GET', `/api/${tenant}/clients?search=${encodeURIComponent(name)}`, token)).body.filter((c) => c.name === name);
const usersOf = async (tenant: string) => (await call<User[]>('GET', `/api/${tenant}/users`, portal.adminToken)).body;

beforeAll(async () => {
  portal = await startTestPortal();
  call = apiClient(portal.gatewayUrl);
  for (const shortName of [FIRM, OTHER]) expect((await call('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  expect((await call('POST', `/api/${FIRM}/report-types`, portal.adminToken, { name: 'Form 1120' })).status).toBe(201);
  const anchor = await call<Client>('POST', `/api/${FIRM}/clients`, portal.adminToken, {
    name: 'Anchor Client', address: '1 Main Street, Springfield', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'IL-1', email: 'anchor@example.com',
  });
  for (const [who, roleId] of Object.entries(ROLE)) {
    const username = who === 'cpa' ? cpaName : `${who}_${suffix}`;
    const user = await createSignedInUser(call, portal.adminToken, FIRM, {
      username, fullName: `${who} user`, roleId, clientIds: who === 'client' ? [anchor.body.id] : null, reportTypeIds: null,
      ...(who === 'admin' ? { email: `taken_${suffix}@example.com` } : {}),
    });
    tokens[who] = user.token;
    userIds[who] = user.id;
  }
  tokens.otherAdmin = (await createSignedInUser(call, portal.adminToken, OTHER, { username: `oadmin_${suffix}`, fullName: 'Other admin', roleId: ROLE.admin, clientIds: null, reportTypeIds: null })).token;
}, 120_000);

afterAll(async () => {
  await portal?.stop();
});

describe('client import', () => {
  it('matches headers automatically and reports every problem of a row in a dry run that writes nothing', async () => {
    const file = csv([
      row('Dry Alpha', { ein: '10-0000001', email1: `alpha1_${suffix}@example.com` }),
      row('Dry Beta', { ein: '12-34', phone: '555 0147' }),
      row('Dry Gamma', { entity: 'Spaceship', staff: 'nobody_here', email1: `taken_${suffix}@example.com` }),
    ]);
    const r = await upload(FIRM, tokens.admin!, file, { dryRun: 'true' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dryRun: true, rows: 3, created: 1, updated: 0, contactsCreated: 1 });
    expect(r.body.columns.slice(0, 3)).toEqual([{ header: 'Client name', field: 'name' }, { header: 'Entity type', field: 'entityType' }, { header: 'Address', field: 'address' }]);
    expect(r.body.columns.find((c) => c.header === 'Spouse e-mail')?.field).toBe('contact2Email');
    const fields = (n: number) => r.body.errors.filter((e) => e.row === n).map((e) => e.field).sort();
    expect(fields(2)).toEqual([]);
    expect(fields(3)).toEqual(['phone', 'taxId.ein']);
    expect(fields(4)).toEqual(['contact1Email', 'entityType', 'staff']);
    expect(r.body.errors.find((e) => e.row === 3 && e.field === 'taxId.ein')?.message).toMatch(/^EIN must be 9 digits/);
    expect(r.body.errors.find((e) => e.row === 4 && e.field === 'contact1Email')?.message).toBe('Another user of this firm has this email address');
    expect(await clientsNamed(FIRM, tokens.admin!, 'Dry Alpha')).toEqual([]);
    expect((await usersOf(FIRM)).some((u) => u.email === `alpha1_${suffix}@example.com`)).toBe(false);
  });

  it('imports rows with contacts as Client users and staff assignments, skipping a bad row whole', async () => {
    // What every other service hears: the chunk's clients in one event, its contacts in one.
    const announced: EventEnvelope[] = [];
    const listening = await portal.bus!.subscribe(`import-test-${suffix}`, [CLIENTS_UPSERTED, USERS_UPSERTED], async (e) => { if (e.tenant === FIRM) announced.push(e); });
    const file = csv([
      row('Good One', { ein: '20-0000001', email1: `one1_${suffix}@example.com`, email2: `one2_${suffix}@example.com`, staff: cpaName, reportTypes: 'Form 1120' }),
      row('Bad Two', { ein: '20-0000002', email1: `two1_${suffix}@example.com`, reportTypes: 'No Such Report' }),
      row('Good Three', { ssn: '123-45-6789', entity: 'individual', email1: `three1_${suffix}@example.com` }),
    ]);
    const r = await upload(FIRM, tokens.dta!, file);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dryRun: false, rows: 3, created: 2, updated: 0, contactsCreated: 3 });
    expect(r.body.errors).toEqual([{ row: 3, field: 'reportTypes', message: 'No report type is named No Such Report' }]);
    const [one] = await clientsNamed(FIRM, tokens.admin!, 'Good One');
    expect(one).toMatchObject({ entityType: 'c_corp', state: 'US-NY', taxIds: [{ type: 'ein', last4: '0001' }] });
    expect(await clientsNamed(FIRM, tokens.admin!, 'Bad Two')).toEqual([]);
    const users = await usersOf(FIRM);
    const contacts = users.filter((u) => u.email?.startsWith('one') && u.email.endsWith(`_${suffix}@example.com`));
    expect(contacts.map((u) => [u.fullName, u.role, u.clientIds])).toEqual(expect.arrayContaining([
      ['Pat Good', 'Client', [one!.id]], ['Sam Good', 'Client', [one!.id]],
    ]));
    expect(users.some((u) => u.email === `two1_${suffix}@example.com`)).toBe(false);
    const cpa = users.find((u) => u.username === cpaName)!;
    expect(cpa.clientIds).toContain(one!.id);
    expect(cpa.reportTypeIds?.length).toBe(1);
    // The CPA reaches the client once the access event has reached the directory.
    await eventually(async () => expect((await call('GET', `/api/${FIRM}/clients/${one!.id}`, tokens.cpa)).status).toBe(200), 10_000);
    await eventually(async () => expect(announced.map((e) => e.type).sort()).toEqual([CLIENTS_UPSERTED, USERS_UPSERTED]), 10_000);
    await listening.close();
    const clientsEvent = announced.find((e) => e.type === CLIENTS_UPSERTED)!.payload as ClientsUpsertedEvent;
    expect(clientsEvent.clients.map((c) => c.name).sort()).toEqual(['Good One', 'Good Three']);
    const usersEvent = announced.find((e) => e.type === USERS_UPSERTED)!.payload as { users: { id: number; clientIds: number[] }[] };
    expect(usersEvent.users.map((u) => u.id).sort()).toEqual(contacts.map((u) => u.id).concat(users.filter((u) => u.email === `three1_${suffix}@example.com`).map((u) => u.id)).sort());
  });

  it('updates the client a tax ID or the name finds instead of making another', async () => {
    const byTaxId = await upload(FIRM, tokens.admin!, csv([row('Good One Renamed', { ein: '20-0000001', email1: `one1_${suffix}@example.com` })]));
    expect(byTaxId.body).toMatchObject({ created: 0, updated: 1, contactsCreated: 0, errors: [] });
    expect(await clientsNamed(FIRM, tokens.admin!, 'Good One')).toEqual([]);
    const [renamed] = await clientsNamed(FIRM, tokens.admin!, 'Good One Renamed');
    expect(renamed?.taxIds.map((x) => x.last4)).toEqual(['0001']);

    const byName = await upload(FIRM, tokens.admin!, csv([row('good three', { entity: 'trust' })]));
    expect(byName.body).toMatchObject({ created: 0, updated: 1 });
    const [three] = await clientsNamed(FIRM, tokens.admin!, 'good three');
    expect(three).toMatchObject({ entityType: 'trust', taxIds: [{ type: 'ssn', last4: '6789' }] });
  });

  it('reports the same client twice in one file, and a mapping the caller gives wins over the headers', async () => {
    const twice = await upload(FIRM, tokens.admin!, csv([row('Twin Co', { ein: '30-0000001' }), row('Twin Co Again', { ein: '30-0000001' })]), { dryRun: 'true' });
    expect(twice.body.errors).toEqual([{ row: 3, field: 'taxIds', message: 'Row 2 is the same client' }]);
    const mapped = await upload(FIRM, tokens.admin!, csv([row('Mapped Co')]), { dryRun: 'true', mapping: JSON.stringify({ 'Entity type': '', State: '' }) });
    expect(mapped.body.columns.find((c) => c.header === 'Entity type')?.field).toBeNull();
    expect(mapped.body.errors).toEqual([]);
    const broken = await upload(FIRM, tokens.admin!, csv([row('Mapped Co')]), { mapping: '{not json' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('mapping must be JSON');
  });

  it('streams progress and then the result when asked for events', async () => {
    const r = await upload(FIRM, tokens.admin!, csv([row('Streamed Co', { ein: '40-0000001' })]), {}, 'text/event-stream');
    expect(r.status).toBe(200);
    expect(r.text).toContain('event: progress\ndata: {"done":1,"total":1}');
    expect(r.text).toMatch(/event: result\ndata: \{"dryRun":false,"rows":1,"created":1/);
  });

  it('refuses a CPA and a Client user, a file without names, and no file', async () => {
    for (const who of ['cpa', 'client']) {
      const r = await upload(FIRM, tokens[who]!, csv([row('Refused Co')]));
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Access denied. Only Admin and DTA users can import clients.');
    }
    expect((await upload(FIRM, tokens.admin!, 'Address,Phone\r\n1 Main Street,(555)-123-4567')).body.message).toBe('No column holds the client name: map one to Name.');
    const none = await fetch(`${portal.gatewayUrl}/api/${FIRM}/clients/import`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: new FormData() });
    expect(none.status).toBe(400);
    expect(await clientsNamed(FIRM, tokens.admin!, 'Refused Co')).toEqual([]);
  });

  it('the template headers are all matched to their own fields', async () => {
    const r = await upload(FIRM, tokens.admin!, `${IMPORT_TEMPLATE_HEADERS.join(',')}\r\n`, { dryRun: 'true' });
    expect(r.body.columns.every((c) => c.field !== null)).toBe(true);
    expect(new Set(r.body.columns.map((c) => c.field)).size).toBe(IMPORT_TEMPLATE_HEADERS.length);
  });

  it('another firm cannot see the imported clients or import into this firm', async () => {
    expect(await clientsNamed(OTHER, tokens.otherAdmin!, 'Good Three')).toEqual([]);
    const r = await upload(FIRM, tokens.otherAdmin!, csv([row('Intruder Co')]));
    expect(r.status).toBeGreaterThanOrEqual(401);
    expect(r.status).toBeLessThan(500);
    expect(await clientsNamed(FIRM, tokens.admin!, 'Intruder Co')).toEqual([]);
    const own = await upload(OTHER, tokens.otherAdmin!, csv([row('Good Three', { email1: `three1_${suffix}@example.com` })]));
    // A separate firm: the same name and address are new there, nothing of this firm's is touched.
    expect(own.body).toMatchObject({ created: 1, updated: 0, errors: [] });
  });
});
