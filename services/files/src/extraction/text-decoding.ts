/**
 * Which character encoding a text file uses, judged from its first bytes: a byte-order mark
 * decides; without one, UTF-16 shows itself by NUL bytes in every other position; valid
 * UTF-8 is UTF-8; anything else is taken as Windows-1252 (the usual legacy encoding of
 * exported CSVs and logs, and a superset of Latin-1 for printable text). A head with other
 * NUL or control bytes is binary, not text.
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface TextSniff {
  encoding: TextEncoding;
  /** False when the head looks like binary data rather than text. */
  isText: boolean;
}

export function sniffTextEncoding(head: Uint8Array): TextSniff {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', isText: true };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', isText: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', isText: true };

  const utf16 = guessBomlessUtf16(head);
  if (utf16) return { encoding: utf16, isText: true };

  let suspicious = 0;
  for (const byte of head) {
    if (byte === 0) return { encoding: 'utf-8', isText: false };
    // Tab, line feed, vertical tab, form feed, carriage return and escape are normal in text files.
    if (byte < 0x20 && (byte < 0x09 || byte > 0x0d) && byte !== 0x1b) suspicious += 1;
  }
  if (suspicious > Math.max(2, head.length / 100)) return { encoding: 'utf-8', isText: false };
  return { encoding: isUtf8(head) ? 'utf-8' : 'windows-1252', isText: true };
}

/** A streaming decoder for the sniffed encoding; a BOM is dropped, bad bytes become U+FFFD. */
export function createTextDecoder(encoding: TextEncoding): TextDecoder {
  return new TextDecoder(encoding, { fatal: false, ignoreBOM: false });
}

/** Decodes a whole buffer (the formats that are parsed in one piece, e.g. JSON). */
export function decodeText(bytes: Uint8Array): string | undefined {
  const sniff = sniffTextEncoding(bytes.subarray(0, 64 * 1024));
  return sniff.isText ? createTextDecoder(sniff.encoding).decode(bytes) : undefined;
}

function guessBomlessUtf16(head: Uint8Array): TextEncoding | undefined {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenZeros += 1;
    if (head[i + 1] === 0) oddZeros += 1;
  }
  // ASCII-range text in UTF-16 has a zero high byte in (nearly) every code unit.
  if (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}

function isUtf8(head: Uint8Array): boolean {
  // The head may end inside a multi-byte sequence: leave out an incomplete tail.
  let end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = head[end - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      if (back < needed) end -= back;
    }
    break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}
