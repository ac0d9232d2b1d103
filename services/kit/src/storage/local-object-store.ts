import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Conflict, NotFound, Unavailable } from '../errors.ts';
import { assertValidKey, assertValidRange, rangeNotSatisfiable, storedContentType } from './object-store-rules.ts';
import type { ByteRange, ObjectStat, ObjectStore } from './object-store.ts';

/**
 * A temp file not written to for this long belongs to a writer that died (a killed
 * process, a crash): a live upload writes as its bytes arrive, and one that stalls is
 * cut off by the servers' five-minute idle timeout, which deletes its temp file.
 */
const STALE_TEMP_MS = 10 * 60 * 1000;
/** How often a running process sweeps them (also once at start). */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;
const isMissing = (error: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '');

/**
 * The embedded object store: a directory tree under `root` (default `${dataDir}/objects`).
 * `data/<key>` holds the bytes as a plain file, `meta/<key>` a small JSON sidecar with
 * the content type, and `tmp/` the writes in flight. Writes go to `tmp/` (same
 * filesystem, so rename is atomic) and are renamed into place only when complete and
 * flushed, so a crashed or failed write never leaves a half object under its key.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly #data: string;
  readonly #meta: string;
  readonly #tmp: string;
  readonly #staleTempMs: number;
  readonly #sweepIntervalMs: number;

  constructor(root: string, options: { staleTempMs?: number; sweepIntervalMs?: number } = {}) {
    this.root = path.resolve(root);
    this.#staleTempMs = options.staleTempMs ?? STALE_TEMP_MS;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
    this.#data = path.join(this.root, 'data');
    this.#meta = path.join(this.root, 'meta');
    this.#tmp = path.join(this.root, 'tmp');
  }

  /**
   * Creates the tree and removes temp files that dead writers left behind, now and
   * every sweep interval while the process runs.
   */
  async prepare(): Promise<void> {
    await Promise.all([this.#data, this.#meta, this.#tmp].map((dir) => mkdir(dir, { recursive: true })));
    await this.sweepTemp();
    setInterval(() => { void this.sweepTemp().catch(() => undefined); }, this.#sweepIntervalMs).unref();
  }

  /** Deletes the temp files no writer has touched within the staleness bound; returns how many. */
  async sweepTemp(): Promise<number> {
    const staleBefore = Date.now() - this.#staleTempMs;
    let removed = 0;
    for (const name of await readdir(this.#tmp)) {
      const file = path.join(this.#tmp, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < staleBefore) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<{ size: number }> {
    const target = this.#paths(key);
    const meta: StoredMeta = { contentType: storedContentType(options.contentType) };
    const id = randomUUID();
    const tmpData = path.join(this.#tmp, `${id}.data`);
    const tmpMeta = path.join(this.#tmp, `${id}.meta`);
    try {
      // Folders before the body, so a key colliding with another key fails before the upload.
      await mkdir(path.dirname(target.data), { recursive: true });
      await mkdir(path.dirname(target.meta), { recursive: true });
      // `flush` fsyncs before close: after a power loss the renamed file holds the whole body, not a prefix.
      const out = createWriteStream(tmpData, { flags: 'wx', flush: true });
      await pipeline(body, out);
      await writeFile(tmpMeta, JSON.stringify(meta), { flag: 'wx', flush: true });
      // Sidecar first: the object exists exactly when its data file does, so a crash between
      // the renames leaves the previous bytes (under the new content type) or no object,
      // never partial bytes.
      await rename(tmpMeta, target.meta);
      await rename(tmpData, target.data);
      return { size: out.bytesWritten };
    } catch (error) {
      await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
      // A directory tree cannot hold both `a` and `a/b` (S3 can); with generated keys this never happens.
      if (['ENOTDIR', 'EISDIR', 'EEXIST'].includes(errorCode(error) ?? '')) {
        throw new Conflict(`Object key "${key}" collides with an existing key or key prefix`);
      }
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const { data } = this.#paths(key);
    if (range) assertValidRange(range);
    const { handle, size } = await openObject(key, data);
    try {
      // `{ start: 0 }` is the whole object, which exists even when empty (as on S3).
      const wholeObject = !range || (range.start === 0 && range.end === undefined);
      if (!wholeObject && range.start >= size) throw rangeNotSatisfiable();
      // The open handle pins this version: a concurrent overwrite renames a new file over the name.
      return handle.createReadStream({ start: range?.start, end: range?.end });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectStat> {
    const paths = this.#paths(key);
    const info = await stat(paths.data).catch((error: unknown) => {
      throw isMissing(error) ? new NotFound(`Object "${key}" not found`) : error;
    });
    if (!info.isFile()) throw new NotFound(`Object "${key}" not found`);
    return { size: info.size, contentType: await readMeta(paths.meta), lastModified: info.mtime };
  }

  async delete(key: string): Promise<void> {
    const paths = this.#paths(key);
    // Data first: once it is gone the object is gone, whatever happens to the sidecar.
    for (const file of [paths.data, paths.meta]) {
      await unlink(file).catch((error: unknown) => {
        // EISDIR: the key is only a prefix of other keys, so there is no object to delete.
        if (!isMissing(error) && errorCode(error) !== 'EISDIR') throw error;
      });
    }
  }

  async ping(): Promise<void> {
    try {
      await Promise.all([this.#data, this.#meta, this.#tmp].map((dir) => access(dir, constants.W_OK)));
    } catch (error) {
      throw new Unavailable(`Object storage directory ${this.root} is not writable: ${(error as Error).message}`);
    }
  }

  #paths(key: string): { data: string; meta: string } {
    assertValidKey(key);
    const segments = key.split('/');
    return { data: path.join(this.#data, ...segments), meta: path.join(this.#meta, ...segments) };
  }
}

async function openObject(key: string, file: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, 'r').catch((error: unknown) => {
    throw isMissing(error) ? new NotFound(`Object "${key}" not found`) : error;
  });
  const info = await handle.stat();
  // Opening a directory succeeds on Linux; a key that is only a prefix is not an object.
  if (!info.isFile()) {
    await handle.close();
    throw new NotFound(`Object "${key}" not found`);
  }
  return { handle, size: info.size };
}

interface StoredMeta {
  contentType: string;
}

async function readMeta(file: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as StoredMeta).contentType;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
