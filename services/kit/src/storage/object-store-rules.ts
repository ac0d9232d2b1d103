import { Invalid } from '../errors.ts';
import type { ByteRange } from './object-store.ts';

/** S3's own key limit; the local store maps each segment to a file name (255 bytes on common filesystems). */
const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
// C0 controls (NUL included) and DEL; backslash is a path separator on Windows.
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/**
 * Both adapters accept exactly the same keys, so code that works on the embedded
 * store works on S3. Keys are relative `/`-separated paths that can never leave the
 * local root: no absolute paths, no empty, `.` or `..` segments, no control characters.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key === '') throw new Invalid('Object key must not be empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new Invalid(`Object key is longer than ${MAX_KEY_BYTES} bytes`);
  if (FORBIDDEN.test(key)) throw new Invalid('Object key contains a control character or backslash');
  for (const segment of key.split('/')) {
    if (segment === '') throw new Invalid('Object key must be relative and must not contain empty segments');
    if (segment === '.' || segment === '..') throw new Invalid('Object key must not contain "." or ".." segments');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw new Invalid(`Object key segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
}

export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new Invalid('Range start must be a non-negative integer');
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) throw new Invalid('Range end must be an integer not before its start');
}

export const rangeNotSatisfiable = (): Invalid => new Invalid('Requested range starts beyond the end of the object');

/**
 * The content type to store: S3 sends it as a header, so it must be printable ASCII
 * (the local store holds it to the same rule). Without one, the HTTP default for bytes
 * of unknown type.
 */
export function storedContentType(contentType: string | undefined): string {
  if (contentType === undefined) return 'application/octet-stream';
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(contentType)) throw new Invalid('Content type must be printable ASCII of at most 255 characters');
  return contentType;
}
