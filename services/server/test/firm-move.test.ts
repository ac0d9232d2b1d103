import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_USER_PASSWORD, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * Moving a firm (README "Backup, restore and moving a firm"): a firm with data in every
 * service is exported and imported under a new short name on the same installation; the
 * copy answers every read the same, its files are byte-identical and found by content,
 * its users sign in with their passwords, and exporting the copy gives the same checksums.
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
const CONTENT = `Annual statement of Zephyrine Holdings ${suffix}: turnover 45,00,000`;

/** Every list and read a firm Admin makes, per service (ids are kept in the copy, so paths with ids hold too). */
const READS = [
  '/users', '/roles', '/auth/me', '/clients', '/report-types', '/client-field-settings', '/files', '/files?search=zephyrine',
  '/activity-logs', '/dashboard', '/prompt-templates', '/tasks', '/notifications', '/compliance-schedules',
  '/compliance-tracker', '/compliance-insights', '/conversations', '/messages/unread/count',
];

const poll = async <T>(fn: () => Promise<T | null>): Promise<T> => {
  for (let i = 0; i < 300; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
};

async function exportFirm(path: string, token: string): Promise<{ bytes: Buffer; manifest: { files: Record<string, { sha256: string }>; services: Record<string, { rows: Record<string, number>; objects: number }> } }> {
  const started = await call<{ id: string; status: string }>('POST', `${path}/export`, token);
  expect(started.status).toBe(202);
  expect(started.body.status).toBe('running');
  const listPath = path.startsWith('/api/companies') ? `${path}/exports` : `${path}/export`;
  const ready = await poll(async () => {
    const list = await call<{ id: string; status: string; size: number; progress: number }[]>('GET', listPath, token);
    const job = list.body.find((j) => j.id === started.body.id);
    if (job?.status === 'failed') throw new Error(JSON.stringify(job));
    return job?.status === 'ready' ? job : null;
  });
  expect(ready.progress).toBe(100);
  const downloadPath = path.startsWith('/api/companies') ? `${path}/exports/${ready.id}/download` : `${path}/export/${ready.id}/download`;
  const r = await fetch(`${portal.gatewayUrl}${downloadPath}`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  const bytes = Buffer.from(await r.arrayBuffer());
  expect(bytes.length).toBe(ready.size);
  // The manifest is the last entry: its JSON sits before the end-of-archive blocks.
  const text = bytes.toString('utf8');
  const start = text.lastIndexOf('{\n  "format"');
  const manifest = JSON.parse(text.slice(start, text.indexOf('\0', start))) as Awaited<ReturnType<typeof exportFirm>>['manifest'];
  return { bytes, manifest };
}

async function importArchive(bytes: Buffer, name: string, shortName: string): Promise<{ status: number; body: { id?: string; message?: string } }> {
  const form = new FormData();
  form.append('name', name);
  form.append('shortName', shortName);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'firm.tar');
  const r = await fetch(`${portal.gatewayUrl}/api/companies/import`, { method: 'POST', headers: { authorization: `Bearer ${portal.adminToken}` }, body: form });
  return { status: r.status, body: (await r.json()) as { id?: string; message?: string } };
}

const companyCount = async () => (await call<unknown[]>('GET', '/api/companies', portal.adminToken)).body.length;

beforeAll(async () => {
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
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
  await created('/roles', { name: 'Reviewer' });
  const form = new FormData();
  form.append('fileType', 'report');
  form.append('clientId', String(clientId));
  form.append('reportTypeId', String(reportTypeId));
  form.append('file', new Blob([CONTENT]), 'statement.txt');
  const up = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
  expect(up.status).toBe(201);
  await created('/tasks', { title: 'Collect receipts', clientIds: [clientId] });
  const schedule = await created('/compliance-schedules', { clientId, reportTypeId, frequency: 'yearly', dueMonths: ['6'] });
  await call('POST', `/api/${FIRM}/compliance-schedules/${schedule}/generate/2030`, portal.adminToken);
  await created('/prompt-templates', { name: 'Summary', content: 'Summarise the statement' }).catch(() => undefined);
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
    expect(Object.keys(original.manifest.services).sort()).toEqual(['activity', 'chat', 'compliance', 'directory', 'files', 'identity', 'insights', 'messaging', 'tasks']);
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
    const newer = Buffer.from(original.bytes.toString('latin1').replace(/"productVersion": "[^"]+"/, (m) => m.replace(/"[^"]+"$/, '"9.0.0"')), 'latin1');
    // Same length, so the tar headers hold; the manifest is not in its own checksum list.
    const refusedNewer = await importArchive(newer, 'Newer', `nw${suffix}`);
    expect(refusedNewer.status).toBe(400);
    expect(refusedNewer.body.message).toMatch(/newer version of Ledgerline \(9\.0\.0\)/);
    expect(await companyCount()).toBe(before);
  }, 60_000);

  it('imports the archive as a new firm that answers every read the same', async () => {
    const job = await importArchive(original.bytes, `Copy ${suffix}`, COPY);
    expect(job.status).toBe(202);
    const done = await poll(async () => {
      const r = await call<{ status: string; company: { id: number; shortName: string } | null; message: string | null }>('GET', `/api/companies/imports/${job.body.id}`, portal.adminToken);
      if (r.body.status === 'failed') throw new Error(r.body.message ?? 'failed');
      return r.body.status === 'ready' ? r.body : null;
    });
    expect(done.company!.shortName).toBe(COPY);
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
    const files = await call<{ id: number }[]>('GET', `/api/${COPY}/files`, copyAdmin);
    const bytes = await fetch(`${portal.gatewayUrl}/api/${COPY}/files/${files.body[0]!.id}`, { headers: { authorization: `Bearer ${copyAdmin}` } });
    expect(bytes.status).toBe(200);
    expect(await bytes.text()).toBe(CONTENT);
  }, 120_000);

  it('keeps the original firm untouched and apart from the copy', async () => {
    const other = await call('GET', `/api/${COPY}/files`, admin);
    expect(other.status).toBe(403);
    expect((await call<unknown[]>('GET', `/api/${FIRM}/files?search=zephyrine`, admin)).body).toHaveLength(1);
  });
});

/** What must differ between the firm and its copy: the firm's own name and short name. */
function normalise(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(COPY, '<firm>').replaceAll(FIRM, '<firm>').replaceAll(`Copy ${suffix}`, '<name>').replaceAll(`Move ${suffix}`, '<name>'));
}

