import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import { objectStoreTargets } from '@ledgerline/kit/storage/object-store-targets.ts';
import type { OpenedObjectStore } from '@ledgerline/kit/storage/object-store-targets.ts';

// The smallest part S3 allows, so the multipart path (several parts, a short last one,
// an exact part boundary, an abort) is exercised with bodies of a few MiB.
const PART = 5 * 1024 * 1024;

const bodyOf = (...chunks: Buffer[]): Readable => Readable.from(chunks);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Yields `bytes` bytes and then fails, as a client that disconnects mid-upload does. */
function brokenBody(bytes: number): Readable {
  return Readable.from((async function* () {
    yield Buffer.alloc(bytes, 7);
    throw new Error('client went away');
  })());
}

describe.each(objectStoreTargets())('$kind object store', (target) => {
  let opened: OpenedObjectStore;
  let store: ObjectStore;
  const prefix = `contract-${randomUUID()}`;
  const written = new Set<string>();
  const key = (name: string): string => {
    const k = `${prefix}/${name}`;
    written.add(k);
    return k;
  };

  beforeAll(async () => {
    opened = await target.open({ s3PartSizeBytes: PART });
    store = opened.store;
  });
  afterAll(async () => {
    for (const k of written) await store.delete(k);
    await opened.close();
  });

  it('reports its kind and answers ping', async () => {
    expect(store.kind).toBe(target.kind);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('stores and returns binary bytes unchanged, from any chunking', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const random = randomBytes(100_000);
    const k = key('binary.bin');
    await expect(store.put(k, bodyOf(everyByte, random, everyByte))).resolves.toEqual({ size: 100_512 });
    expect((await readAll(await store.get(k))).equals(Buffer.concat([everyByte, random, everyByte]))).toBe(true);
  });

  it('stores an empty object', async () => {
    const k = key('empty');
    await expect(store.put(k, bodyOf())).resolves.toEqual({ size: 0 });
    expect((await readAll(await store.get(k))).length).toBe(0);
    expect((await store.stat(k)).size).toBe(0);
  });

  it.each([
    ['several parts and a short last one', 2 * PART + 12_345],
    ['exactly one part', PART],
    ['exactly two parts', 2 * PART],
  ])('round-trips a body of %s', async (_label, size) => {
    const body = randomBytes(size);
    const k = key(`parts-${size}`);
    // Uneven chunks, so part boundaries fall inside chunks.
    const chunks = [];
    for (let at = 0; at < size; at += 777_777) chunks.push(body.subarray(at, at + 777_777));
    await expect(store.put(k, bodyOf(...chunks))).resolves.toEqual({ size });
    expect((await readAll(await store.get(k))).equals(body)).toBe(true);
  });

  it('round-trips keys with spaces and non-ASCII characters', async () => {
    const k = key('Mandant Müller/Jahresabschluss 2024 (endgültig) #1.pdf');
    await store.put(k, bodyOf(Buffer.from('%PDF-1.7')), { contentType: 'application/pdf' });
    expect((await readAll(await store.get(k))).toString()).toBe('%PDF-1.7');
  });

  describe('byte ranges', () => {
    const data = Buffer.from('0123456789abcdef');
    let k: string;
    beforeAll(async () => {
      k = key('range.txt');
      await store.put(k, bodyOf(data), { contentType: 'text/plain' });
    });

    it.each([
      ['start only', { start: 10 }, 'abcdef'],
      ['start and end (inclusive)', { start: 2, end: 5 }, '2345'],
      ['the first byte', { start: 0, end: 0 }, '0'],
      ['the last byte', { start: 15 }, 'f'],
      ['the last byte with an end', { start: 15, end: 15 }, 'f'],
      ['an end past the object, clamped', { start: 12, end: 1000 }, 'cdef'],
      ['start 0 without end, the whole object', { start: 0 }, '0123456789abcdef'],
    ])('reads %s', async (_label, range, expected) => {
      expect((await readAll(await store.get(k, range))).toString()).toBe(expected);
    });

    it('rejects a range starting past the last byte as Invalid', async () => {
      await expect(store.get(k, { start: 16 })).rejects.toBeInstanceOf(Invalid);
      await expect(store.get(k, { start: 100, end: 200 })).rejects.toBeInstanceOf(Invalid);
    });

    it('rejects malformed ranges as Invalid', async () => {
      await expect(store.get(k, { start: -1 })).rejects.toBeInstanceOf(Invalid);
      await expect(store.get(k, { start: 5, end: 4 })).rejects.toBeInstanceOf(Invalid);
      await expect(store.get(k, { start: 1.5 })).rejects.toBeInstanceOf(Invalid);
    });

    it('reads an empty object whole with { start: 0 }', async () => {
      const empty = key('empty-range');
      await store.put(empty, bodyOf());
      expect((await readAll(await store.get(empty, { start: 0 }))).length).toBe(0);
    });
  });

  it('stats size, content type and modification time', async () => {
    const k = key('stat.json');
    const before = Date.now();
    await store.put(k, bodyOf(Buffer.from('{"a":1}')), { contentType: 'application/json' });
    const stat = await store.stat(k);
    expect(stat.size).toBe(7);
    expect(stat.contentType).toBe('application/json');
    // S3 keeps whole seconds.
    expect(stat.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stat.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('defaults the content type to application/octet-stream', async () => {
    const k = key('untyped');
    await store.put(k, bodyOf(Buffer.from('x')));
    expect((await store.stat(k)).contentType).toBe('application/octet-stream');
  });

  it('rejects a content type that is not printable ASCII as Invalid, storing nothing', async () => {
    const k = key('bad-type');
    await expect(store.put(k, bodyOf(Buffer.from('x')), { contentType: 'text/plain\r\nX-Injected: 1' })).rejects.toBeInstanceOf(Invalid);
    await expect(store.put(k, bodyOf(Buffer.from('x')), { contentType: '' })).rejects.toBeInstanceOf(Invalid);
    await expect(store.stat(k)).rejects.toBeInstanceOf(NotFound);
  });

  it('keeps tenants apart: an object under one tenant prefix is not found under another', async () => {
    const k = key('tenant-a/files/doc.pdf');
    await store.put(k, bodyOf(Buffer.from('a')));
    await expect(store.get(`${prefix}/tenant-b/files/doc.pdf`)).rejects.toBeInstanceOf(NotFound);
    await expect(store.stat(`${prefix}/tenant-b/files/doc.pdf`)).rejects.toBeInstanceOf(NotFound);
  });

  it('throws NotFound for get and stat of a missing key', async () => {
    const k = `${prefix}/missing`;
    await expect(store.get(k)).rejects.toBeInstanceOf(NotFound);
    await expect(store.get(k, { start: 1 })).rejects.toBeInstanceOf(NotFound);
    await expect(store.stat(k)).rejects.toBeInstanceOf(NotFound);
  });

  it('matches keys exactly: a prefix of a key is not an object', async () => {
    const k = key('folder/inner.txt');
    await store.put(k, bodyOf(Buffer.from('inner')));
    await expect(store.stat(`${prefix}/folder`)).rejects.toBeInstanceOf(NotFound);
    await expect(store.get(`${prefix}/folder`)).rejects.toBeInstanceOf(NotFound);
    await expect(store.stat(`${prefix}/folder/inner`)).rejects.toBeInstanceOf(NotFound);
    await store.delete(`${prefix}/folder`);
    expect((await readAll(await store.get(k))).toString()).toBe('inner');
  });

  it('deletes idempotently', async () => {
    const k = key('to-delete');
    await store.put(k, bodyOf(Buffer.from('bye')));
    await store.delete(k);
    await expect(store.stat(k)).rejects.toBeInstanceOf(NotFound);
    await expect(store.get(k)).rejects.toBeInstanceOf(NotFound);
    await expect(store.delete(k)).resolves.toBeUndefined();
    await expect(store.delete(`${prefix}/never-existed`)).resolves.toBeUndefined();
  });

  it('replaces an object on overwrite: bytes, size and content type', async () => {
    const k = key('overwrite');
    await store.put(k, bodyOf(Buffer.from('a much longer first version')), { contentType: 'text/plain' });
    await expect(store.put(k, bodyOf(Buffer.from('v2')), { contentType: 'text/csv' })).resolves.toEqual({ size: 2 });
    expect((await readAll(await store.get(k))).toString()).toBe('v2');
    const stat = await store.stat(k);
    expect(stat.size).toBe(2);
    expect(stat.contentType).toBe('text/csv');
  });

  it.each([
    ['a body that fails within the first part', 1000],
    ['a body that fails after a whole part was uploaded', PART + 1000],
  ])('keeps the previous object when %s', async (_label, bytes) => {
    const k = key(`atomic-${bytes}`);
    await store.put(k, bodyOf(Buffer.from('previous')), { contentType: 'text/plain' });
    await expect(store.put(k, brokenBody(bytes), { contentType: 'application/pdf' })).rejects.toThrow('client went away');
    expect((await readAll(await store.get(k))).toString()).toBe('previous');
    expect(await store.stat(k)).toMatchObject({ size: 8, contentType: 'text/plain' });
  });

  it('leaves no object behind when the first write of a key fails', async () => {
    const k = key('never-complete');
    await expect(store.put(k, brokenBody(PART + 1000))).rejects.toThrow('client went away');
    await expect(store.stat(k)).rejects.toBeInstanceOf(NotFound);
  });

  it.each([
    ['empty', ''],
    ['absolute', '/etc/passwd'],
    ['parent segment', `${prefix}/../../escape`],
    ['leading parent segment', '../escape'],
    ['dot segment', `${prefix}/./a`],
    ['empty segment', `${prefix}//a`],
    ['trailing slash', `${prefix}/a/`],
    ['NUL byte', `${prefix}/a\u0000b`],
    ['control character', `${prefix}/a\nb`],
    ['backslash', `${prefix}\\..\\escape`],
    ['overlong key', `${prefix}/${'a/'.repeat(600)}a`],
    ['overlong segment', `${prefix}/${'a'.repeat(256)}`],
  ])('rejects a bad key (%s) as Invalid in every operation', async (_label, bad) => {
    await expect(store.put(bad, bodyOf(Buffer.from('x')))).rejects.toBeInstanceOf(Invalid);
    await expect(store.get(bad)).rejects.toBeInstanceOf(Invalid);
    await expect(store.stat(bad)).rejects.toBeInstanceOf(Invalid);
    await expect(store.delete(bad)).rejects.toBeInstanceOf(Invalid);
  });
});
