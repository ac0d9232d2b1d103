import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A ZIP archive written as a stream: each entry stored (documents are compressed formats
 * already, and storing keeps the CPU and the memory flat), its CRC and sizes in a data
 * descriptor after the bytes, the central directory at the end. Holds only the directory's
 * few bytes per entry. Without ZIP64: an archive stays under 4 GiB (`add` refuses beyond).
 */
const LIMIT = 0xffffffff;

interface Written { name: Buffer; crc: number; size: number; offset: number; time: number; date: number }

export class ZipWriter {
  readonly #out: Writable;
  readonly #entries: Written[] = [];
  #offset = 0;

  constructor(out: Writable) {
    this.#out = out;
  }

  async add(name: string, body: Readable | Buffer, modified = new Date()): Promise<void> {
    const encoded = Buffer.from(name, 'utf8');
    const { time, date } = dosTime(modified);
    const offset = this.#offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // sizes in the data descriptor; UTF-8 names
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt16LE(encoded.length, 26);
    await this.#write(header);
    await this.#write(encoded);
    let crc = 0;
    let size = 0;
    for await (const chunk of body instanceof Buffer ? [body] : body) {
      const bytes = chunk as Buffer;
      crc = crc32(bytes, crc);
      size += bytes.length;
      if (this.#offset + bytes.length > LIMIT) throw new Error('The ZIP archive would pass 4 GiB');
      await this.#write(bytes);
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.#write(descriptor);
    this.#entries.push({ name: encoded, crc: crc >>> 0, size, offset, time, date });
  }

  /** Writes the central directory; the caller ends the stream. */
  async finish(): Promise<void> {
    const start = this.#offset;
    for (const e of this.#entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(0, 10);
      h.writeUInt16LE(e.time, 12);
      h.writeUInt16LE(e.date, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.size, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      await this.#write(h);
      await this.#write(e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.#entries.length, 8);
    end.writeUInt16LE(this.#entries.length, 10);
    end.writeUInt32LE(this.#offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.#write(end);
  }

  async #write(bytes: Buffer): Promise<void> {
    this.#offset += bytes.length;
    if (!this.#out.write(bytes)) await once(this.#out, 'drain');
  }
}

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((Math.max(d.getUTCFullYear(), 1980) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}
