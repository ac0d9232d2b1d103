import { Readable, type Writable } from 'node:stream';
import { Invalid } from '../errors.ts';

/**
 * The archive format of firm exports and installation backups: a POSIX ustar stream.
 * Entries are written and read one at a time, each body streamed, so an archive of any
 * size passes through a fixed amount of memory. Only what our own archives need: regular
 * files, names up to 255 bytes (ustar's prefix + name), sizes up to 8 GiB.
 */
const BLOCK = 512;
const END_OF_ARCHIVE = Buffer.alloc(BLOCK * 2);
const MAX_SIZE = 8 ** 11 - 1;

export class TarWriter {
  readonly #out: Writable;
  #written = 0;
  #inEntry = false;

  constructor(out: Writable) {
    this.#out = out;
  }

  /** Whether the stream ends at an entry's end (no entry is being written), so another may follow. */
  get betweenEntries(): boolean {
    return !this.#inEntry;
  }

  /** Bytes written so far (headers and padding included). */
  get bytesWritten(): number {
    return this.#written;
  }

  /**
   * Writes one entry whose body is `size` bytes; `body` must yield exactly that many
   * (an object changing under the reader must not corrupt the stream that follows).
   */
  async add(name: string, size: number, body: Readable | Buffer, onChunk?: (chunk: Buffer) => void): Promise<void> {
    this.#inEntry = true;
    await this.#write(header(name, size));
    let seen = 0;
    for await (const chunk of body instanceof Buffer ? [body] : body) {
      const bytes = chunk as Buffer;
      seen += bytes.length;
      if (seen > size) throw new Error(`Archive entry ${name} is longer than its ${size} bytes`);
      onChunk?.(bytes);
      await this.#write(bytes);
    }
    if (seen !== size) throw new Error(`Archive entry ${name} ended after ${seen} of ${size} bytes`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await this.#write(Buffer.alloc(pad));
    this.#inEntry = false;
  }

  /** A folder entry (a restore must recreate empty folders too, e.g. a database's). */
  async addDirectory(name: string): Promise<void> {
    await this.#write(header(name.endsWith('/') ? name : `${name}/`, 0, '5'));
  }

  /** Writes the end-of-archive marker; the caller ends the output stream. */
  async finish(): Promise<void> {
    await this.#write(END_OF_ARCHIVE);
  }

  async #write(bytes: Buffer): Promise<void> {
    this.#written += bytes.length;
    if (this.#out.destroyed) throw closedError(this.#out);
    if (!this.#out.write(bytes)) await drained(this.#out);
  }
}

const closedError = (out: Writable) => out.errored ?? new Error('The archive stream was closed before its end');

/** Resolves when `out` takes writes again; fails when it is closed meanwhile (its reader gave up), never waits forever. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(closedError(out));
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}

function header(name: string, size: number, type: '0' | '5' = '0'): Buffer {
  if (size < 0 || size > MAX_SIZE) throw new Error(`Archive entry ${name} is too large (${size} bytes)`);
  const { prefix, base } = splitName(name);
  const h = Buffer.alloc(BLOCK);
  h.write(base, 0, 100, 'utf8');
  h.write(type === '5' ? '0000755\0' : '0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii'); // mtime 0: the same content gives the same bytes
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  // Split at a slash so that the prefix fits 155 bytes and the rest 100.
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`Archive entry name too long: ${name}`);
}

export interface TarEntry {
  /** Without a trailing slash, also for folders. */
  name: string;
  type: 'file' | 'directory';
  size: number;
  /** The entry's bytes; read it to the end (or not at all, never partly) before asking for the next entry. */
  body: Readable;
}

export const TRUNCATED_ARCHIVE = 'The archive is truncated or damaged.';

/**
 * Reads the entries of a tar stream one by one. A stream that ends before its
 * end-of-archive marker, or a header whose checksum is wrong, is refused as damaged.
 */
export async function* readTar(input: AsyncIterable<Buffer | string>): AsyncGenerator<TarEntry> {
  const source = new ChunkReader(input);
  for (;;) {
    const block = await source.read(BLOCK);
    if (!block) throw new Invalid(TRUNCATED_ARCHIVE);
    if (block.every((b) => b === 0)) return;
    const entry = parseHeader(block);
    let remaining = entry.size;
    let consumed = false;
    const body = Readable.from((async function* () {
      while (remaining > 0) {
        const chunk = await source.readUpTo(Math.min(remaining, 64 * 1024));
        if (!chunk) throw new Invalid(TRUNCATED_ARCHIVE);
        remaining -= chunk.length;
        yield chunk;
      }
      consumed = true;
    })(), { objectMode: false });
    yield { name: entry.name, type: entry.type, size: entry.size, body };
    // An entry the caller skipped is read through its own body, the one reader of the source.
    if (!consumed) for await (const _ of body) { /* skipped */ }
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad && !(await source.read(pad))) throw new Invalid(TRUNCATED_ARCHIVE);
  }
}

function parseHeader(h: Buffer): { name: string; type: TarEntry['type']; size: number } {
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/[\0 ]+$/, '').trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (stored !== sum || h.toString('ascii', 257, 262) !== 'ustar') throw new Invalid(TRUNCATED_ARCHIVE);
  const text = (start: number, length: number) => h.toString('utf8', start, start + length).replace(/\0.*$/s, '');
  const prefix = text(345, 155);
  const base = text(0, 100);
  const size = parseInt(text(124, 12).trim() || '0', 8);
  if (!Number.isFinite(size)) throw new Invalid(TRUNCATED_ARCHIVE);
  const name = (prefix ? `${prefix}/${base}` : base).replace(/\/$/, '');
  return { name, type: h.toString('ascii', 156, 157) === '5' ? 'directory' : 'file', size };
}

/** Exact-length reads over a chunked stream, holding at most one chunk. */
class ChunkReader {
  readonly #it: AsyncIterator<Buffer | string>;
  #buffer: Buffer = Buffer.alloc(0);
  #done = false;

  constructor(input: AsyncIterable<Buffer | string>) {
    this.#it = input[Symbol.asyncIterator]();
  }

  /** Exactly n bytes, or null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    const parts: Buffer[] = [];
    let need = n;
    while (need > 0) {
      const chunk = await this.readUpTo(need);
      if (!chunk) return null;
      parts.push(chunk);
      need -= chunk.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Between 1 and n bytes, or null at the end. */
  async readUpTo(n: number): Promise<Buffer | null> {
    if (this.#buffer.length === 0) {
      if (this.#done) return null;
      const next = await this.#it.next();
      if (next.done) {
        this.#done = true;
        return null;
      }
      this.#buffer = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      if (this.#buffer.length === 0) return this.readUpTo(n);
    }
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(out.length);
    return out;
  }
}
