import { fileNameExtension } from '@ledgerline/contracts/media-types.ts';

/** Longest name kept, in characters (a file name on common filesystems is 255 bytes). */
const MAX_NAME_CHARS = 200;

/** Keeps the extension when a long name is cut. */
function limit(name: string): string {
  const chars = [...name];
  if (chars.length <= MAX_NAME_CHARS) return name;
  const ext = fileNameExtension(name);
  const keep = ext && ext.length < 20 ? `.${ext}` : '';
  return chars.slice(0, MAX_NAME_CHARS - keep.length).join('').trimEnd() + keep;
}

/**
 * The name as the user chose it, made harmless: the last path segment only (some
 * browsers send a whole path), quotes as browsers escape them decoded, Unicode in NFC, no control or bidirectional-override
 * characters, trimmed and at most 200 characters. Empty means no file was chosen.
 */
export function cleanOriginalName(raw: string | undefined): string {
  // Browsers send ", CR and LF of a file name as %22, %0D and %0A (HTML multipart encoding).
  const decoded = (raw ?? '').replace(/%22/g, '"').replace(/%0[ad]/gi, '');
  const base = decoded.split(/[\\/]/).pop() ?? '';
  return limit(base.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim());
}

/**
 * The name a file is stored and served under (`filename`): the original without the
 * characters file systems, shells and headers treat specially, and never a dot file.
 * Storage keys do not use it at all (they are generated).
 */
export function storedFileName(originalName: string): string {
  const safe = originalName.replace(/[<>:"/\\|?*%;]/g, '_').replace(/\s+/g, ' ').replace(/^[.\s]+/, '').trim();
  return limit(safe || 'file');
}
