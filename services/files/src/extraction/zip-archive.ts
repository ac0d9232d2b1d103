import { createInflateRaw } from 'node:zlib';

/**
 * A read-only view of a ZIP file held in memory (the OOXML formats are ZIPs), read through
 * its central directory. Entries are inflated as streams (zlib runs off the main thread and
 * only one output chunk is held at a time), and every inflated byte is counted against a
 * budget, so a zip bomb costs at most the budget in work, never in memory.
 * ZIP64 and encrypted entries are not supported (an OOXML document never needs them).
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** As declared: a bomb that declares its size is refused before inflating; one that lies is stopped by the budget. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

export class CorruptZip extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptZip';
  }
}

/** How many inflated bytes one document may produce in total. */
export class InflateBudget {
  private remaining: number;
  constructor(bytes: number) {
    this.remaining = bytes;
  }
  take(bytes: number): void {
    this.remaining -= bytes;
    if (this.remaining < 0) throw new CorruptZip('The archive inflates beyond the extraction budget.');
  }
  covers(bytes: number): boolean {
    return bytes <= this.remaining;
  }
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const OUTPUT_CHUNK_BYTES = 64 * 1024;

export class ZipArchive {
  private readonly bytes: Buffer;
  readonly entries: ReadonlyMap<string, ZipEntry>;

  private constructor(bytes: Buffer, entries: Map<string, ZipEntry>) {
    this.bytes = bytes;
    this.entries = entries;
  }

  static open(bytes: Buffer): ZipArchive {
    const eocd = findEndOfCentralDirectory(bytes);
    const count = bytes.readUInt16LE(eocd + 10);
    const directorySize = bytes.readUInt32LE(eocd + 12);
    let offset = bytes.readUInt32LE(eocd + 16);
    if (offset + directorySize > bytes.length) throw new CorruptZip('The central directory lies outside the file.');

    const names = new TextDecoder('utf-8');
    const entries = new Map<string, ZipEntry>();
    for (let i = 0; i < count; i += 1) {
      if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new CorruptZip('Bad central directory entry.');
      const flags = bytes.readUInt16LE(offset + 8);
      const method = bytes.readUInt16LE(offset + 10);
      const compressedSize = bytes.readUInt32LE(offset + 20);
      const uncompressedSize = bytes.readUInt32LE(offset + 24);
      const nameLength = bytes.readUInt16LE(offset + 28);
      const extraLength = bytes.readUInt16LE(offset + 30);
      const commentLength = bytes.readUInt16LE(offset + 32);
      const localHeaderOffset = bytes.readUInt32LE(offset + 42);
      const name = names.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
      const encrypted = (flags & 1) !== 0;
      if (!encrypted && (method === 0 || method === 8)) entries.set(name, { name, method, compressedSize, uncompressedSize, localHeaderOffset });
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return new ZipArchive(bytes, entries);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's content in pieces (decompressed); stop early by leaving the loop. */
  async *read(name: string, budget: InflateBudget): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) return;
    if (!budget.covers(entry.uncompressedSize)) throw new CorruptZip(`${name} declares more than the extraction budget.`);
    const data = this.compressedData(entry);
    if (entry.method === 0) {
      for (let at = 0; at < data.length; at += OUTPUT_CHUNK_BYTES) {
        const piece = data.subarray(at, at + OUTPUT_CHUNK_BYTES);
        budget.take(piece.length);
        yield piece;
      }
      return;
    }
    const inflater = createInflateRaw({ chunkSize: OUTPUT_CHUNK_BYTES });
    inflater.end(data);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        budget.take(chunk.length);
        yield chunk;
      }
    } finally {
      inflater.destroy();
    }
  }

  private compressedData(entry: ZipEntry): Buffer {
    const at = entry.localHeaderOffset;
    if (at + 30 > this.bytes.length || this.bytes.readUInt32LE(at) !== LOCAL_FILE_HEADER) throw new CorruptZip(`Bad local header of ${entry.name}.`);
    const start = at + 30 + this.bytes.readUInt16LE(at + 26) + this.bytes.readUInt16LE(at + 28);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw new CorruptZip(`${entry.name} is truncated.`);
    return this.bytes.subarray(start, end);
  }
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65535 bytes, at the very end.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new CorruptZip('No end of central directory: not a complete ZIP file.');
}
