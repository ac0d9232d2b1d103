import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { unzip } from '@ledgerline/kit/testing/unzip.ts';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_USER_PASSWORD, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';
import { exportFirm as exportFirmFrom, importArchive as importArchiveTo, importEnded, importReady, poll, rewriteArchive } from './support/firm-moves.ts';

/*
 * Moving a firm (docs/running/backup-restore.md): a firm with data in every
 * service is exported and imported under a new short name on the same installation; the
 * copy answers every read the same, its files are byte-identical and found by content,
 * its users sign in with their passwords and authenticators, and exporting the copy gives
 * the same checksums.
 * Runs on the embedded default, and on PostgreSQL and RabbitMQ when POSTGRES_URL/AMQP_URL are set.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `mv${suffix}`;
const COPY = `cp${suffix}`;
let firmId: number;
let admin: string;
let colleagueToken: string;
/** The colleague's authenticator app: its secret, and recovery codes. */
let totp: { secret: string; recoveryCodes: string[] };
const CONTENT = `Annual statement of Zephyrine Holdings ${suffix}: turnover 45,00,000`;

/**
 * Every list and read a firm Admin makes, per service (ids are kept in the copy, so paths
 * with ids hold too); the seed adds the reads of what it made (a file's chat sessions).
 */
const READS = [
  '/users', '/roles', '/auth/me', '/security-settings', '/security-settings/factors', '/clients', '/report-types',
  '/client-field-settings', '/files', '/files?search=zephyrine', '/activity-logs', '/dashboard', '/prompt-templates', '/tasks',
  '/notifications', '/compliance-schedules', '/compliance-tracker', '/compliance-insights', '/request-templates',
  '/document-requests', '/conversations', '/messages/unread/count', '/billing/settings', '/billing/services', '/invoices', '/billing/receivables',
];

const exportFirm = (path: string, token: string) => exportFirmFrom(portal, path, token);
const importArchive = (bytes: Buffer, name: string, shortName: string, confirm = false) => importArchiveTo(portal, bytes, name, shortName, confirm);

const companyCount = async () => (await call<unknown[]>('GET', '/api/companies', portal.adminToken)).body.length;

