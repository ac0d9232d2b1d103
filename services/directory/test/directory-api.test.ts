import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { deriveKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_USER_PASSWORD, type ApiReply } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import {
  CLIENT_FIELD_MESSAGES, CLIENT_FIELD_SETTING_LABELS, FEDERAL_ID_PRESETS, PHONE_PRESETS, STATE_ID_PRESETS,
  type Client, type ClientFieldSettingsInput, type ClientFieldSettings, type GoogleDriveStatus, type ReportType,
} from '@ledgerline/contracts/directory.contracts.ts';
import { startGoogleStandIn, type GoogleStandIn } from './support/google-stand-in.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';

/** Access changes reach the directory through the bus (RabbitMQ in CI). */
const BUS_WAIT_MS = 10_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let google: GoogleStandIn;
let raw: ReturnType<typeof apiClient>;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`; // Indian client field settings
const BETA = `beta${suffix}`; // no settings: the fallback rules
const u = (name: string) => `${name}_${suffix}`;
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const master = Buffer.from(ENCRYPTION_KEY, 'hex');

/** Every response body and redirect the tests received, scanned for secrets at the end. */
const seen: string[] = [];
async function call<T = Record<string, unknown>>(method: string, path: string, token?: string | null, body?: unknown): Promise<ApiReply<T>> {
  const r = await raw<T>(method, path, token, body);
  seen.push(JSON.stringify(r.body));
  return r;
}
async function follow(url: string): Promise<{ status: number; location: string }> {
  const r = await fetch(url, { redirect: 'manual' });
  const location = r.headers.get('location') ?? '';
  seen.push(location, await r.text());
  return { status: r.status, location };
}

const INDIAN_SETTINGS: ClientFieldSettingsInput = {
  phoneLabel: 'Mobile Number', phoneCountry: 'IN', phonePattern: PHONE_PRESETS.IN.pattern, phoneExample: PHONE_PRESETS.IN.example,
  federalIdLabel: 'PAN', federalIdPattern: FEDERAL_ID_PRESETS.PAN.pattern, federalIdExample: FEDERAL_ID_PRESETS.PAN.example,
  stateIdLabel: 'GSTIN', stateIdPattern: STATE_ID_PRESETS.GST.pattern, stateIdExample: STATE_ID_PRESETS.GST.example,
};
const indianClient = (name: string, extra: Record<string, unknown> = {}) => ({
  name, address: '12 MG Road, Bengaluru', phone: '+919876543210', federalId: 'abcde1234f', stateId: '22abcde1234f1z5',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.in`, employeeCount: 12, startDate: '2024-04-01', ...extra,
});
const usClient = (name: string, extra: Record<string, unknown> = {}) => ({
  name, address: '1 Main Street, Springfield', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'il-445',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`, ...extra,
});

async function createUser(tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null): Promise<void> {
  const user = await createSignedInUser(call, tokens.platform!, tenant, { username: u(`${tenant}_${who}`), fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds });
  ids[`${tenant}_${who}`] = user.id;
  tokens[`${tenant}_${who}`] = user.token;
}

beforeAll(async () => {
  google = await startGoogleStandIn();
  portal = await startTestPortal({ ...google.env, PORTAL_ENCRYPTION_KEY: ENCRYPTION_KEY });
  raw = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) {
    expect((await call('POST', '/api/companies', tokens.platform, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  }
  expect((await call('POST', `/api/${ACME}/client-field-settings`, tokens.platform, INDIAN_SETTINGS)).status).toBe(201);
  for (const name of ['Own Client', 'Second Client', 'Other Client']) {
    const r = await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, indianClient(name));
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
  }
  for (const name of ['Audit', 'Payroll']) {
    const r = await call<ReportType>('POST', `/api/${ACME}/report-types`, tokens.platform, { name });
    ids[name] = r.body.id;
  }
  await createUser(ACME, 'admin', 1, null, null);
  await createUser(ACME, 'dta', 2, null, null);
  await createUser(ACME, 'cpa', 3, [ids['Own Client']!], [ids.Audit!]);
  // A Client user's first id is their client; the second must not widen their reach.
  await createUser(ACME, 'client', 4, [ids['Own Client']!, ids['Second Client']!], null);
  await createUser(BETA, 'admin', 1, null, null);
  // Access reaches the directory as events; wait until its read model has them.
  await eventually(async () => {
    expect((await call<Client[]>('GET', `/api/${ACME}/clients`, tokens[`${ACME}_cpa`])).body.map((c) => c.name)).toEqual(['Own Client']);
    expect((await call<Client[]>('GET', `/api/${ACME}/clients`, tokens[`${ACME}_client`])).body.map((c) => c.name)).toEqual(['Own Client']);
  }, BUS_WAIT_MS);
}, 120_000);

afterAll(async () => {
  await portal?.stop();
  await google?.close();
});

const ACTORS = ['platform', 'admin', 'dta', 'cpa', 'client', 'otherTenantAdmin'] as const;
type Actor = (typeof ACTORS)[number];
const tokenOf = (a: Actor) => (a === 'platform' ? tokens.platform! : a === 'otherTenantAdmin' ? tokens[`${BETA}_admin`]! : tokens[`${ACME}_${a}`]!);
const STAFF_READERS: Actor[] = ['platform', 'admin', 'dta', 'cpa', 'client'];
const ADMINS: Actor[] = ['platform', 'admin'];

describe('authorization matrix (role × endpoint × own/other client × own/other tenant)', () => {
  const own = () => ids['Own Client']!;
  const other = () => ids['Other Client']!;
  const cases: { name: string; allowed: Actor[]; hidden?: Actor[]; run: (token: string, actor: Actor) => Promise<ApiReply> }[] = [
    { name: 'GET clients', allowed: STAFF_READERS, run: (t) => call('GET', `/api/${ACME}/clients`, t) },
    { name: 'GET clients/{own}', allowed: STAFF_READERS, run: (t) => call('GET', `/api/${ACME}/clients/${own()}`, t) },
    { name: 'GET clients/{other}', allowed: ['platform', 'admin', 'dta'], hidden: ['cpa', 'client'], run: (t) => call('GET', `/api/${ACME}/clients/${other()}`, t) },
    { name: 'GET clients/{second of a Client user}', allowed: ['platform', 'admin', 'dta'], hidden: ['cpa', 'client'], run: (t) => call('GET', `/api/${ACME}/clients/${ids['Second Client']}`, t) },
    { name: 'POST clients', allowed: ADMINS, run: (t, a) => call('POST', `/api/${ACME}/clients`, t, indianClient(`New ${a}`)) },
    { name: 'PUT clients/{own}', allowed: ADMINS, run: (t) => call('PUT', `/api/${ACME}/clients/${own()}`, t, indianClient('Own Client')) },
    { name: 'PUT clients/{other}', allowed: ADMINS, run: (t) => call('PUT', `/api/${ACME}/clients/${other()}`, t, indianClient('Other Client')) },
    {
      name: 'DELETE clients/{id}', allowed: ADMINS, run: async (t, a) => {
        const victim = await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, indianClient(`Doomed ${a}`));
        return call('DELETE', `/api/${ACME}/clients/${victim.body.id}`, t);
      },
    },
    { name: 'GET report-types', allowed: STAFF_READERS, run: (t) => call('GET', `/api/${ACME}/report-types`, t) },
    { name: 'POST report-types', allowed: ADMINS, run: (t, a) => call('POST', `/api/${ACME}/report-types`, t, { name: `Type ${a}` }) },
    { name: 'PUT report-types/{id}', allowed: ADMINS, run: (t) => call('PUT', `/api/${ACME}/report-types/${ids.Payroll}`, t, { name: 'Payroll', description: 'Monthly' }) },
    {
      name: 'DELETE report-types/{id}', allowed: ADMINS, run: async (t, a) => {
        const victim = await call<ReportType>('POST', `/api/${ACME}/report-types`, tokens.platform, { name: `Doomed ${a}` });
        return call('DELETE', `/api/${ACME}/report-types/${victim.body.id}`, t);
      },
    },
    { name: 'GET client-field-settings', allowed: STAFF_READERS, run: (t) => call('GET', `/api/${ACME}/client-field-settings`, t) },
    { name: 'PUT client-field-settings', allowed: ADMINS, run: (t) => call('PUT', `/api/${ACME}/client-field-settings`, t, INDIAN_SETTINGS) },
    { name: 'GET clients/{own}/google-drive/status', allowed: ADMINS, run: (t) => call('GET', `/api/${ACME}/clients/${own()}/google-drive/status`, t) },
    { name: 'POST clients/{other}/google-drive/credentials', allowed: ADMINS, run: (t) => call('POST', `/api/${ACME}/clients/${other()}/google-drive/credentials`, t, { clientId: 'matrix-id', clientSecret: 'matrix-secret' }) },
    { name: 'GET clients/{other}/google-drive/auth-url', allowed: ADMINS, run: (t) => call('GET', `/api/${ACME}/clients/${other()}/google-drive/auth-url`, t) },
    { name: 'DELETE clients/{other}/google-drive', allowed: ADMINS, run: (t) => call('DELETE', `/api/${ACME}/clients/${other()}/google-drive`, t) },
    { name: 'GET clients/{own}/portal-link', allowed: ADMINS, run: (t) => call('GET', `/api/${ACME}/clients/${own()}/portal-link`, t) },
  ];

  for (const c of cases) {
    it.each(ACTORS.map((a) => [a]))(`${c.name} as %s`, async (actor) => {
      const r = await c.run(tokenOf(actor as Actor), actor as Actor);
      if (c.allowed.includes(actor as Actor)) {
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(300);
      } else if (c.hidden?.includes(actor as Actor)) {
        expect(r).toEqual({ status: 404, body: { message: 'Client not found' } });
      } else {
        expect(r.status).toBe(403);
        expect(typeof (r.body as { message?: unknown }).message).toBe('string');
      }
    });
  }

  it('lists for each role exactly the clients and report types it may see', async () => {
    const names = async (who: Actor, what: string) => (await call<{ name: string }[]>('GET', `/api/${ACME}/${what}`, tokenOf(who))).body.map((x) => x.name);
    for (const who of ['platform', 'admin', 'dta'] as const) {
      expect(await names(who, 'clients')).toEqual(expect.arrayContaining(['Own Client', 'Second Client', 'Other Client']));
      expect(await names(who, 'report-types')).toEqual(expect.arrayContaining(['Audit', 'Payroll']));
    }
    expect(await names('cpa', 'clients')).toEqual(['Own Client']);
    expect(await names('cpa', 'report-types')).toEqual(['Audit']);
    expect(await names('client', 'clients')).toEqual(['Own Client']);
    expect(await names('client', 'report-types')).toEqual(expect.arrayContaining(['Audit', 'Payroll']));
  });

  it('names the admin-only rule in every denial', async () => {
    expect(await call('POST', `/api/${ACME}/clients`, tokens[`${ACME}_dta`], indianClient('Nope'))).toEqual({ status: 403, body: { message: 'Access denied. Only Admin users can manage clients.' } });
    expect(await call('POST', `/api/${ACME}/report-types`, tokens[`${ACME}_cpa`], { name: 'Nope' })).toEqual({ status: 403, body: { message: 'Access denied. Only Admin users can manage report types.' } });
    expect(await call('GET', `/api/${ACME}/clients/${ids['Own Client']}/google-drive/status`, tokens[`${ACME}_dta`])).toEqual({ status: 403, body: { message: 'Access denied. Only Admin users can set up Google Drive.' } });
    expect(await call('GET', `/api/${ACME}/clients`, tokens[`${BETA}_admin`])).toEqual({ status: 403, body: { message: 'This account belongs to another firm.' } });
  });

  it('never shows one firm another firm\'s clients, whatever the path', async () => {
    const viaToken = await call<Client[]>('GET', '/api/clients', tokens[`${BETA}_admin`]);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.map((c) => c.name)).not.toContain('Own Client');
    expect((await call('GET', `/api/${ACME}/clients/${ids['Own Client']}`, tokens[`${BETA}_admin`])).status).toBe(403);
    expect((await call('GET', `/api/${ACME}/report-types`, tokens[`${BETA}_admin`])).status).toBe(403);
    expect((await call<ClientFieldSettings>('GET', '/api/client-field-settings', tokens[`${BETA}_admin`])).body.id).toBeNull();
    expect((await call('GET', '/api/clients')).status).toBe(401);
  });
});

describe('clients', () => {
  it('creates with the spec defaults, accepts phoneNumber, returns phone and phoneNumber, and upper-cases IDs', async () => {
    const r = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], {
      name: '  Birch & Co ', address: '9 Elm Street', phoneNumber: '(555)-987-6543', federalId: '98-7654321', stateId: 'ny-77', email: 'office@birch.example',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Birch & Co', phone: '(555)-987-6543', phoneNumber: '(555)-987-6543', stateId: 'NY-77',
      employeeCount: 0, startDate: new Date().toISOString().slice(0, 10), uploadDestination: 'server', googleDriveConfigured: false,
    });
    const read = await call<Client>('GET', `/api/${BETA}/clients/${r.body.id}`, tokens[`${BETA}_admin`]);
    expect(read.body).toEqual(r.body);
  });

  it('jurisdiction defaults to the firm\'s country (its phone country, else US) and entity type to none; both kept when an update leaves them out', async () => {
    const us = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Delaware Corp', { entityType: 'c_corp' }));
    expect(us.body).toMatchObject({ jurisdiction: 'US', entityType: 'c_corp' });
    const indian = await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Pune Traders'));
    expect(indian.body).toMatchObject({ jurisdiction: 'IN', entityType: null });
    const uk = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('London Partners', { jurisdiction: 'UK', entityType: 'llp' }));
    expect(uk.body).toMatchObject({ jurisdiction: 'UK', entityType: 'llp' });
    const kept = await call<Client>('PUT', `/api/${BETA}/clients/${uk.body.id}`, tokens[`${BETA}_admin`], usClient('London Partners LLP'));
    expect(kept.body).toMatchObject({ name: 'London Partners LLP', jurisdiction: 'UK', entityType: 'llp' });
    const cleared = await call<Client>('PUT', `/api/${BETA}/clients/${uk.body.id}`, tokens[`${BETA}_admin`], usClient('London Partners LLP', { entityType: '', jurisdiction: 'AU' }));
    expect(cleared.body).toMatchObject({ jurisdiction: 'AU', entityType: null });
    expect((await call<Client>('GET', `/api/${BETA}/clients/${uk.body.id}`, tokens[`${BETA}_admin`])).body).toMatchObject({ jurisdiction: 'AU', entityType: null });
    expect(await call('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Paris SARL', { jurisdiction: 'FR' })))
      .toMatchObject({ status: 400, body: { message: 'Jurisdiction must be one of US, CA, IN, UK, AU' } });
    expect(await call('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Odd Inc', { entityType: 'llc' })))
      .toMatchObject({ status: 400, body: { message: 'Entity type must be one of individual, sole_proprietor, partnership, c_corp, s_corp, company, llp, trust' } });
  });

  it('fiscal year end (the jurisdiction\'s default when not said), State and registrations, in both path forms; clear 400s; not seen by another firm', async () => {
    const indian = await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Delhi Exports', { state: 'in-dl', registrations: ['tds', 'gst_qrmp', 'tds'] }));
    expect(indian.status).toBe(201);
    expect(indian.body).toMatchObject({ jurisdiction: 'IN', fiscalYearEnd: '03-31', state: 'IN-DL', registrations: ['gst_qrmp', 'tds'] });
    // The unprefixed form (the firm from the token) reads the same fields.
    expect((await call<Client>('GET', `/api/clients/${indian.body.id}`, tokens[`${ACME}_admin`])).body).toMatchObject({ fiscalYearEnd: '03-31', state: 'IN-DL' });
    const june = await call<Client>('PUT', `/api/clients/${indian.body.id}`, tokens[`${ACME}_admin`], indianClient('Delhi Exports', { fiscalYearEnd: '06-30' }));
    expect(june.body).toMatchObject({ fiscalYearEnd: '06-30', state: 'IN-DL', registrations: ['gst_qrmp', 'tds'] });
    const moved = await call<Client>('PUT', `/api/${ACME}/clients/${indian.body.id}`, tokens[`${ACME}_admin`], indianClient('Delhi Exports', { fiscalYearEnd: null, state: null, registrations: null }));
    expect(moved.body).toMatchObject({ fiscalYearEnd: '03-31', state: null, registrations: null });
    const us = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Albany Corp', { state: 'US-NY', registrations: [] }));
    expect(us.body).toMatchObject({ fiscalYearEnd: '12-31', state: 'US-NY', registrations: [] });
    const list = await call<Client[]>('GET', `/api/${BETA}/clients`, tokens[`${BETA}_admin`]);
    expect(list.body.find((c) => c.id === us.body.id)).toMatchObject({ fiscalYearEnd: '12-31', state: 'US-NY' });
    // Ids are per firm: the other firm's list has no such client at all.
    expect((await call<Client[]>('GET', `/api/${ACME}/clients`, tokens[`${ACME}_admin`])).body.map((c) => c.name)).not.toContain('Albany Corp');
    const bad = (body: Record<string, unknown>) => call('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Bad Fields', body));
    expect(await bad({ fiscalYearEnd: '2026-06-30' })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.fiscalYearEnd } });
    expect(await bad({ fiscalYearEnd: '04-31' })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.fiscalYearEnd } });
    expect(await bad({ state: 'NY' })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.state } });
    expect(await bad({ jurisdiction: 'CA', state: 'AU-NSW' })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.stateCountry } });
    expect(await bad({ state: 'CA-ON' })).toMatchObject({ status: 400, body: { message: `${CLIENT_FIELD_MESSAGES.stateCountry} (US)` } });
    expect(await bad({ registrations: 'gst' })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.registrations } });
    expect(await bad({ registrations: ['gst', 'payroll'] })).toMatchObject({ status: 400, body: { message: CLIENT_FIELD_MESSAGES.registrations } });
    const canadian = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Toronto Ltd', { jurisdiction: 'CA', state: 'CA-ON', registrations: ['gst_hst'] }));
    expect(canadian.body).toMatchObject({ jurisdiction: 'CA', fiscalYearEnd: '12-31', state: 'CA-ON', registrations: ['gst_hst'] });
  });

  it('updates and deletes, and answers 404 for a missing client', async () => {
    const created = await call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Cedar LLC'));
    const updated = await call<Client>('PUT', `/api/${BETA}/clients/${created.body.id}`, tokens[`${BETA}_admin`], usClient('Cedar Holdings', { employeeCount: 40, startDate: '2023-01-15', uploadDestination: 'google_drive' }));
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Cedar Holdings', employeeCount: 40, startDate: '2023-01-15', uploadDestination: 'google_drive' });
    expect(await call('DELETE', `/api/${BETA}/clients/${created.body.id}`, tokens[`${BETA}_admin`])).toEqual({ status: 200, body: { message: 'Client deleted successfully' } });
    expect(await call('GET', `/api/${BETA}/clients/${created.body.id}`, tokens[`${BETA}_admin`])).toEqual({ status: 404, body: { message: 'Client not found' } });
    expect((await call('PUT', `/api/${BETA}/clients/99999`, tokens[`${BETA}_admin`], usClient('Ghost Inc'))).status).toBe(404);
    expect((await call('DELETE', `/api/${BETA}/clients/99999`, tokens[`${BETA}_admin`])).status).toBe(404);
    expect((await call('GET', `/api/${BETA}/clients/abc`, tokens[`${BETA}_admin`])).status).toBe(400);
  });

  it('searches name, email, phone, federal ID, state ID and address as case-insensitive substrings', async () => {
    const mk = (name: string, extra: Record<string, unknown>) => call<Client>('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient(name, extra));
    await mk('Zephyr Tooling', { email: 'books@zephyr.example', phone: '(312)-555-0199', federalId: '77-1234567', stateId: 'qx-31337', address: '500 Quarry Lane' });
    await mk('Maple 100% Syrup', { email: 'sap@maple.example' });
    const names = async (search: string) => (await call<Client[]>('GET', `/api/${BETA}/clients?search=${encodeURIComponent(search)}`, tokens[`${BETA}_admin`])).body.map((c) => c.name);
    for (const term of ['zephyr', 'ZEPHYR TOOL', 'BOOKS@ZEPH', '555-0199', '77-12345', 'Qx-313', 'quarry la']) {
      expect(await names(term)).toEqual(['Zephyr Tooling']);
    }
    // LIKE wildcards in the search text match themselves only.
    expect(await names('100%')).toEqual(['Maple 100% Syrup']);
    expect(await names('_')).toEqual([]);
    // Terms shorter than a trigram are matched without the index.
    expect(await names('ZE')).toEqual(['Zephyr Tooling']);
    expect(await names('no such thing')).toEqual([]);
    expect((await names('')).length).toBeGreaterThanOrEqual(3);
  });

  describe('fallback rules (no field settings)', () => {
    it.each([
      [{ name: 'A' }, 'Name must be at least 2 characters'],
      [{ address: 'abc' }, 'Address must be at least 5 characters'],
      [{ phone: '555-123-4567' }, 'Phone must be in format: (XXX)-XXX-XXXX'],
      [{ phone: undefined }, 'Phone must be in format: (XXX)-XXX-XXXX'],
      [{ federalId: '123456789' }, 'Federal ID must be in format: XX-XXXXXXX'],
      [{ stateId: '  ' }, 'State ID is required'],
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ employeeCount: -1 }, 'Employee count must be a positive number'],
      [{ employeeCount: 'many' }, 'Employee count must be a positive number'],
      [{ startDate: '' }, 'Start date is required'],
      [{ startDate: '2024-13-45' }, 'Start date must be a valid date (YYYY-MM-DD)'],
      [{ startDate: '2024-02-30' }, 'Start date must be a valid date (YYYY-MM-DD)'],
      [{ startDate: '0000-01-01' }, 'Start date must be a valid date (YYYY-MM-DD)'],
      [{ uploadDestination: 'dropbox' }, 'Upload destination must be server or google_drive'],
    ])('rejects %j with "%s"', async (override, message) => {
      const r = await call('POST', `/api/${BETA}/clients`, tokens[`${BETA}_admin`], usClient('Valid Name', override));
      expect(r).toMatchObject({ status: 400, body: { message } });
    });
  });

  describe('the firm\'s own rules (Indian field settings)', () => {
    it('accepts Indian formats and upper-cases PAN and GSTIN', async () => {
      const r = await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Sharma Traders'));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ phone: '+919876543210', federalId: 'ABCDE1234F', stateId: '22ABCDE1234F1Z5', employeeCount: 12, startDate: '2024-04-01' });
      // A US phone is no longer valid in this firm.
      expect((await call('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Us Phone', { phone: '(555)-123-4567' }))).status).toBe(400);
    });

    it.each([
      [{ phone: '9876543210' }, 'Mobile Number must be a valid Indian mobile number. Examples: +919876543210'],
      [{ federalId: 'ABCD1234F' }, 'PAN must be a valid PAN number (5 letters + 4 numbers + 1 letter). Example: ABCDE1234F'],
      [{ stateId: '22ABCDE1234F1' }, 'GSTIN must be a valid 15-digit GST number. Example: 22ABCDE1234F1Z5'],
      [{ name: 'S' }, 'Name must be at least 2 characters'],
      [{ address: 'MG' }, 'Address must be at least 5 characters'],
      [{ email: 'x@' }, 'Invalid email address'],
      [{ employeeCount: -3 }, 'Employee count must be a positive number'],
      [{ startDate: null }, 'Start date is required'],
    ])('rejects %j with "%s"', async (override, message) => {
      expect(await call('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Valid Name', override))).toMatchObject({ status: 400, body: { message } });
    });

    it('describes a custom pattern by its example', async () => {
      const custom = { ...INDIAN_SETTINGS, stateIdPattern: '^ST-\\d{3}$', stateIdExample: 'ST-123' };
      expect((await call('PUT', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], custom)).status).toBe(200);
      try {
        expect(await call('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Custom Co'))).toMatchObject({ status: 400, body: { message: 'GSTIN must match the format ST-123' } });
        expect((await call('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Custom Co', { stateId: 'st-042' }))).status).toBe(201);
      } finally {
        await call('PUT', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], INDIAN_SETTINGS);
      }
    });
  });
});

describe('client field settings', () => {
  it('answers the spec defaults with id null while none are saved', async () => {
    const r = await call<ClientFieldSettings>('GET', `/api/${BETA}/client-field-settings`, tokens[`${BETA}_admin`]);
    expect(r.body).toMatchObject({
      id: null, phoneLabel: 'Phone Number', phoneCountry: 'US', phonePattern: PHONE_PRESETS.US.pattern,
      federalIdLabel: 'Federal ID', federalIdExample: 'XX-XXXXXXX', stateIdLabel: 'State ID', stateIdExample: 'State ID number',
    });
  });

  it('returns the saved settings with their id and timestamps', async () => {
    const r = await call<ClientFieldSettings>('GET', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_cpa`]);
    expect(r.body).toMatchObject({ ...INDIAN_SETTINGS, id: expect.any(Number), createdAt: expect.any(String), updatedAt: expect.any(String) });
  });

  it.each(Object.entries(CLIENT_FIELD_SETTING_LABELS))('requires %s ("%s is required")', async (key, label) => {
    for (const value of [undefined, '  ']) {
      const r = await call('PUT', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], { ...INDIAN_SETTINGS, [key]: value });
      expect(r).toMatchObject({ status: 400, body: { message: `${label} is required` } });
    }
  });

  it('refuses an unknown country, a broken pattern, a second creation and an update of nothing', async () => {
    expect(await call('PUT', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], { ...INDIAN_SETTINGS, phoneCountry: 'FR' })).toMatchObject({ status: 400, body: { message: 'Phone country must be one of US, CA, IN, UK, AU' } });
    expect(await call('PUT', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], { ...INDIAN_SETTINGS, federalIdPattern: '([A-Z' })).toMatchObject({ status: 400, body: { message: 'Federal ID pattern is not a valid regular expression (lookarounds and backreferences are not supported)' } });
    expect(await call('POST', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`], INDIAN_SETTINGS)).toEqual({ status: 409, body: { message: 'Client field settings already exist. Update them instead.' } });
    expect(await call('PUT', `/api/${BETA}/client-field-settings`, tokens[`${BETA}_admin`], INDIAN_SETTINGS)).toEqual({ status: 404, body: { message: 'Client field settings not found. Save them first.' } });
  });

  it('runs a firm\'s patterns in linear time: a catastrophic pattern cannot stall a save, lookarounds are refused', async () => {
    const admin = tokens[`${ACME}_admin`];
    try {
      // `^(a+)+$` against 99 'a's and a '!' never finishes on a backtracking engine (the
      // suite would time out); RE2 answers in microseconds.
      expect((await call('PUT', `/api/${ACME}/client-field-settings`, admin, { ...INDIAN_SETTINGS, phonePattern: '^(a+)+$', phoneExample: 'aaa' })).status).toBe(200);
      const slow = await call('POST', `/api/${ACME}/clients`, admin, indianClient('Backtracker', { phone: `${'a'.repeat(99)}!` }));
      expect(slow).toMatchObject({ status: 400, body: { message: 'Mobile Number must match the format aaa' } });
      expect((await call('POST', `/api/${ACME}/clients`, admin, indianClient('Linear Traders', { phone: 'aaaa' }))).status).toBe(201);
      for (const pattern of ['^(?=\\d)\\d+$', '^(\\d)\\1$']) {
        expect(await call('PUT', `/api/${ACME}/client-field-settings`, admin, { ...INDIAN_SETTINGS, phonePattern: pattern }))
          .toMatchObject({ status: 400, body: { message: 'Phone pattern is not a valid regular expression (lookarounds and backreferences are not supported)' } });
      }
    } finally {
      await call('PUT', `/api/${ACME}/client-field-settings`, admin, INDIAN_SETTINGS);
    }
  });

  it('updates by id too, and only its own id', async () => {
    const current = await call<ClientFieldSettings>('GET', `/api/${ACME}/client-field-settings`, tokens[`${ACME}_admin`]);
    const r = await call<ClientFieldSettings>('PUT', `/api/${ACME}/client-field-settings/${current.body.id}`, tokens[`${ACME}_admin`], { ...INDIAN_SETTINGS, phoneLabel: 'Mobile Number' });
    expect(r.body).toMatchObject({ id: current.body.id, phoneLabel: 'Mobile Number' });
    expect((await call('PUT', `/api/${ACME}/client-field-settings/${current.body.id! + 1000}`, tokens[`${ACME}_admin`], INDIAN_SETTINGS)).status).toBe(404);
  });
});

describe('report types', () => {
  it('creates trimmed, updates, and deletes with timestamps', async () => {
    const created = await call<ReportType>('POST', `/api/${BETA}/report-types`, tokens[`${BETA}_admin`], { name: '  GST Return ', description: '' });
    expect(created).toMatchObject({ status: 201, body: { name: 'GST Return', description: null, createdAt: expect.any(String), updatedAt: expect.any(String) } });
    const updated = await call<ReportType>('PUT', `/api/${BETA}/report-types/${created.body.id}`, tokens[`${BETA}_admin`], { name: 'GST Return', description: ' Quarterly ' });
    expect(updated.body).toMatchObject({ id: created.body.id, description: 'Quarterly', createdAt: created.body.createdAt });
    expect(await call('DELETE', `/api/${BETA}/report-types/${created.body.id}`, tokens[`${BETA}_admin`])).toEqual({ status: 200, body: { message: 'Report type deleted successfully' } });
    expect(await call('DELETE', `/api/${BETA}/report-types/${created.body.id}`, tokens[`${BETA}_admin`])).toEqual({ status: 404, body: { message: 'Report type not found' } });
  });

  it('refuses to delete a report type that files use, with their count, until they are gone', async () => {
    const admin = tokens[`${BETA}_admin`]!;
    const type = (await call<ReportType>('POST', `/api/${BETA}/report-types`, admin, { name: 'Payroll Register' })).body.id;
    const client = (await call<Client>('POST', `/api/${BETA}/clients`, admin, usClient('Typed Files Inc'))).body.id;
    const upload = async (name: string) => {
      const form = new FormData();
      for (const [field, value] of [['fileType', 'report'], ['clientId', String(client)], ['reportTypeId', String(type)]]) form.append(field!, value!);
      form.append('file', new Blob([new Uint8Array(Buffer.from('payroll figures'))]), name);
      const r = await fetch(`${portal.gatewayUrl}/api/${BETA}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
      expect(r.status).toBe(201);
      return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
    };
    const files = [await upload('march.txt'), await upload('april.txt')];
    // The list says how many files use each type once the files service's events are in.
    const fileCount = async () => (await call<ReportType[]>('GET', `/api/${BETA}/report-types`, admin)).body.find((t) => t.id === type)?.fileCount;
    await eventually(async () => expect(await fileCount()).toBe(2), BUS_WAIT_MS);
    expect(await call('DELETE', `/api/${BETA}/report-types/${type}`, admin)).toEqual({
      status: 409, body: { message: 'This report type is used by 2 files. Delete those files or upload them again under another report type first.' },
    });
    for (const id of files) expect((await call('DELETE', `/api/${BETA}/files/${id}`, admin)).status).toBe(200);
    await eventually(async () => expect(await fileCount()).toBe(0), BUS_WAIT_MS);
    expect(await call('DELETE', `/api/${BETA}/report-types/${type}`, admin)).toEqual({ status: 200, body: { message: 'Report type deleted successfully' } });
  });

  it('requires a name and keeps names unique regardless of case', async () => {
    for (const body of [{}, { name: '   ' }]) {
      expect(await call('POST', `/api/${BETA}/report-types`, tokens[`${BETA}_admin`], body)).toMatchObject({ status: 400, body: { message: 'Report type name is required' } });
    }
    await call('POST', `/api/${BETA}/report-types`, tokens[`${BETA}_admin`], { name: 'Bookkeeping' });
    expect(await call('POST', `/api/${BETA}/report-types`, tokens[`${BETA}_admin`], { name: 'bookkeeping' })).toEqual({ status: 409, body: { message: 'A report type with this name already exists' } });
  });
});

