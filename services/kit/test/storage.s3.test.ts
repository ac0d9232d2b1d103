import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import type { IncompleteUploadedBucketItem } from 'minio';
import { ConfigError } from '@ledgerline/kit/config.ts';
import { Unavailable } from '@ledgerline/kit/errors.ts';
import { S3ObjectStore } from '@ledgerline/kit/storage/s3-object-store.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';

const MIB = 1024 * 1024;
const PART = 5 * MIB;

describe('S3 object store configuration', () => {
  const valid = { endpoint: 'http://127.0.0.1:9000', accessKey: 'access', secretKey: 'secret', bucket: 'portal' };

  it.each([
    ['an endpoint that is not a URL', { endpoint: 'not a url' }],
    ['an endpoint that is not http(s)', { endpoint: 'ftp://127.0.0.1:9000' }],
    ['an endpoint with a path', { endpoint: 'http://127.0.0.1:9000/portal' }],
    ['an endpoint with credentials', { endpoint: 'http://user:pass@127.0.0.1:9000' }],
    ['a part size under the S3 minimum of 5 MiB', { partSizeBytes: MIB }],
  ])('rejects %s at construction', (_label, override) => {
    expect(() => new S3ObjectStore({ ...valid, ...override })).toThrow(ConfigError);
  });

  it('reports Unavailable from ping when the server cannot be reached', async () => {
    const store = new S3ObjectStore({ ...valid, endpoint: 'http://127.0.0.1:1' });
    await expect(store.ping()).rejects.toBeInstanceOf(Unavailable);
  });
});

const endpoint = realServerUrl('S3_ENDPOINT');
if (endpoint) {
  describe('S3 object store against the server', () => {
    const config = {
      endpoint,
      accessKey: process.env.S3_ACCESS_KEY ?? '',
      secretKey: process.env.S3_SECRET_KEY ?? '',
      bucket: process.env.S3_BUCKET ?? '',
    };
    // A plain client, to look at what the store left on the server.
    const url = new URL(endpoint);
    const useSSL = url.protocol === 'https:';
    const admin = new Client({ endPoint: url.hostname, port: Number(url.port) || (useSSL ? 443 : 80), useSSL, accessKey: config.accessKey, secretKey: config.secretKey });
    const store = new S3ObjectStore({ ...config, partSizeBytes: PART });
    const prefix = `s3-${randomUUID()}`;
    const written: string[] = [];
    const key = (name: string): string => {
      written.push(`${prefix}/${name}`);
      return `${prefix}/${name}`;
    };

    const incompleteUploads = (k: string): Promise<IncompleteUploadedBucketItem[]> =>
      new Promise((resolve, reject) => {
        const found: IncompleteUploadedBucketItem[] = [];
        admin.listIncompleteUploads(config.bucket, k, true)
          .on('data', (item) => { if (item.key === k) found.push(item); })
          .on('error', reject)
          .on('end', () => resolve(found));
      });

    afterAll(async () => {
      for (const k of written) await store.delete(k);
    });

    it('creates a missing bucket on start, idempotently, after which ping succeeds', async () => {
      const bucket = `portal-test-${randomUUID().slice(0, 8)}`;
      const fresh = new S3ObjectStore({ ...config, bucket });
      await expect(fresh.ping()).rejects.toBeInstanceOf(Unavailable);
      try {
        await fresh.ensureBucket();
        await fresh.ensureBucket();
        expect(await admin.bucketExists(bucket)).toBe(true);
        await expect(fresh.ping()).resolves.toBeUndefined();
      } finally {
        if (await admin.bucketExists(bucket)) await admin.removeBucket(bucket);
      }
    });

    // A multipart ETag ends in "-<number of parts>": it shows the fixed part size was used.
    it.each([
      ['a body shorter than a part as a single PUT', PART - 1, /^[0-9a-f]{32}$/],
      ['a body of exactly two parts in two parts', 2 * PART, /-2$/],
      ['a longer body in fixed-size parts', 2 * PART + 1, /-3$/],
    ])('uploads %s', async (_label, size, etag) => {
      const k = key(`parts-${size}`);
      await store.put(k, Readable.from([randomBytes(size)]));
      expect((await admin.statObject(config.bucket, k)).etag).toMatch(etag);
    });

    it('aborts its multipart upload when the body fails, leaving no parts behind', async () => {
      const k = key('broken');
      const broken = Readable.from((async function* () {
        yield Buffer.alloc(PART + 1000, 1);
        throw new Error('client went away');
      })());
      await expect(store.put(k, broken)).rejects.toThrow('client went away');
      expect(await incompleteUploads(k)).toEqual([]);
    });

    it('starts its own upload instead of resuming another unfinished upload of the key', async () => {
      const k = key('concurrent');
      const foreign = await admin.initiateNewMultipartUpload(config.bucket, k, {});
      try {
        const body = randomBytes(2 * PART + 10);
        await store.put(k, Readable.from([body]));
        const chunks: Buffer[] = [];
        for await (const chunk of await store.get(k)) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(body)).toBe(true);
        expect((await incompleteUploads(k)).map((u) => u.uploadId)).toEqual([foreign]);
      } finally {
        await admin.abortMultipartUpload(config.bucket, k, foreign);
      }
    });
  });
}