beforeAll(async () => {
  // The built-in issuer on both ends; firm-move-keycloak.test.ts moves a firm into a realm and out of it.
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000', KEYCLOAK_URL: '' });
  call = apiClient(portal.gatewayUrl);
  const firm = await call<{ id: number }>('POST', '/api/companies', portal.adminToken, { name: `Move ${suffix}`, shortName: FIRM });
  firmId = firm.body.id;
  const created = async (path: string, body: unknown) => {
    const r = await call<{ id: number }>('POST', `/api/${FIRM}${path}`, portal.adminToken, body);
    if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id;
  };
  const clientId = await created('/clients', testClient('Zephyrine Holdings'));
  const reportTypeId = await created('/report-types', { name: 'Annual Statement' });
  const staff = await createSignedInUser(call, portal.adminToken, FIRM, { username: `mover_${suffix}`, fullName: 'Mia Mover', roleId: 1, clientIds: null, reportTypeIds: null });
  admin = staff.token;
  const colleague = await createSignedInUser(call, portal.adminToken, FIRM, { username: `colleague_${suffix}`, fullName: 'Colin Colleague', roleId: 2, clientIds: null, reportTypeIds: null });
  colleagueToken = colleague.token;
  const setup = await call<{ secret: string }>('POST', `/api/${FIRM}/auth/mfa/totp/setup`, colleagueToken, {});
  const confirmed = await call<{ recoveryCodes: string[] }>('POST', `/api/${FIRM}/auth/mfa/totp/confirm`, colleagueToken, { code: totpCode(setup.body.secret) });
  expect(confirmed.status).toBe(200);
  totp = { secret: setup.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
  await created('/roles', { name: 'Reviewer' });
  const form = new FormData();
  form.append('fileType', 'report');
  form.append('clientId', String(clientId));
  form.append('reportTypeId', String(reportTypeId));
  form.append('file', new Blob([CONTENT]), 'statement.txt');
  const up = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
  expect(up.status).toBe(201);
  const fileId = ((await up.json()) as { files: { id: number }[] }).files[0]!.id;
  READS.push(`/chat/sessions?fileId=${fileId}`);
  await created('/tasks', { title: 'Collect receipts', clientIds: [clientId] });
  const schedule = await created('/compliance-schedules', { clientId, reportTypeId, frequency: 'yearly', dueMonths: ['6'] });
  await call('POST', `/api/${FIRM}/compliance-schedules/${schedule}/generate/2030`, portal.adminToken);
  await created('/prompt-templates', { name: 'Summary', content: 'Summarise the statement' }).catch(() => undefined);
  await created('/document-requests', { clientId, title: 'Year-end documents', dueDate: '2030-03-31', items: [{ title: 'Bank statements' }] });
  // Billing: settings (one row its migration made), a service, a sent invoice with a payment; the copy keeps the number sequence.
  expect((await call('PUT', `/api/${FIRM}/billing/settings`, admin, { invoicePrefix: 'MV-', bankDetails: 'Account 1' })).status).toBe(200);
  const serviceId = await created('/billing/services', { name: 'Year-end accounts', defaultPrice: 90000 });
  const invoiceId = await created('/invoices', { clientId, lines: [{ description: 'Year-end accounts', serviceId }] });
  expect((await call('POST', `/api/${FIRM}/invoices/${invoiceId}/send`, admin)).status).toBe(200);
  expect((await call('POST', `/api/${FIRM}/invoices/${invoiceId}/payments`, admin, { amount: 10000, method: 'cheque' })).status).toBe(201);
  READS.push(`/invoices/${invoiceId}`);
  const conversation = await poll(async () => {
    const c = await call<{ id: number }>('POST', `/api/${FIRM}/conversations`, admin, { title: 'Year end', participantIds: [colleague.id] });
    return c.status === 201 ? c.body.id : null;
  });
  expect((await call('POST', `/api/${FIRM}/conversations/${conversation}/messages`, admin, { content: 'Statement is in' })).status).toBe(201);
  // Derived data settles: the text is searchable, the insight and the activity are written.
  await eventually(async () => {
    const found = await call<unknown[]>('GET', `/api/${FIRM}/files?search=zephyrine`, admin);
    expect(found.body).toHaveLength(1);
    const insights = await call<unknown[]>('GET', `/api/${FIRM}/compliance-insights`, admin);
    expect(insights.body.length).toBeGreaterThan(0);
  }, 20_000);
  // The text is extracted: the assistant answers about the file (a chat session with its messages).
  expect(await call('POST', `/api/${FIRM}/chat/ask`, admin, { fileId, message: 'What is the turnover?' })).toMatchObject({ status: 200 });
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('moving a firm', () => {
  let original: Awaited<ReturnType<typeof exportFirm>>;

  it('exports a firm into an archive whose manifest counts every service\'s rows and objects', async () => {
    original = await exportFirm(`/api/companies/${firmId}`, portal.adminToken);
    expect(original.manifest.services.files!.objects).toBe(1);
    expect(original.manifest.services.identity!.rows.users).toBe(2);
    expect(original.manifest.services.files!.rows.files).toBe(1);
    expect(Object.keys(original.manifest.services).sort()).toEqual(['activity', 'billing', 'chat', 'compliance', 'directory', 'files', 'identity', 'insights', 'messaging', 'requests', 'signatures', 'tasks']);
  }, 60_000);

  it('lets a firm\'s Admin export their own firm, and no other', async () => {
    const own = await exportFirm(`/api/${FIRM}`, admin);
    expect(own.manifest.files).toEqual(original.manifest.files);
    expect((await call('POST', `/api/companies/${firmId}/export`, admin)).status).toBe(403);
    expect((await call('GET', `/api/companies/${firmId}/exports`, admin)).status).toBe(403);
  }, 60_000);

  it('refuses a truncated archive, a changed byte, a short name in use and a newer version, creating nothing', async () => {
    const before = await companyCount();
    const truncated = await importArchive(original.bytes.subarray(0, original.bytes.length - 2048), 'Broken', `br${suffix}`);
    expect(truncated).toEqual({ status: 400, body: { message: 'The archive is truncated or damaged.' } });
    const changed = Buffer.from(original.bytes);
    const at = changed.indexOf(Buffer.from(CONTENT.slice(0, 20)));
    changed[at] = changed[at]! ^ 1;
    const mismatch = await importArchive(changed, 'Changed', `ch${suffix}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toMatch(/does not match its checksum/);
    const taken = await importArchive(original.bytes, 'Taken', FIRM);
    expect(taken).toEqual({ status: 409, body: { message: 'A tenant with this short name already exists' } });
    const newer = await rewriteArchive(original.bytes, (_, body) => body, (manifest) => { manifest.productVersion = '9.0.0'; });
    const refusedNewer = await importArchive(newer, 'Newer', `nw${suffix}`, true);
    expect(refusedNewer.status).toBe(400);
    expect(refusedNewer.body.message).toMatch(/newer version of Ledgerline \(9\.0\.0\)/);
    expect(await companyCount()).toBe(before);
  }, 60_000);

  it('imports the archive as a new firm that answers every read the same', async () => {
    const done = await importReady(portal, original.bytes, `Copy ${suffix}`, COPY);
    expect(done.company!.shortName).toBe(COPY);
    // Every user came with a password: nothing is left to do.
    expect(done.message).toBeNull();
    // Exported again before anyone signs in to the copy (a sign-in records its time): the same checksums, file for file.
    const again = await exportFirm(`/api/companies/${done.company!.id}`, portal.adminToken);
    expect(again.manifest.files).toEqual(original.manifest.files);
    const login = await call<{ token: string }>('POST', `/api/${COPY}/auth/login`, null, { username: `mover_${suffix}`, password: TEST_USER_PASSWORD });
    expect(login.status).toBe(200);
    const copyAdmin = login.body.token;
    for (const path of READS) {
      const a = await call('GET', `/api/${FIRM}${path}`, admin);
      const b = await call('GET', `/api/${COPY}${path}`, copyAdmin);
      expect({ path, status: b.status, body: normalise(b.body) }).toEqual({ path, status: a.status, body: normalise(a.body) });
    }
    // The authenticator and the recovery codes of the original sign in to the copy (the
    // next step's code: the copy, like the original, took the current one already).
    const colleague = await call<{ mfaRequired: boolean; challenge: string; methods: string[] }>('POST', `/api/${COPY}/auth/login`, null, { username: `colleague_${suffix}`, password: TEST_USER_PASSWORD });
    expect(colleague.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    const verified = await call<{ tenant: { shortName: string } }>('POST', `/api/${COPY}/auth/mfa/verify`, null, { challenge: colleague.body.challenge, method: 'totp', code: totpCode(totp.secret, Date.now() + 30_000) });
    expect({ status: verified.status, firm: verified.body.tenant?.shortName }).toEqual({ status: 200, firm: COPY });
    const secondSignIn = await call<{ challenge: string }>('POST', `/api/${COPY}/auth/login`, null, { username: `colleague_${suffix}`, password: TEST_USER_PASSWORD });
    expect((await call('POST', `/api/${COPY}/auth/mfa/verify`, null, { challenge: secondSignIn.body.challenge, method: 'recovery', code: totp.recoveryCodes[0] })).status).toBe(200);
    const files = await call<{ id: number }[]>('GET', `/api/${COPY}/files`, copyAdmin);
    const bytes = await fetch(`${portal.gatewayUrl}/api/${COPY}/files/${files.body[0]!.id}`, { headers: { authorization: `Bearer ${copyAdmin}` } });
    expect(bytes.status).toBe(200);
    expect(await bytes.text()).toBe(CONTENT);
  }, 120_000);

  it('imports an archive from an older version after running the newer migrations', async () => {
    // The archive as a version before identity's 003_credentials_disabled made it: that
    // migration not applied, its column not in the rows, the checksums to match.
    const older = await rewriteArchive(original.bytes, (name, body) => {
      if (name === 'identity/migrations.json') {
        const versions = JSON.parse(body.toString()) as Record<string, string[]>;
        versions.identity = versions.identity!.filter((id) => id !== '003_credentials_disabled');
        return Buffer.from(JSON.stringify(versions));
      }
      if (name.startsWith('identity/tables/credentials.')) {
        return Buffer.from(body.toString().split('\n').map((line) => (line ? JSON.stringify(omit(JSON.parse(line) as Record<string, unknown>, 'disabled')) : line)).join('\n'));
      }
      return body;
    });
    await importReady(portal, older, `Older ${suffix}`, `old${suffix}`, true);
    const login = await call('POST', `/api/old${suffix}/auth/login`, null, { username: `mover_${suffix}`, password: TEST_USER_PASSWORD });
    expect(login.status).toBe(200);
  }, 120_000);

  it('leaves nothing behind when a service refuses its part midway, so the same name imports afterwards', async () => {
    const before = await companyCount();
    const broken = await rewriteArchive(original.bytes, (name, body) =>
      (name.startsWith('tasks/tables/tasks.') ? Buffer.from(body.toString().replace(/"id": \d+/, '"id": "not a number"')) : body));
    const job = await importArchive(broken, 'Broken', `bad${suffix}`, true);
    expect(job.status).toBe(202);
    const failed = await importEnded(portal, job.body.id!);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/The tasks service could not import its part/);
    expect(failed.company).toBeNull();
    expect(await companyCount()).toBe(before);
    expect((await importReady(portal, original.bytes, 'Second try', `bad${suffix}`)).company!.shortName).toBe(`bad${suffix}`);
  }, 120_000);

  it('gives an Admin one client\'s documents as a ZIP by type, tax year and report type, with an index, and nobody else', async () => {
    const clients = await call<{ id: number }[]>('GET', `/api/${FIRM}/clients`, admin);
    const url = `${portal.gatewayUrl}/api/${FIRM}/files/clients/${clients.body[0]!.id}/archive`;
    const r = await fetch(url, { headers: { authorization: `Bearer ${admin}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    const entries = unzip(Buffer.from(await r.arrayBuffer()));
    // The tax year is the upload's, or the tracker item's the assistant matched the file to (document-archives.test.ts).
    const [path] = Object.keys(entries);
    expect(Object.keys(entries)).toEqual([expect.stringMatching(/^Reports\/\d{4}\/Annual Statement\/statement\.txt$/), 'index.csv']);
    expect(entries[path!]!.toString()).toBe(CONTENT);
    expect(entries['index.csv']!.toString()).toMatch(/^path,original name,type,report type,uploaded at,size,tax year,period,request,request item\r\nReports\/\d{4}\/Annual Statement\/statement\.txt,statement\.txt,report,Annual Statement,\d{4}-/);
    expect((await fetch(url, { headers: { authorization: `Bearer ${colleagueToken}` } })).status).toBe(403);
    const copyAdmin = (await call<{ token: string }>('POST', `/api/${COPY}/auth/login`, null, { username: `mover_${suffix}`, password: TEST_USER_PASSWORD })).body.token;
    expect((await fetch(url, { headers: { authorization: `Bearer ${copyAdmin}` } })).status).toBe(403);
  });

  it('keeps the original firm untouched and apart from the copy', async () => {
    const other = await call('GET', `/api/${COPY}/files`, admin);
    expect(other.status).toBe(403);
    expect((await call<unknown[]>('GET', `/api/${FIRM}/files?search=zephyrine`, admin)).body).toHaveLength(1);
  });
});

const omit = (row: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== key));

/** What must differ between the firm and its copy: the firm's own name and short name. */
function normalise(body: unknown): unknown {
  // Each sign-in has a session of its own: the copy's user signed in separately.
  return JSON.parse(
    JSON.stringify(body).replaceAll(COPY, '<firm>').replaceAll(FIRM, '<firm>').replaceAll(`Copy ${suffix}`, '<name>').replaceAll(`Move ${suffix}`, '<name>'),
    (key, value: unknown) => (key === 'sessionId' ? undefined : value),
  );
}

