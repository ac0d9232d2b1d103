import { crc32, deflateSync } from 'node:zlib';

/**
 * A rendered page as an 8-bit grayscale PNG, fast: a quarter of the RGBA bytes and zlib at
 * its quickest level. Skia's own PNG encoder takes a second for an A4 page at 300 dpi; this
 * takes a few dozen milliseconds, and Tesseract converts to gray anyway, so nothing is lost.
 */
export function encodeGrayscalePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  const stride = width + 1; // each row starts with its filter type (0: none)
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    let source = y * width * 4;
    let target = y * stride + 1;
    for (let x = 0; x < width; x += 1, source += 4, target += 1) {
      // Rec. 601 luma in integer arithmetic; the canvas is opaque (painted on white), so alpha is ignored.
      raw[target] = (rgba[source]! * 77 + rgba[source + 1]! * 150 + rgba[source + 2]! * 29) >> 8;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}
