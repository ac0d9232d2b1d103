import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createObjectStore } from '@ledgerline/kit/storage/create-object-store.ts';
import { readTar } from '@ledgerline/kit/portability/tar-archive.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * A firm's Admin exports their own firm (docs/using/firm-export.md) under `/api/{tenant}/export`
 * and the unprefixed `/api/export`; nobody else of the firm, and no other firm's Admin, may
 * start, list or download one. An export taken while the firm uploads holds every file row
 * with its bytes and no bytes without a row. Runs on the real servers when POSTGRES_URL is set.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `ex${suffix}`;
const OTHER = `xo${suffix}`;
const tokens: Record<'admin' | 'dta' | 'cpa' | 'client' | 'otherAdmin', string> = { admin: '', dta: '', cpa: '', client: '', otherAdmin: '' };
let clientId: number;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'firm-export-own-'));
/** From the first export: where the first file's bytes are kept. */
let firstObjectKey: string;

interface Job { id: string; status: 'running' | 'ready' | 'failed'; progress: number; size: number | null; message: string | null }

const until = async <T>(fn: () => Promise<T | null>): Promise<T> => {
  for (let i = 0; i < 600; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
};

async function exportAndDownload(base: string, token: string): Promise<Buffer> {
  const started = await call<Job>('POST', `${base}/export`, token);
  expect(started.status).toBe(202);
  const ready = await until(async () => {
    const list = await call<Job[]>('GET', `${base}/export`, token);
    expect(list.status).toBe(200);
    const job = list.body.find((j) => j.id === started.body.id);
    if (job?.status === 'failed') throw new Error(job.message ?? 'failed');
    return job?.status === 'ready' ? job : null;
  });
  const r = await fetch(`${portal.gatewayUrl}${base}/export/${ready.id}/download`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-disposition')).toContain(`${FIRM}-`);
  const bytes = Buffer.from(await r.arrayBuffer());
  expect(bytes.length).toBe(ready.size);
  return bytes;
}

async function upload(name: string, content: string): Promise<number> {
  const form = new FormData();
  form.append('fileType', 'company_document');
  form.append('clientId', String(clientId));
  form.append('file', new Blob([content]), name);
  const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
  expect(r.status).toBe(201);
  return r.status;
}

/** Every entry's bytes by name (the test archives are small). */
async function entries(archive: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const e of readTar(Readable.from([archive]))) {
    const parts: Buffer[] = [];
    for await (const c of e.body) parts.push(c as Buffer);
    out.set(e.name, Buffer.concat(parts));
  }
  return out;
}

beforeAll(async () => {
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000', KEYCLOAK_URL: '', PORTAL_DATA_DIR: DATA_DIR });
  call = apiClient(portal.gatewayUrl);
  await call('POST', '/api/companies', portal.adminToken, { name: `Export ${suffix}`, shortName: FIRM });
  await call('POST', '/api/companies', portal.adminToken, { name: `Other ${suffix}`, shortName: OTHER });
  const client = await call<{ id: number }>('POST', `/api/${FIRM}/clients`, portal.adminToken, testClient('Quillon Traders'));
  clientId = client.body.id;
  const people: [keyof typeof tokens, string, number, number[] | null][] = [
    ['admin', FIRM, 1, null], ['dta', FIRM, 2, null], ['cpa', FIRM, 3, [clientId]], ['client', FIRM, 4, [clientId]], ['otherAdmin', OTHER, 1, null],
  ];
  for (const [actor, firm, roleId, clientIds] of people) {
    tokens[actor] = (await createSignedInUser(call, portal.adminToken, firm, { username: `${actor.toLowerCase()}_${suffix}`, fullName: `Export ${actor}`, roleId, clientIds, reportTypeIds: null })).token;
  }
  await upload('first.txt', 'the first document');
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('a firm Admin exporting their own firm', () => {
  let exportId: string;

  it('lets the Admin start, follow and download an export in the firm\'s path form and the unprefixed one', async () => {
    const archive = await exportAndDownload(`/api/${FIRM}`, tokens.admin);
    const parts = await entries(archive);
    const manifest = JSON.parse(parts.get('manifest.json')!.toString()) as { firm: { shortName: string; schemaName: string } };
    expect(manifest.firm.shortName).toBe(FIRM);
    const file = JSON.parse(parts.get('files/tables/files.000000.ndjson')!.toString().split('\n')[0]!) as { storage_key: string };
    firstObjectKey = `files/${manifest.firm.schemaName}/${file.storage_key}`;
    await exportAndDownload('/api', tokens.admin);
    const list = await call<Job[]>('GET', '/api/export', tokens.admin);
    expect(list.body).toHaveLength(2);
    expect(list.body.every((j) => j.status === 'ready' && j.progress === 100 && (j.size ?? 0) > 0)).toBe(true);
    exportId = list.body[0]!.id;
  }, 120_000);

  it('refuses a DTA, a CPA and a Client user, and another firm\'s Admin', async () => {
    for (const actor of ['dta', 'cpa', 'client'] as const) {
      const token = tokens[actor];
      expect({ actor, status: (await call('POST', `/api/${FIRM}/export`, token)).status }).toEqual({ actor, status: 403 });
      expect({ actor, status: (await call('GET', `/api/${FIRM}/export`, token)).status }).toEqual({ actor, status: 403 });
      expect({ actor, status: (await call('GET', `/api/${FIRM}/export/${exportId}/download`, token)).status }).toEqual({ actor, status: 403 });
      const refused = await call<{ message: string }>('POST', '/api/export', token);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Only administrators can export the firm.');
    }
    const other = tokens.otherAdmin;
    expect((await call('POST', `/api/${FIRM}/export`, other)).status).toBe(403);
    expect((await call('GET', `/api/${FIRM}/export`, other)).status).toBe(403);
    expect((await call('GET', `/api/${FIRM}/export/${exportId}/download`, other)).status).toBe(403);
    // In their own firm's path the other Admin sees only their firm's exports: this one is not found.
    expect((await call<Job[]>('GET', `/api/${OTHER}/export`, other)).body).toEqual([]);
    const notTheirs = await call<{ message: string }>('GET', `/api/${OTHER}/export/${exportId}/download`, other);
    expect(notTheirs).toEqual({ status: 404, body: { message: 'Export not found' } });
    expect(await call('GET', `/api/${FIRM}/export/not-a-uuid/download`, tokens.admin)).toEqual({ status: 404, body: { message: 'Export not found' } });
  }, 60_000);

  it('holds every file row with its bytes, and no bytes without a row, when files arrive during the export', async () => {
    const started = await call<Job>('POST', `/api/${FIRM}/export`, tokens.admin);
    expect(started.status).toBe(202);
    const uploads = Promise.all(Array.from({ length: 6 }, (_, i) => upload(`during-${i}.txt`, `uploaded while exporting ${i}`)));
    const ready = await until(async () => {
      const job = (await call<Job[]>('GET', `/api/${FIRM}/export`, tokens.admin)).body.find((j) => j.id === started.body.id);
      if (job?.status === 'failed') throw new Error(job.message ?? 'failed');
      return job?.status === 'ready' ? job : null;
    });
    await uploads;
    const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/export/${ready.id}/download`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    const archive = await entries(Buffer.from(await r.arrayBuffer()));
    const rows = [...archive].filter(([name]) => /^files\/tables\/files\.\d+\.ndjson$/.test(name))
      .flatMap(([, body]) => body.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { storage_key: string; original_name: string }));
    const objects = [...archive.keys()].filter((name) => name.startsWith('files/objects/')).map((name) => name.slice('files/objects/'.length));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(objects.sort()).toEqual(rows.map((f) => f.storage_key).sort());
    const manifest = JSON.parse(archive.get('manifest.json')!.toString()) as { services: { files: { rows: { files: number }; objects: number } } };
    expect(manifest.services.files).toMatchObject({ rows: { files: rows.length }, objects: rows.length });
    expect((await call<unknown[]>('GET', `/api/${FIRM}/files`, tokens.admin)).body).toHaveLength(7);
  }, 120_000);

  it('fails with the reason when a file\'s bytes are gone before the export reads them (as when it is deleted meanwhile)', async () => {
    const store = await createObjectStore({
      dataDir: DATA_DIR,
      s3: process.env.S3_ENDPOINT
        ? { endpoint: process.env.S3_ENDPOINT, accessKey: process.env.S3_ACCESS_KEY!, secretKey: process.env.S3_SECRET_KEY!, bucket: process.env.S3_BUCKET ?? 'portal' }
        : undefined,
    });
    await store.delete(firstObjectKey);
    const started = await call<Job>('POST', `/api/${FIRM}/export`, tokens.admin);
    const failed = await until(async () => {
      const job = (await call<Job[]>('GET', `/api/${FIRM}/export`, tokens.admin)).body.find((j) => j.id === started.body.id);
      return job?.status === 'failed' ? job : null;
    });
    expect(failed.message).toBe('A file was deleted while the firm was being exported; start the export again.');
  }, 60_000);
});
