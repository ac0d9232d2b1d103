import { Readable } from 'node:stream';
import { auth as googleAuth, drive as googleDrive } from '@googleapis/drive';
import { Conflict, isDomainError, NotFound, Unavailable } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { ByteRange } from '@ledgerline/kit/storage/object-store.ts';
import type { DriveAccess } from '@ledgerline/contracts/directory.contracts.ts';

/** A chunk that fails this many times fails the upload. */
const CHUNK_ATTEMPTS = 3;
const REFUSED = 'Google Drive refused access to this client\'s folder. Please reconnect Google Drive for this client.';
const UNREACHABLE = 'Google Drive is not reachable right now. Please try again.';

const statusOf = (err: unknown): number | undefined =>
  (err as { status?: number }).status ?? (err as { response?: { status?: number } }).response?.status;

function driveError(err: unknown, what: string): unknown {
  if (isDomainError(err)) return err;
  const status = statusOf(err);
  if (status === 404) return new NotFound(`The file is no longer in the client's Google Drive (${what}).`);
  if (status === 401 || status === 403) return new Conflict(REFUSED);
  return new Unavailable(UNREACHABLE);
}

/**
 * Documents of clients whose uploads go to their own Google Drive folder (spec §4).
 * Uploads stream: a file that fits in one chunk goes in one multipart request through
 * googleapis; a larger one through Google's resumable protocol, one fixed-size chunk
 * buffered at a time (the memory an upload holds, whatever the file's size), each chunk
 * retried on its own. Downloads stream Drive's `alt=media` reply, byte ranges included.
 */
export class GoogleDriveBlobs {
  readonly #rootUrl: string;
  readonly #chunkBytes: number;
  readonly #logger: Logger;

  constructor(options: { rootUrl: string; chunkBytes: number; logger: Logger }) {
    this.#rootUrl = options.rootUrl;
    this.#chunkBytes = options.chunkBytes;
    this.#logger = options.logger;
  }

  #api(access: DriveAccess) {
    const oauth = new googleAuth.OAuth2();
    oauth.setCredentials({ access_token: access.accessToken });
    return googleDrive({ version: 'v3', auth: oauth, rootUrl: this.#rootUrl });
  }

  async upload(access: DriveAccess, file: { name: string; mimeType: string; body: Readable; signal?: AbortSignal }): Promise<{ fileId: string; size: number }> {
    const chunks = readChunks(file.body, this.#chunkBytes);
    const first = await chunks.next();
    const firstChunk = first.done ? Buffer.alloc(0) : first.value;
    if (firstChunk.length < this.#chunkBytes) {
      // The whole file: one multipart request (metadata + bytes).
      const bytes = Buffer.from(firstChunk);
      const created = await this.#api(access).files.create(
        { requestBody: { name: file.name, parents: [access.folderId], mimeType: file.mimeType }, media: { mimeType: file.mimeType, body: Readable.from([bytes]) }, fields: 'id' },
        // Per call: googleapis builds the upload URL from this option only, not the client's rootUrl.
        { rootUrl: this.#rootUrl, signal: file.signal },
      ).catch((err: unknown) => { throw driveError(err, 'upload'); });
      if (!created.data.id) throw new Unavailable(UNREACHABLE);
      return { fileId: created.data.id, size: bytes.length };
    }
    const session = await this.#startResumable(access, file);
    try {
      let offset = 0;
      let chunk: Buffer | undefined = firstChunk;
      while (chunk) {
        const last = chunk.length < this.#chunkBytes;
        const fileId = await this.#sendChunk(access, session, chunk, offset, last ? offset + chunk.length : null, file.signal);
        offset += chunk.length;
        if (fileId) return { fileId, size: offset };
        const next = await chunks.next();
        chunk = next.done ? undefined : next.value;
      }
      // The body ended on a chunk boundary: tell Google the total with no bytes.
      const fileId = await this.#sendChunk(access, session, Buffer.alloc(0), offset, offset, file.signal);
      if (!fileId) throw new Unavailable(UNREACHABLE);
      return { fileId, size: offset };
    } catch (err) {
      // Cancel the session, so Google drops what it holds of this upload.
      await fetch(session, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      throw driveError(err, 'upload');
    } finally {
      await chunks.return(undefined);
    }
  }

  async download(access: DriveAccess, fileId: string, range?: Required<ByteRange>): Promise<Readable> {
    const res = await this.#api(access).files.get(
      { fileId, alt: 'media' },
      { responseType: 'stream', headers: range ? { Range: `bytes=${range.start}-${range.end}` } : undefined },
    ).catch((err: unknown) => { throw driveError(err, 'download'); });
    return res.data as unknown as Readable;
  }

  /** Deleting a file Drive no longer has is not an error. */
  async remove(access: DriveAccess, fileId: string): Promise<void> {
    await this.#api(access).files.delete({ fileId }).catch((err: unknown) => {
      if (statusOf(err) !== 404) throw driveError(err, 'delete');
    });
  }

