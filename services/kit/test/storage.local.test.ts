import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Conflict, Invalid, Unavailable } from '@ledgerline/kit/errors.ts';
import { createObjectStore } from '@ledgerline/kit/storage/create-object-store.ts';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import { LocalObjectStore } from '@ledgerline/kit/storage/local-object-store.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';

const bodyOf = (text: string): Readable => Readable.from([Buffer.from(text)]);

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('local object store on disk', () => {
  let dataDir: string;
  let store: ObjectStore;
  let root: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'local-store-'));
    root = path.join(dataDir, 'objects');
    store = await createObjectStore({ dataDir });
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps each object as a plain file under ${dataDir}/objects, so backups and inspection need no tool', async () => {
    await store.put('tenant-a/files/report.pdf', bodyOf('%PDF'), { contentType: 'application/pdf' });
    expect(await readFile(path.join(root, 'data', 'tenant-a', 'files', 'report.pdf'), 'utf8')).toBe('%PDF');
  });

  it('writes nothing for a key that would leave the root', async () => {
    for (const bad of ['../escape', 'a/../../escape', '/tmp/escape']) {
      await expect(store.put(bad, bodyOf('x'))).rejects.toBeInstanceOf(Invalid);
    }
    expect(existsSync(path.join(dataDir, 'escape'))).toBe(false);
    expect(existsSync(path.join(root, 'escape'))).toBe(false);
    expect(await readdir(path.join(root, 'data'))).toEqual([]);
  });

  it('removes its temp files when a write fails', async () => {
    const broken = Readable.from((async function* () {
      yield Buffer.alloc(100_000, 1);
      throw new Error('client went away');
    })());
    await expect(store.put('doc.bin', broken)).rejects.toThrow('client went away');
    expect(await readdir(path.join(root, 'tmp'))).toEqual([]);
    expect(existsSync(path.join(root, 'data', 'doc.bin'))).toBe(false);
  });

  it('sweeps temp files of dead writers on start, but not writes still in flight', async () => {
    const stale = path.join(root, 'tmp', 'crashed.data');
    const fresh = path.join(root, 'tmp', 'in-flight.data');
    await writeFile(stale, 'half an object');
    await writeFile(fresh, 'still streaming');
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60 * 1000);
    await utimes(stale, elevenMinutesAgo, elevenMinutesAgo);
    await createObjectStore({ dataDir });
    expect(await readdir(path.join(root, 'tmp'))).toEqual(['in-flight.data']);
  });

  it('keeps sweeping while it runs: a write abandoned after start goes too', async () => {
    const running = new LocalObjectStore(path.join(dataDir, 'swept'), { staleTempMs: 200, sweepIntervalMs: 50 });
    await running.prepare();
    const abandoned = path.join(dataDir, 'swept', 'tmp', 'killed-upload.data');
    await writeFile(abandoned, 'the process writing this was killed');
    await eventually(async () => expect(await readdir(path.join(dataDir, 'swept', 'tmp'))).toEqual([]), 3_000);
  });

  it('refuses a key that collides with a key prefix (a file cannot also be a folder) and keeps both objects', async () => {
    await store.put('a/b', bodyOf('inner'));
    await expect(store.put('a', bodyOf('outer'))).rejects.toBeInstanceOf(Conflict);
    await store.put('c', bodyOf('outer'));
    await expect(store.put('c/d', bodyOf('inner'))).rejects.toBeInstanceOf(Conflict);
    expect(await readAll(await store.get('a/b'))).toBe('inner');
    expect(await readAll(await store.get('c'))).toBe('outer');
    expect(await readdir(path.join(root, 'tmp'))).toEqual([]);
  });

  it('lets a reader that already opened an object finish it while the key is overwritten', async () => {
    await store.put('doc', bodyOf('first version'));
    const reading = await store.get('doc');
    await store.put('doc', bodyOf('second'));
    expect(await readAll(reading)).toBe('first version');
    expect(await readAll(await store.get('doc'))).toBe('second');
  });

  it('reports Unavailable from ping when its folder is gone', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    await rm(root, { recursive: true });
    await expect(store.ping()).rejects.toBeInstanceOf(Unavailable);
  });
});
