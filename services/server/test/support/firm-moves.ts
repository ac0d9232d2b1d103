import { expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { readTar, TarWriter } from '@ledgerline/kit/portability/tar-archive.ts';
import { apiClient } from '../../src/portal-harness.ts';

/** A running test portal as the firm-move suites use it. */
export interface MovePortal { gatewayUrl: string; adminToken: string }

export interface ArchiveManifest {
  files: Record<string, { sha256: string }>;
  services: Record<string, { rows: Record<string, number>; objects: number }>;
}

export interface ImportJob { id: string; status: string; message: string | null; origin?: { signer: string; keyId: string | null }; company: { id: number; shortName: string; name: string } | null }

/** Calls `fn` until it answers something (every 100 ms, up to a minute). */
export async function poll<T>(fn: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

/**
 * Exports a firm through `path` (`/api/companies/{id}` as the platform administrator, or
 * `/api/{tenant}` as its Admin), waits until it is ready and downloads it.
 */
export async function exportFirm(portal: MovePortal, path: string, token: string): Promise<{ bytes: Buffer; manifest: ArchiveManifest }> {
  const call = apiClient(portal.gatewayUrl);
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
  // The manifest is the last entry but its signature: its JSON sits before the signature's header.
  const text = bytes.toString('utf8');
  const start = text.lastIndexOf('{\n  "format"');
  return { bytes, manifest: JSON.parse(text.slice(start, text.indexOf('\0', start))) as ArchiveManifest };
}

/**
 * Uploads an archive to import as the platform administrator: the refusal, or the job it
 * started. `confirm` is the platform admin's yes to an unsigned or foreign archive.
 */
export async function importArchive(portal: MovePortal, bytes: Buffer, name: string, shortName: string, confirm = false): Promise<{ status: number; body: { id?: string; message?: string; details?: unknown } }> {
  const form = new FormData();
  form.append('name', name);
  form.append('shortName', shortName);
  if (confirm) form.append('confirm', 'true');
  form.append('file', new Blob([new Uint8Array(bytes)]), 'firm.tar');
  const r = await fetch(`${portal.gatewayUrl}/api/companies/import`, { method: 'POST', headers: { authorization: `Bearer ${portal.adminToken}` }, body: form });
  return { status: r.status, body: (await r.json()) as { id?: string; message?: string } };
}

/** The import job once it has ended, ready or failed. */
export async function importEnded(portal: MovePortal, jobId: string): Promise<ImportJob> {
  const call = apiClient(portal.gatewayUrl);
  return poll(async () => {
    const r = await call<ImportJob>('GET', `/api/companies/imports/${jobId}`, portal.adminToken);
    return r.body.status === 'running' ? null : r.body;
  });
}

/** Imports an archive that must import: the ready job. */
export async function importReady(portal: MovePortal, bytes: Buffer, name: string, shortName: string, confirm = false): Promise<ImportJob> {
  const job = await importArchive(portal, bytes, name, shortName, confirm);
  expect(job.status).toBe(202);
  const done = await importEnded(portal, job.body.id!);
  if (done.status !== 'ready') throw new Error(done.message ?? 'failed');
  return done;
}

/**
 * Rebuilds an archive with some entries changed (or left out: `change` answers null), and
 * a manifest whose checksums and migrations match them (changed further by `manifestChange`).
 * The result is unsigned, as any archive rebuilt outside an installation: importing it needs `confirm`.
 */
export async function rewriteArchive(
  bytes: Buffer, change: (name: string, body: Buffer) => Buffer | null, manifestChange: (manifest: Record<string, unknown>) => void = () => undefined,
): Promise<Buffer> {
  const entries: { name: string; body: Buffer }[] = [];
  for await (const e of readTar(Readable.from([bytes]))) {
    const parts: Buffer[] = [];
    for await (const c of e.body) parts.push(c as Buffer);
    entries.push({ name: e.name, body: Buffer.concat(parts) });
  }
  if (entries.at(-1)!.name === 'manifest.sig') entries.pop();
  const manifestEntry = entries.pop()!;
  const manifest = JSON.parse(manifestEntry.body.toString()) as { files: Record<string, { size: number; sha256: string }>; services: Record<string, { migrations: Record<string, string[]> }> };
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const tar = new TarWriter(out);
  for (const e of entries) {
    const body = change(e.name, e.body);
    if (body === null) {
      delete manifest.files[e.name];
      continue;
    }
    manifest.files[e.name] = { size: body.length, sha256: createHash('sha256').update(body).digest('hex') };
    if (e.name.endsWith('/migrations.json')) manifest.services[e.name.split('/')[0]!]!.migrations = JSON.parse(body.toString()) as Record<string, string[]>;
    await tar.add(e.name, body.length, body);
  }
  manifestChange(manifest);
  const manifestBody = Buffer.from(JSON.stringify(manifest, null, 2));
  await tar.add(manifestEntry.name, manifestBody.length, manifestBody);
  await tar.finish();
  return Buffer.concat(chunks);
}

/** An archive's entries in order, bodies whole (test archives are small). */
export async function archiveEntries(bytes: Buffer): Promise<{ name: string; body: Buffer }[]> {
  const entries: { name: string; body: Buffer }[] = [];
  for await (const e of readTar(Readable.from([bytes]))) {
    const parts: Buffer[] = [];
    for await (const c of e.body) parts.push(c as Buffer);
    entries.push({ name: e.name, body: Buffer.concat(parts) });
  }
  return entries;
}

/** A tar of exactly these entries, in this order (manifest and signature untouched). */
export async function buildArchive(entries: { name: string; body: Buffer }[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const tar = new TarWriter(out);
  for (const e of entries) await tar.add(e.name, e.body.length, e.body);
  await tar.finish();
  return Buffer.concat(chunks);
}
