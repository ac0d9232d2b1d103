import { MEDIA_TYPES } from '@ledgerline/contracts/media-types.ts';

/** Bytes read from the start of a file before its type is judged (tar's magic sits at 257). */
export const SIGNATURE_BYTES = 4096;

const bytesAt = (head: Buffer, offset: number, ...expected: number[]) => expected.every((b, i) => head[offset + i] === b);
const asciiAt = (head: Buffer, offset: number, text: string) => head.subarray(offset, offset + text.length).toString('latin1') === text;

const jpeg = (h: Buffer) => bytesAt(h, 0, 0xff, 0xd8, 0xff);
const png = (h: Buffer) => bytesAt(h, 0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const gif = (h: Buffer) => asciiAt(h, 0, 'GIF87a') || asciiAt(h, 0, 'GIF89a');
const riff = (kind: string) => (h: Buffer) => asciiAt(h, 0, 'RIFF') && asciiAt(h, 8, kind);
const ole2 = (h: Buffer) => bytesAt(h, 0, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
const zip = (h: Buffer) => bytesAt(h, 0, 0x50, 0x4b, 0x03, 0x04) || bytesAt(h, 0, 0x50, 0x4b, 0x05, 0x06) || bytesAt(h, 0, 0x50, 0x4b, 0x07, 0x08);
const pdf = (h: Buffer) => h.subarray(0, 1024).includes('%PDF-');
const rtf = (h: Buffer) => asciiAt(textStart(h), 0, '{\\rtf');
const isoMedia = (h: Buffer) => ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].some((box) => asciiAt(h, 4, box));
const mp3 = (h: Buffer) => asciiAt(h, 0, 'ID3') || (h[0] === 0xff && (h[1]! & 0xe0) === 0xe0);

/** The start of a text after a UTF-8 byte order mark and white space. */
function textStart(h: Buffer): Buffer {
  let at = bytesAt(h, 0, 0xef, 0xbb, 0xbf) ? 3 : 0;
  while (at < h.length && [0x20, 0x09, 0x0a, 0x0d].includes(h[at]!)) at++;
  return h.subarray(at);
}

/**
 * Binary formats that start with printable bytes: a "text" file that starts like one of
 * them is not text (executables such as MZ or Mach-O carry NUL bytes early anyway).
 */
const BINARY: readonly ((h: Buffer) => boolean)[] = [
  jpeg, png, gif, ole2, zip, (h) => asciiAt(h, 0, '%PDF-'), (h) => bytesAt(h, 0, 0x7f, 0x45, 0x4c, 0x46), (h) => bytesAt(h, 0, 0x1f, 0x8b),
  (h) => asciiAt(h, 0, 'Rar!'), (h) => bytesAt(h, 0, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c), (h) => bytesAt(h, 0, 0xca, 0xfe, 0xba, 0xbe), (h) => bytesAt(h, 0, 0xcf, 0xfa, 0xed, 0xfe),
];

/**
 * Text: no NUL byte in the first bytes (binaries have them early; UTF-16 text with its
 * byte order mark is the exception) and not the start of a known binary format.
 */
function text(h: Buffer): boolean {
  if (bytesAt(h, 0, 0xff, 0xfe) || bytesAt(h, 0, 0xfe, 0xff)) return true;
  return !h.includes(0) && !BINARY.some((isBinary) => isBinary(h));
}
const markup = (h: Buffer) => text(h) && textStart(h)[0] === 0x3c; // '<'
const json = (h: Buffer) => text(h) && (textStart(h).length === 0 || '{["-0123456789tfn'.includes(String.fromCharCode(textStart(h)[0]!)));
const svg = (h: Buffer) => markup(h) && h.toString('utf8').toLowerCase().includes('<svg');

/**
 * What the first bytes of a file of each known extension must look like (magic numbers;
 * text formats are checked for being text). Legacy Office names also cover what Office
 * itself saves under them: RTF as .doc, HTML or text tables as .xls.
 */
const SIGNATURES: Readonly<Record<string, (head: Buffer) => boolean>> = {
  jpg: jpeg,
  jpeg,
  png,
  gif,
  bmp: (h) => asciiAt(h, 0, 'BM'),
  webp: riff('WEBP'),
  svg,
  ico: (h) => bytesAt(h, 0, 0x00, 0x00, 0x01, 0x00) || bytesAt(h, 0, 0x00, 0x00, 0x02, 0x00),
  pdf,
  doc: (h) => ole2(h) || rtf(h),
  docx: zip,
  xls: (h) => ole2(h) || text(h),
  xlsx: zip,
  ppt: ole2,
  pptx: zip,
  txt: text,
  rtf,
  csv: text,
  xml: markup,
  json,
  zip,
  rar: (h) => asciiAt(h, 0, 'Rar!\u001a\u0007'),
  '7z': (h) => bytesAt(h, 0, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c),
  tar: (h) => asciiAt(h, 257, 'ustar'),
  gz: (h) => bytesAt(h, 0, 0x1f, 0x8b),
  mp3,
  wav: riff('WAVE'),
  ogg: (h) => asciiAt(h, 0, 'OggS'),
  flac: (h) => asciiAt(h, 0, 'fLaC'),
  mp4: isoMedia,
  avi: riff('AVI '),
  mov: isoMedia,
  wmv: (h) => bytesAt(h, 0, 0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11),
  mkv: (h) => bytesAt(h, 0, 0x1a, 0x45, 0xdf, 0xa3),
};

// Every extension the portal names a media type for has a check: a new type needs one.
for (const extension of Object.keys(MEDIA_TYPES)) {
  if (!SIGNATURES[extension]) throw new Error(`No content signature for .${extension}`);
}

/**
 * Whether the first bytes fit the extension. Extensions without a media type (served as
 * generic binary, always as a download) are not judged.
 */
export function contentMatchesExtension(extension: string, head: Buffer): boolean {
  const check = Object.hasOwn(SIGNATURES, extension) ? SIGNATURES[extension] : undefined;
  return check ? check(head) : true;
}
