/**
 * A `Content-Disposition` header for a file name of any script (RFC 6266 with RFC 8187):
 * an ASCII-only `filename` for old clients, and `filename*=UTF-8''…` carrying the real
 * name. Quotes, backslashes and control characters never reach the header.
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const clean = fileName.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'download';
  const ascii = clean.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`;
}

/** RFC 8187 value characters: attr-char stays, everything else is percent-encoded UTF-8. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
