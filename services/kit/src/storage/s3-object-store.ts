import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { ConfigError } from '../config.ts';
import { NotFound, Unavailable } from '../errors.ts';
import { assertValidKey, assertValidRange, rangeNotSatisfiable, storedContentType } from './object-store-rules.ts';
import type { ByteRange, ObjectStat, ObjectStore } from './object-store.ts';

/** S3 refuses parts under 5 MiB (except the last); 16 MiB × 10,000 parts allows objects up to 160 GiB. */
const MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_SIZE_BYTES = 16 * 1024 * 1024;

export interface S3ObjectStoreConfig {
  /** Origin of the S3 API, e.g. `http://minio:9000` or `https://s3.eu-central-1.example`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** Defaults to us-east-1, which MinIO accepts whatever its own region setting. */
  region?: string;
  /** Bytes buffered per upload part: the memory one `put` holds, whatever the body size. */
  partSizeBytes?: number;
}

const s3Code = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/**
 * Object storage on any S3-compatible server through the `minio` client.
 *
 * `put` runs its own multipart loop instead of `client.putObject(stream)`: with an
 * unknown length minio 8 assumes a 5 TiB object (so without a fixed `partSize` it
 * buffers ~530 MiB parts), sends even a tiny or empty body as multipart (an empty one
 * fails: S3 needs at least one part), resumes any older unfinished upload of the same
 * key (so two concurrent writers of one key share an upload), and hangs for ever when
 * the body stream errors (it pipes without forwarding errors). Here one reused part
 * buffer bounds memory, a body shorter than a part is a single PUT, and any failure
 * aborts the upload and destroys the body.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly #client: Client;
  readonly #region: string;
  readonly #partSizeBytes: number;

  constructor(config: S3ObjectStoreConfig) {
    const partSizeBytes = config.partSizeBytes ?? DEFAULT_PART_SIZE_BYTES;
    if (!Number.isSafeInteger(partSizeBytes) || partSizeBytes < MIN_PART_SIZE_BYTES) {
      throw new ConfigError(`S3 part size must be an integer of at least ${MIN_PART_SIZE_BYTES} bytes, got ${partSizeBytes}`);
    }
    this.bucket = config.bucket;
    this.#region = config.region ?? 'us-east-1';
    this.#partSizeBytes = partSizeBytes;
    this.#client = new Client({
      ...parseEndpoint(config.endpoint),
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: this.#region,
      partSize: partSizeBytes,
    });
  }

  /** Creates the bucket when missing; run once on start. */
  async ensureBucket(): Promise<void> {
    if (await this.#client.bucketExists(this.bucket)) return;
    await this.#client.makeBucket(this.bucket, this.#region).catch((error: unknown) => {
      // Another replica starting at the same moment may have created it first.
      if (s3Code(error) !== 'BucketAlreadyOwnedByYou') throw error;
    });
  }

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<{ size: number }> {
    assertValidKey(key);
    const headers = { 'Content-Type': storedContentType(options.contentType) };
    const etags: { part: number; etag: string }[] = [];
    let uploadId: string | undefined;
    let size = 0;
    try {
      for await (const part of readParts(body, this.#partSizeBytes)) {
        if (uploadId === undefined && part.length < this.#partSizeBytes) {
          await this.#client.putObject(this.bucket, key, part, part.length, headers);
          return { size: part.length };
        }
        uploadId ??= await this.#client.initiateNewMultipartUpload(this.bucket, key, headers);
        const partNumber = etags.length + 1;
        const { etag } = await this.#client.uploadPart(
          // Content-MD5: buckets with Object Lock require it, and over TLS the payload is not signed.
          { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber, headers: { 'Content-MD5': createHash('md5').update(part).digest('base64') } },
          part,
        );
        etags.push({ part: partNumber, etag });
        size += part.length;
      }
      if (uploadId === undefined) {
        await this.#client.putObject(this.bucket, key, Buffer.alloc(0), 0, headers);
        return { size: 0 };
      }
      await this.#client.completeMultipartUpload(this.bucket, key, uploadId, etags);
      return { size };
    } catch (error) {
      // Best effort: parts of an upload that cannot be aborted now are left to the bucket's lifecycle rules.
      if (uploadId !== undefined) await this.#client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    try {
      if (!range) return await this.#client.getObject(this.bucket, key);
      // minio reads length 0 as "to the end"; start 0 with length 0 sends no Range header at all.
      const length = range.end === undefined ? 0 : range.end - range.start + 1;
      return await this.#client.getPartialObject(this.bucket, key, range.start, length);
    } catch (error) {
      throw mapError(error, key);
    }
  }

  async stat(key: string): Promise<ObjectStat> {
    assertValidKey(key);
    try {
      const info = await this.#client.statObject(this.bucket, key);
      const contentType: unknown = info.metaData['content-type'];
      return { size: info.size, contentType: typeof contentType === 'string' ? contentType : undefined, lastModified: info.lastModified };
    } catch (error) {
      throw mapError(error, key);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // S3 answers 204 for a missing key too, so deleting is idempotent as the contract asks.
    await this.#client.removeObject(this.bucket, key);
  }

  async ping(): Promise<void> {
    let exists: boolean;
    try {
      exists = await this.#client.bucketExists(this.bucket);
    } catch (error) {
      throw new Unavailable(`S3 storage is unreachable: ${(error as Error).message}`);
    }
    if (!exists) throw new Unavailable(`S3 bucket "${this.bucket}" does not exist`);
  }
}

function parseEndpoint(endpoint: string): { endPoint: string; port: number; useSSL: boolean } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`S3 endpoint is not a URL: "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`S3 endpoint must be http(s): "${endpoint}"`);
  // The client addresses buckets itself; a path or credentials in the URL would be silently dropped.
  if (url.pathname !== '/' || url.search || url.username || url.password) {
    throw new ConfigError(`S3 endpoint must be a bare origin like http://host:9000, got "${endpoint}"`);
  }
  const useSSL = url.protocol === 'https:';
  return { endPoint: url.hostname, port: url.port ? Number(url.port) : useSSL ? 443 : 80, useSSL };
}

function mapError(error: unknown, key: string): unknown {
  const code = s3Code(error);
  if (code === 'NoSuchKey' || code === 'NotFound') return new NotFound(`Object "${key}" not found`);
  if (code === 'InvalidRange') return rangeNotSatisfiable();
  return error;
}

/**
 * Cuts a stream into parts of exactly `partSize` bytes (the last one shorter), copying
 * into one buffer that is reused for every part: the consumer must be done with a part
 * before it asks for the next, which `for await` guarantees. Leaving the loop early
 * destroys the body.
 */
async function* readParts(body: Readable, partSize: number): AsyncGenerator<Buffer> {
  const part = Buffer.allocUnsafe(partSize);
  let filled = 0;
  for await (const chunk of body as AsyncIterable<Buffer | Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let offset = 0;
    while (offset < bytes.length) {
      const copied = bytes.copy(part, filled, offset);
      filled += copied;
      offset += copied;
      if (filled === partSize) {
        yield part;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled);
}
