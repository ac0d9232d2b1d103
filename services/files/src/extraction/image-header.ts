/**
 * An image's pixel size, read from its header without decoding it. OCR decodes the whole
 * bitmap inside the WASM heap, so a small file that claims a huge canvas (a decompression
 * bomb) is refused before it gets there. Undefined when the header is not readable.
 */
export interface ImageSize {
  width: number;
  height: number;
}

export function readImageSize(bytes: Buffer): ImageSize | undefined {
  try {
    if (bytes.length < 24) return undefined;
    if (bytes.readUInt32BE(0) === 0x89504e47) return valid(bytes.readUInt32BE(16), bytes.readUInt32BE(20)); // PNG IHDR
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
    if (bytes.toString('latin1', 0, 4) === 'GIF8') return valid(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
    if (bytes.toString('latin1', 0, 2) === 'BM') return valid(bytes.readInt32LE(18), Math.abs(bytes.readInt32LE(22)));
    if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return webpSize(bytes);
    if (bytes.toString('latin1', 0, 4) === 'II*\0') return tiffSize(bytes, true);
    if (bytes.toString('latin1', 0, 4) === 'MM\0*') return tiffSize(bytes, false);
    return undefined;
  } catch {
    // A header pointing past the end of the file: not an image we can read.
    return undefined;
  }
}

function valid(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function jpegSize(bytes: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return valid(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame header
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return valid(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return valid(1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
  }
  if (chunk === 'VP8 ') return valid(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  return undefined;
}

function tiffSize(bytes: Buffer, littleEndian: boolean): ImageSize | undefined {
  const u16 = (at: number): number => (littleEndian ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number): number => (littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const ifd = u32(4);
  const count = u16(ifd);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    const tag = u16(entry);
    const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return valid(width, height);
}