  async #startResumable(access: DriveAccess, file: { name: string; mimeType: string; signal?: AbortSignal }): Promise<string> {
    const r = await fetch(`${this.#rootUrl}upload/drive/v3/files?uploadType=resumable&fields=id`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access.accessToken}`, 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-type': file.mimeType },
      body: JSON.stringify({ name: file.name, parents: [access.folderId], mimeType: file.mimeType }),
      signal: file.signal,
    }).catch((err: unknown) => { throw driveError(err, 'upload'); });
    await r.arrayBuffer().catch(() => undefined);
    const location = r.headers.get('location');
    if (!r.ok || !location) throw driveError({ status: r.status }, 'upload');
    return location;
  }

  /**
   * PUTs `chunk` at `offset` (`total` known only for the last one). Resolves with the
   * file id when Google has the whole file, null while it wants more. A failed attempt
   * asks Google how much it kept and sends the rest of the chunk again.
   */
  async #sendChunk(access: DriveAccess, session: string, chunk: Buffer, offset: number, total: number | null, signal?: AbortSignal): Promise<string | null> {
    let sent = 0; // bytes of this chunk Google confirmed
    for (let attempt = 1; ; attempt++) {
      const part = chunk.subarray(sent);
      const start = offset + sent;
      const contentRange = part.length ? `bytes ${start}-${start + part.length - 1}/${total ?? '*'}` : `bytes */${total ?? '*'}`;
      try {
        const r = await fetch(session, { method: 'PUT', headers: { 'content-range': contentRange }, body: new Uint8Array(part.buffer as ArrayBuffer, part.byteOffset, part.length), signal });
        const text = await r.text();
        if (r.status === 200 || r.status === 201) return (JSON.parse(text) as { id: string }).id;
        if (r.status === 308) {
          const held = confirmedEnd(r.headers.get('range')) + 1 - offset; // bytes of this chunk Google kept
          if (held >= chunk.length) return null;
          if (held > sent) { sent = held; continue; }
          throw new Error('Google Drive did not keep the chunk it was sent');
        }
        if (r.status < 500) throw Object.assign(new Error(`Google Drive answered ${r.status}`), { status: r.status });
        throw new Error(`Google Drive answered ${r.status}`);
      } catch (err) {
        const status = statusOf(err);
        if ((status !== undefined && status < 500) || signal?.aborted || attempt >= CHUNK_ATTEMPTS) throw err;
        this.#logger.warn({ attempt, status, err: String(err) }, 'Google Drive chunk failed, retrying');
        sent = Math.max(sent, await this.#confirmed(session, offset));
      }
    }
  }

  /** How many bytes of the chunk at `offset` Google already holds (0 when it cannot say). */
  async #confirmed(session: string, offset: number): Promise<number> {
    const r = await fetch(session, { method: 'PUT', headers: { 'content-range': 'bytes */*' }, signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (r?.status !== 308) return 0;
    return Math.max(0, confirmedEnd(r.headers.get('range')) + 1 - offset);
  }
}

/** Last byte Google confirmed from a `Range: bytes=0-N` header (-1 for none). */
function confirmedEnd(range: string | null): number {
  const m = /bytes=0-(\d+)/.exec(range ?? '');
  return m ? Number(m[1]) : -1;
}

/**
 * Cuts a stream into chunks of exactly `size` bytes (the last one shorter), in one
 * buffer reused for every chunk: the caller is done with a chunk before it asks for the
 * next. Leaving early destroys the body.
 */
async function* readChunks(body: Readable, size: number): AsyncGenerator<Buffer, void, undefined> {
  const chunk = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const data of body as AsyncIterable<Buffer | string>) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let at = 0;
    while (at < bytes.length) {
      const copied = bytes.copy(chunk, filled, at);
      filled += copied;
      at += copied;
      if (filled === size) {
        yield chunk;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}
