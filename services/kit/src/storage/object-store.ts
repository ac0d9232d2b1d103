import type { Readable } from 'node:stream';

/**
 * The one object storage contract: a local directory (embedded default) or any
 * S3-compatible server through the `minio` client. Writes stream with bounded memory;
 * reads stream and support byte ranges. Missing keys throw kit's NotFound.
 */
export interface ObjectStat {
  size: number;
  contentType: string | undefined;
  lastModified: Date;
}

export interface ByteRange {
  /** Inclusive first byte. */
  start: number;
  /** Inclusive last byte; omitted means to the end. */
  end?: number;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Streams `body` of unknown length to `key`; resolves with the stored size. */
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<{ size: number }>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectStat>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  ping(): Promise<void>;
}