describe('Google Drive', () => {
  let clientId: number;
  const drive = (suffixPath: string) => `/api/${ACME}/clients/${clientId}/google-drive${suffixPath}`;
  const admin = () => tokens[`${ACME}_admin`];
  const status = async () => (await call<GoogleDriveStatus>('GET', drive('/status'), admin())).body;
  /** Opens the consent page at the stand-in, which sends the browser back to our callback through the gateway. */
  const consent = async (authUrl: string) => {
    const atGoogle = await follow(authUrl);
    expect(atGoogle.status).toBe(302);
    const back = new URL(atGoogle.location);
    return `${portal.gatewayUrl}${back.pathname}${back.search}`;
  };

  beforeAll(async () => {
    clientId = (await call<Client>('POST', `/api/${ACME}/clients`, admin(), indianClient('Drive Client', { uploadDestination: 'google_drive' }))).body.id;
  });

  it('walks from no credentials to a connected folder, and back on removal', async () => {
    expect(await status()).toEqual({ hasCredentials: false, hasTokens: false, isSetup: false });
    expect(await call('GET', drive('/auth-url'), admin())).toEqual({ status: 400, body: { message: 'Save the Google Drive Client ID and Client Secret first.' } });
    for (const body of [{}, { clientId: google.app.clientId }, { clientId: ' ', clientSecret: google.app.clientSecret }]) {
      expect(await call('POST', drive('/credentials'), admin(), body)).toMatchObject({ status: 400, body: { message: 'Please provide both Client ID and Client Secret' } });
    }
    expect(await call('POST', drive('/credentials'), admin(), google.app)).toEqual({ status: 200, body: { message: 'Google Drive credentials have been saved successfully.' } });
    expect(await status()).toEqual({ hasCredentials: true, hasTokens: false, isSetup: false });

    const { body: { authUrl } } = await call<{ authUrl: string }>('GET', drive('/auth-url'), admin());
    const url = new URL(authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(google.env.GOOGLE_OAUTH_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      access_type: 'offline', prompt: 'consent', response_type: 'code', client_id: google.app.clientId,
      scope: 'https://www.googleapis.com/auth/drive.file',
      redirect_uri: `http://localhost:8080/api/auth/google/callback/${clientId}?tenant=${ACME}`,
      state: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });

    const callback = await follow(await consent(authUrl));
    expect(callback).toEqual({ status: 302, location: `/${ACME}/clients?google-drive-setup=success` });
    expect(await status()).toEqual({ hasCredentials: true, hasTokens: true, isSetup: true });
    expect(google.folders.at(-1)).toEqual({ name: 'Drive Client Documents', mimeType: 'application/vnd.google-apps.folder' });
    expect((await call<Client>('GET', `/api/${ACME}/clients/${clientId}`, admin())).body.googleDriveConfigured).toBe(true);

    expect(await call('DELETE', drive(''), admin())).toEqual({ status: 200, body: { message: 'Google Drive integration removed.' } });
    expect(await status()).toEqual({ hasCredentials: false, hasTokens: false, isSetup: false });
    expect((await call<Client>('GET', `/api/${ACME}/clients/${clientId}`, admin())).body.googleDriveConfigured).toBe(false);
  });

  it('redirects with an error for a bad, expired or foreign state, a refused code or a denied consent', async () => {
    await call('POST', drive('/credentials'), admin(), google.app);
    const { body: { authUrl } } = await call<{ authUrl: string }>('GET', drive('/auth-url'), admin());
    const good = new URL(await consent(authUrl));
    const with_ = (changes: Record<string, string>, path = good.pathname) => {
      const u = new URL(`${portal.gatewayUrl}${path}${good.search}`);
      for (const [k, v] of Object.entries(changes)) u.searchParams.set(k, v);
      return u.href;
    };
    const invalidLink = `/${ACME}/clients?google-drive-setup=error&message=${new URLSearchParams({ m: 'This Google Drive connection link is invalid or has expired. Please start the setup again.' }).toString().slice(2)}`;
    const stateSigner = new TokenSigner(deriveKey(master, 'google-oauth-state'));
    const expired = stateSigner.sign({ t: ACME, c: clientId }, 60, Date.now() - 120_000).token;

    expect(await follow(with_({ state: 'tampered.state' }))).toEqual({ status: 302, location: invalidLink });
    expect(await follow(with_({ state: expired }))).toEqual({ status: 302, location: invalidLink });
    expect(await follow(with_({}, `/api/auth/google/callback/${ids['Other Client']}`))).toEqual({ status: 302, location: invalidLink });
    expect((await follow(with_({ tenant: BETA }))).location).toMatch(new RegExp(`^/${BETA}/clients\\?google-drive-setup=error&message=`));
    expect((await follow(with_({ tenant: 'https://evil.example' }))).location).toMatch(/^\/clients\?google-drive-setup=error&message=/);
    const refused = await follow(with_({ code: 'not-a-code' }));
    expect(refused.location).toMatch(new RegExp(`^/${ACME}/clients\\?google-drive-setup=error&message=Google\\+did\\+not\\+accept`));
    expect((await follow(with_({ error: 'access_denied' }))).location).toBe(`/${ACME}/clients?google-drive-setup=error&message=Google+Drive+access+was+not+granted+%28access_denied%29.`);
    expect(await status()).toEqual({ hasCredentials: true, hasTokens: false, isSetup: false });
    // The genuine callback still works once.
    expect((await follow(good.href)).location).toBe(`/${ACME}/clients?google-drive-setup=success`);
    expect(await status()).toMatchObject({ isSetup: true });
  });

  it('answers 404 for another firm\'s or a missing client', async () => {
    expect((await call('GET', `/api/${BETA}/clients/99999/google-drive/status`, tokens[`${BETA}_admin`])).status).toBe(404);
    expect((await call('POST', `/api/${ACME}/clients/99999/google-drive/credentials`, admin(), google.app)).status).toBe(404);
  });
});

