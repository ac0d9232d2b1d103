import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A ZIP archive written as a stream: each entry stored (documents are compressed formats
 * already, and storing keeps the CPU and the memory flat), its CRC and sizes in a data
 * descriptor after the bytes, the central directory at the end. Holds only the directory's
 * few bytes per entry.
 *
 * ZIP64 where the classic fields overflow: past 65,535 entries, past 4 GiB of archive (an
 * entry's offset, the directory's place or size) and for an entry of 4 GiB or more. That
 * last one must be known before its bytes (its local header and data descriptor carry
 * 64-bit sizes), so `add` takes the entry's size when the caller has it; an entry that
 * was not announced as large and grows past 4 GiB is refused.
 */
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
/** Version 4.5: ZIP64. */
const ZIP64_VERSION = 45;
const CLASSIC_VERSION = 20;
/** UTF-8 names; sizes in the data descriptor. */
const FLAGS = 0x0808;

interface Written { name: Buffer; crc: number; size: number; offset: number; time: number; date: number }

export class ZipWriter {
  readonly #out: Writable;
  readonly #entries: Written[] = [];
  #offset = 0;

  constructor(out: Writable) {
    this.#out = out;
  }

  /** `size`, when known, lets an entry of 4 GiB or more be written (a Buffer's is known). */
  async add(name: string, body: Readable | Buffer, modified = new Date(), size: number | undefined = body instanceof Buffer ? body.length : undefined): Promise<void> {
    const encoded = Buffer.from(name, 'utf8');
    const large = size !== undefined && size >= MAX_32;
    const { time, date } = dosTime(modified);
    const offset = this.#offset;
    // A large entry's local header carries a ZIP64 extra field (sizes 0: they follow in the descriptor).
    const extra = large ? zip64Extra([0, 0]) : Buffer.alloc(0);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(large ? ZIP64_VERSION : CLASSIC_VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    if (large) header.fill(0xff, 18, 26); // the sizes are in the ZIP64 field (and after the bytes)
    header.writeUInt16LE(encoded.length, 26);
    header.writeUInt16LE(extra.length, 28);
    await this.#write(Buffer.concat([header, encoded, extra]));
    let crc = 0;
    let written = 0;
    for await (const chunk of body instanceof Buffer ? [body] : body) {
      const bytes = chunk as Buffer;
      crc = crc32(bytes, crc);
      written += bytes.length;
      if (!large && written >= MAX_32) throw new Error(`The ZIP entry ${name} passes 4 GiB without its size given`);
      await this.#write(bytes);
    }
    const descriptor = Buffer.alloc(large ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (large) {
      descriptor.writeBigUInt64LE(BigInt(written), 8);
      descriptor.writeBigUInt64LE(BigInt(written), 16);
    } else {
      descriptor.writeUInt32LE(written, 8);
      descriptor.writeUInt32LE(written, 12);
    }
    await this.#write(descriptor);
    this.#entries.push({ name: encoded, crc: crc >>> 0, size: written, offset, time, date });
  }

  /** Writes the central directory (with the ZIP64 end records when needed); the caller ends the stream. */
  async finish(): Promise<void> {
    const start = this.#offset;
    for (const e of this.#entries) {
      // ZIP64 extra: the overflowing fields, in this order, each 8 bytes.
      const wide = [...(e.size >= MAX_32 ? [e.size, e.size] : []), ...(e.offset >= MAX_32 ? [e.offset] : [])];
      const extra = wide.length ? zip64Extra(wide) : Buffer.alloc(0);
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(wide.length ? ZIP64_VERSION : CLASSIC_VERSION, 4);
      h.writeUInt16LE(wide.length ? ZIP64_VERSION : CLASSIC_VERSION, 6);
      h.writeUInt16LE(FLAGS, 8);
      h.writeUInt16LE(0, 10);
      h.writeUInt16LE(e.time, 12);
      h.writeUInt16LE(e.date, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(Math.min(e.size, MAX_32), 20);
      h.writeUInt32LE(Math.min(e.size, MAX_32), 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt16LE(extra.length, 30);
      h.writeUInt32LE(Math.min(e.offset, MAX_32), 42);
      await this.#write(Buffer.concat([h, e.name, extra]));
    }
    const size = this.#offset - start;
    const count = this.#entries.length;
    if (count >= MAX_16 || size >= MAX_32 || start >= MAX_32) await this.#zip64End(count, size, start);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX_16), 8);
    end.writeUInt16LE(Math.min(count, MAX_16), 10);
    end.writeUInt32LE(Math.min(size, MAX_32), 12);
    end.writeUInt32LE(Math.min(start, MAX_32), 16);
    await this.#write(end);
  }

  /** The ZIP64 end of central directory record and its locator, just before the classic end record. */
  async #zip64End(count: number, size: number, start: number): Promise<void> {
    const at = this.#offset;
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4); // the record's size after this field
    record.writeUInt16LE(ZIP64_VERSION, 12);
    record.writeUInt16LE(ZIP64_VERSION, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(start), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(at), 8);
    locator.writeUInt32LE(1, 16);
    await this.#write(Buffer.concat([record, locator]));
  }

  async #write(bytes: Buffer): Promise<void> {
    this.#offset += bytes.length;
    if (!this.#out.write(bytes)) await once(this.#out, 'drain');
  }
}

/** The ZIP64 extended information extra field (id 1) with these 8-byte values. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  values.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + i * 8));
  return extra;
}

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((Math.max(d.getUTCFullYear(), 1980) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}
