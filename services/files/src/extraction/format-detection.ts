import { sniffTextEncoding, type TextEncoding } from './text-decoding.ts';

/**
 * Which extractor reads a file. The bytes' signature wins over the name and media type
 * (a PDF uploaded as "scan.txt" is still a PDF); the name and media type decide among text
 * formats; a file that claims a binary format its bytes do not carry is corrupt, and a file
 * nobody claims is read as text only when its head looks like text.
 */
export type ExtractionFormat =
  | 'text' | 'csv' | 'tsv' | 'json' | 'xml' | 'html' | 'rtf'
  | 'pdf' | 'ooxml' | 'image' | 'none';

export interface DetectedFormat {
  format: ExtractionFormat;
  /** For the text formats: how to decode the bytes. */
  encoding: TextEncoding;
}

/** How many bytes of the head `detectFormat` wants to see. */
export const SNIFF_BYTES = 8 * 1024;

type Claim = ExtractionFormat | 'docx' | 'xlsx' | 'pptx';

const EXTENSION_CLAIMS: Record<string, Claim> = {
  txt: 'text', text: 'text', md: 'text', markdown: 'text', log: 'text', ini: 'text', cfg: 'text', conf: 'text',
  yaml: 'text', yml: 'text', toml: 'text', ics: 'text', vcf: 'text', tex: 'text', sql: 'text', jsonl: 'text', ndjson: 'text',
  csv: 'csv', tsv: 'tsv', tab: 'tsv',
  json: 'json', geojson: 'json',
  xml: 'xml', svg: 'xml', xsd: 'xml', xsl: 'xml', xslt: 'xml', rss: 'xml', atom: 'xml', kml: 'xml', gpx: 'xml', xbrl: 'xml',
  html: 'html', htm: 'html', xhtml: 'html',
  rtf: 'rtf',
  pdf: 'pdf',
  docx: 'docx', docm: 'docx', dotx: 'docx', dotm: 'docx',
  xlsx: 'xlsx', xlsm: 'xlsx', xltx: 'xlsx', xltm: 'xlsx',
  pptx: 'pptx', pptm: 'pptx', ppsx: 'pptx', potx: 'pptx',
  png: 'image', jpg: 'image', jpeg: 'image', jpe: 'image', jfif: 'image', gif: 'image', bmp: 'image', dib: 'image',
  webp: 'image', tif: 'image', tiff: 'image',
};

const MEDIA_TYPE_CLAIMS: Record<string, Claim> = {
  'text/csv': 'csv', 'application/csv': 'csv', 'text/comma-separated-values': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/json': 'json', 'text/json': 'json',
  'application/xml': 'xml', 'text/xml': 'xml',
  'text/html': 'html', 'application/xhtml+xml': 'html',
  'application/rtf': 'rtf', 'text/rtf': 'rtf', 'application/x-rtf': 'rtf',
  'application/pdf': 'pdf', 'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

const BINARY_CLAIMS = new Set<Claim>(['pdf', 'docx', 'xlsx', 'pptx', 'image']);

export function detectFormat(originalName: string, mimeType: string, head: Uint8Array): DetectedFormat {
  const bySignature = signatureFormat(head);
  if (bySignature) return { format: bySignature, encoding: 'utf-8' };

  const claim = claimFromName(originalName) ?? claimFromMediaType(mimeType);
  if (claim && BINARY_CLAIMS.has(claim)) return { format: 'none', encoding: 'utf-8' };

  const sniff = sniffTextEncoding(head);
  if (!sniff.isText) return { format: 'none', encoding: sniff.encoding };
  // An .rtf without the RTF signature is not RTF; as text it still has words.
  if (claim && claim !== 'rtf') return { format: claim as ExtractionFormat, encoding: sniff.encoding };
  return { format: sniffTextFormat(head, sniff.encoding), encoding: sniff.encoding };
}

function signatureFormat(head: Uint8Array): ExtractionFormat | undefined {
  const startsWith = (bytes: number[], offset = 0): boolean => bytes.every((byte, i) => head[offset + i] === byte);
  // PDF readers accept junk before the header within the first KiB, and so do we.
  if (indexOfAscii(head.subarray(0, 1024), '%PDF-') >= 0) return 'pdf';
  if (startsWith([0x50, 0x4b, 0x03, 0x04])) return 'ooxml';
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image';
  if (startsWith([0x47, 0x49, 0x46, 0x38])) return 'image'; // GIF8
  if (startsWith([0x42, 0x4d]) && head.length >= 26 && readUint32Le(head, 14) >= 12 && readUint32Le(head, 14) <= 124) return 'image'; // BM + a DIB header size
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return 'image'; // RIFF....WEBP
  if (startsWith([0x49, 0x49, 0x2a, 0x00]) || startsWith([0x4d, 0x4d, 0x00, 0x2a])) return 'image'; // TIFF
  if (indexOfAscii(head.subarray(0, 16), '{\\rtf') === skipBom(head)) return 'rtf';
  return undefined;
}

function sniffTextFormat(head: Uint8Array, encoding: TextEncoding): ExtractionFormat {
  const start = new TextDecoder(encoding).decode(head.subarray(0, 1024)).trimStart().slice(0, 512).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  if (start.startsWith('<?xml') || /^<[a-z_][\w.:-]*[\s/>]/.test(start)) return /<html[\s>]/.test(start) ? 'html' : 'xml';
  if (start.startsWith('{\\rtf')) return 'rtf';
  return 'text';
}

function claimFromName(originalName: string): Claim | undefined {
  const dot = originalName.lastIndexOf('.');
  if (dot < 0) return undefined;
  return EXTENSION_CLAIMS[originalName.slice(dot + 1).trim().toLowerCase()];
}

function claimFromMediaType(mimeType: string): Claim | undefined {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (!type) return undefined;
  const exact = MEDIA_TYPE_CLAIMS[type];
  if (exact) return exact;
  if (type.endsWith('+json')) return 'json';
  if (type.endsWith('+xml')) return 'xml'; // image/svg+xml included: its text elements are words
  if (type.startsWith('image/') && ['png', 'jpeg', 'pjpeg', 'gif', 'bmp', 'x-ms-bmp', 'webp', 'tiff'].includes(type.slice(6))) return 'image';
  if (type.startsWith('text/')) return 'text';
  return undefined;
}

function indexOfAscii(bytes: Uint8Array, needle: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, 0, 'latin1');
}

function skipBom(head: Uint8Array): number {
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
}

function readUint32Le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16)) + bytes[offset + 3]! * 0x1000000;
}