describe('client portal', () => {
  const portalPath = (tenant: string, id: number, token?: string) => `/api/${tenant}/clients/${id}/portal${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
  const tokenOfLink = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;

  it('gives an Admin a signed 30-day link that opens the public page data', async () => {
    const id = ids['Own Client']!;
    const link = await call<{ url: string; expiresAt: string }>('GET', `/api/${ACME}/clients/${id}/portal-link`, tokens[`${ACME}_admin`]);
    expect(link.body.url).toMatch(new RegExp(`^/${ACME}/client/${id}/portal\\?token=[\\w-]+\\.[\\w-]+$`));
    const days = (Date.parse(link.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(await call('GET', portalPath(ACME, id, tokenOfLink(link.body.url)))).toEqual({
      status: 200, body: { name: 'Own Client', uploadDestination: 'server', googleDriveConfigured: false },
    });
  });

  it('refuses a missing, tampered, expired, other-client or other-firm token', async () => {
    const id = ids['Own Client']!;
    const { body } = await call<{ url: string }>('GET', `/api/${ACME}/clients/${id}/portal-link`, tokens[`${ACME}_admin`]);
    const token = tokenOfLink(body.url);
    const invalid = { status: 401, body: { message: 'This client portal link is invalid or has expired. Please ask your tax consultant for a new link.' } };
    expect(await call('GET', portalPath(ACME, id))).toEqual({ status: 401, body: { message: 'This client portal link is incomplete. Please ask your tax consultant for a new link.' } });
    expect(await call('GET', portalPath(ACME, id, `${token.slice(0, -2)}xx`))).toEqual(invalid);
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), c: ids['Other Client'] })).toString('base64url');
    expect(await call('GET', portalPath(ACME, ids['Other Client']!, `${forged}.${mac}`))).toEqual(invalid);
    expect(await call('GET', portalPath(ACME, ids['Other Client']!, token))).toEqual(invalid);
    expect(await call('GET', portalPath(BETA, id, token))).toEqual(invalid);
    const expired = new TokenSigner(deriveKey(master, 'client-portal-link')).sign({ t: ACME, c: id }, 60, Date.now() - 120_000).token;
    expect(await call('GET', portalPath(ACME, id, expired))).toEqual(invalid);
    expect(await call('GET', portalPath('nosuchfirm', id, token))).toEqual({ status: 404, body: { message: 'Tenant not found' } });
  });

  it('reports Google Drive as configured without revealing any token, and 404 once the client is gone', async () => {
    const drive = (await call<Client[]>('GET', `/api/${ACME}/clients?search=drive client`, tokens[`${ACME}_admin`])).body[0]!;
    const { body } = await call<{ url: string }>('GET', `/api/${ACME}/clients/${drive.id}/portal-link`, tokens[`${ACME}_admin`]);
    expect(await call('GET', portalPath(ACME, drive.id, tokenOfLink(body.url)))).toEqual({
      status: 200, body: { name: 'Drive Client', uploadDestination: 'google_drive', googleDriveConfigured: true },
    });
    const gone = await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Short Lived'));
    const link = await call<{ url: string }>('GET', `/api/${ACME}/clients/${gone.body.id}/portal-link`, tokens[`${ACME}_admin`]);
    await call('DELETE', `/api/${ACME}/clients/${gone.body.id}`, tokens[`${ACME}_admin`]);
    expect(await call('GET', portalPath(ACME, gone.body.id, tokenOfLink(link.body.url)))).toEqual({ status: 404, body: { message: 'Client not found' } });
  });
});

describe('client deletion', () => {
  it('removes the client from every user\'s access list in identity and in the directory', async () => {
    const doomed = (await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Doomed Client'))).body.id;
    await createUser(ACME, 'partner', 3, [doomed, ids['Own Client']!], null);
    const partner = tokens[`${ACME}_partner`];
    await eventually(async () => {
      expect((await call<Client[]>('GET', `/api/${ACME}/clients`, partner)).body.map((c) => c.id).sort()).toEqual([doomed, ids['Own Client']].sort());
    }, BUS_WAIT_MS);
    expect((await call('DELETE', `/api/${ACME}/clients/${doomed}`, tokens[`${ACME}_admin`])).status).toBe(200);
    await eventually(async () => {
      expect((await call('GET', `/api/${ACME}/users/${ids[`${ACME}_partner`]}/client-access`, tokens[`${ACME}_admin`])).body).toEqual([ids['Own Client']]);
      expect((await call<Client[]>('GET', `/api/${ACME}/clients`, partner)).body.map((c) => c.id)).toEqual([ids['Own Client']]);
    }, BUS_WAIT_MS);
  });

  it("deletes the client's own Client users with it, and only them", async () => {
    const doomed = (await call<Client>('POST', `/api/${ACME}/clients`, tokens[`${ACME}_admin`], indianClient('Doomed Company'))).body.id;
    // A Client user of the doomed company, and one whose own client (the first) is another.
    await createUser(ACME, 'doomed_client', 4, [doomed], null);
    await createUser(ACME, 'neighbour_client', 4, [ids['Own Client']!, doomed], null);
    expect((await call('DELETE', `/api/${ACME}/clients/${doomed}`, tokens[`${ACME}_admin`])).status).toBe(200);
    await eventually(async () => {
      expect(await call('GET', `/api/${ACME}/users/${ids[`${ACME}_doomed_client`]}`, tokens[`${ACME}_admin`])).toEqual({ status: 404, body: { message: expect.any(String) } });
    }, BUS_WAIT_MS);
    const login = await call('POST', `/api/${ACME}/auth/login`, null, { username: u(`${ACME}_doomed_client`), password: TEST_USER_PASSWORD });
    expect(login.status).toBe(401);
    expect((await call('GET', `/api/${ACME}/users/${ids[`${ACME}_neighbour_client`]}/client-access`, tokens[`${ACME}_admin`])).body).toEqual([ids['Own Client']]);
  });
});

describe('secrets', () => {
  it('never returned a Google client secret or token in any response of this suite', () => {
    const secrets = [google.app.clientSecret, 'matrix-secret', ...google.issuedTokens];
    expect(google.issuedTokens.length).toBeGreaterThanOrEqual(4);
    expect(seen.length).toBeGreaterThan(100);
    for (const body of seen) for (const secret of secrets) expect(body).not.toContain(secret);
  });
});
