import type { Readable } from 'node:stream';

/**
 * The stored file could not be read (storage down, object missing, stream broken). Unlike bad
 * content, which yields '', this is the caller's problem to retry, so it is rethrown as is.
 */
export class InputReadError extends Error {
  constructor(cause: unknown) {
    super(`Could not read the file to extract its text: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'InputReadError';
  }
}

/**
 * One pass over a file's bytes: a peek at its head (for sniffing), then either streamed
 * chunks or the whole file up to a byte limit. The stream is destroyed as soon as the
 * reader stops, so an early stop (text cap reached, file over the limit) leaves no open
 * file handle or socket behind.
 */
export class InputSource {
  private readonly stream: Readable;
  private readonly iterator: AsyncIterator<unknown>;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private ended = false;

  constructor(stream: Readable) {
    this.stream = stream;
    this.iterator = stream[Symbol.asyncIterator]();
  }

  /** At least `bytes` bytes from the start (fewer only if the file is shorter); nothing is consumed. */
  async head(bytes: number): Promise<Buffer> {
    while (this.bufferedBytes < bytes && !this.ended) {
      const chunk = await this.next();
      if (chunk) {
        this.buffered.push(chunk);
        this.bufferedBytes += chunk.length;
      }
    }
    const all = Buffer.concat(this.buffered);
    this.buffered = [all];
    return all.subarray(0, bytes);
  }

  /** The bytes in order, head included; `maxBytes` bounds how much is read in total. */
  async *chunks(maxBytes = Number.POSITIVE_INFINITY): AsyncGenerator<Buffer> {
    let read = 0;
    try {
      for (;;) {
        const chunk = this.buffered.length > 0 ? this.buffered.shift() : await this.next();
        if (!chunk) return;
        const piece = read + chunk.length > maxBytes ? chunk.subarray(0, maxBytes - read) : chunk;
        read += piece.length;
        if (piece.length > 0) yield piece;
        if (read >= maxBytes) return;
      }
    } finally {
      this.close();
    }
  }

  /** The whole file, or undefined (without reading on) once it proves larger than `maxBytes`. */
  async readAll(maxBytes: number): Promise<Buffer | undefined> {
    const parts: Buffer[] = [];
    let total = 0;
    for await (const chunk of this.chunks()) {
      total += chunk.length;
      if (total > maxBytes) return undefined;
      parts.push(chunk);
    }
    return Buffer.concat(parts, total);
  }

  close(): void {
    this.ended = true;
    this.buffered = [];
    if (!this.stream.destroyed) this.stream.destroy();
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.ended) return undefined;
    let result: IteratorResult<unknown>;
    try {
      result = await this.iterator.next();
    } catch (cause) {
      this.close();
      throw new InputReadError(cause);
    }
    if (result.done) {
      this.ended = true;
      return undefined;
    }
    const value = result.value;
    if (Buffer.isBuffer(value)) return value;
    if (typeof value === 'string') return Buffer.from(value);
    if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    throw new TypeError('ExtractionInput.open() must return a byte stream');
  }
}
