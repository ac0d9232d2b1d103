/**
 * The one CSV cell function of the product: every CSV it writes (security events, a client's
 * `index.csv`, …) goes through it. RFC 4180 quoting, and no cell a spreadsheet would run as a
 * formula: a value starting with `=`, `+`, `-`, `@`, a tab or a carriage return (what Excel,
 * LibreOffice and Google Sheets read as the start of a formula) gets a leading `'`, which
 * spreadsheets show as text. Names come from clients and link uploads, so they are never trusted.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line of cells (without its line end). */
export const csvRow = (values: readonly unknown[]): string => values.map(csvCell).join(',');

/** A whole CSV document: a header and rows, each line ended by CRLF. */
export const csvDocument = (header: readonly string[], rows: readonly (readonly unknown[])[]): string =>
  [csvRow(header), ...rows.map(csvRow)].map((line) => `${line}\r\n`).join('');
