/**
 * The one `Range` request header form downloads honour (RFC 9110 §14): a single byte range,
 * `bytes=a-b`, `bytes=a-` or the suffix `bytes=-n`. Several ranges, other units and
 * malformed headers are ignored (the whole body is served, which the RFC allows); a
 * well-formed range that starts beyond the end is unsatisfiable (416).
 */
export type RangeRequest =
  | { kind: 'none' }
  | { kind: 'unsatisfiable' }
  | { kind: 'range'; start: number; end: number };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'none' };
  const m = SINGLE_RANGE.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'none' };
  const first = m[1] === '' ? undefined : Number(m[1]);
  const last = m[2] === '' ? undefined : Number(m[2]);
  if ((first !== undefined && !Number.isSafeInteger(first)) || (last !== undefined && !Number.isSafeInteger(last))) return { kind: 'none' };
  if (first === undefined) {
    // Suffix: the last n bytes; zero of them cannot be served.
    if (last === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - last!), end: size - 1 };
  }
  if (last !== undefined && last < first) return { kind: 'none' };
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start: first, end: Math.min(last ?? size - 1, size - 1) };
}
