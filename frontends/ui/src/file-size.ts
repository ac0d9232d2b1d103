const BYTES_PER_MB = 1024 * 1024;

/** File sizes in MB with 2 decimals (spec 001 "Firm documents", spec 000 §9 administrator dashboard). */
export function formatMegabytes(bytes: number | null | undefined): string {
  const value = Number.isFinite(bytes) && (bytes as number) > 0 ? (bytes as number) / BYTES_PER_MB : 0;
  return `${value.toFixed(2)} MB`;
}

/** A short human size for lists of files being chosen: bytes, KB or MB. */
export function formatFileSize(bytes: number): string {
  if (!(bytes >= 1024)) return `${Math.max(0, Math.round(bytes || 0))} B`;
  if (bytes < BYTES_PER_MB) return `${(bytes / 1024).toFixed(1)} KB`;
  return formatMegabytes(bytes);
}

/** A size of any magnitude with its unit, as an archive's: "12.3 MB", "4.2 GB". */
export function formatByteSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(unit ? 1 : 0)} ${units[unit]}`;
}
