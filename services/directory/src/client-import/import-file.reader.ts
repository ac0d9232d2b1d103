import { open, readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { CLIENT_IMPORT_MESSAGES, IMPORT_MAX_ROWS } from '@ledgerline/contracts/client-import.contracts.ts';

/** An XLSX file is a ZIP archive: it starts with the local file header's signature. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

async function startsWithZip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return bytesRead === 4 && head.equals(ZIP_SIGNATURE);
  } finally {
    await file.close();
  }
}

/** A cell as the import reads it: text, trimmed; a spreadsheet date as YYYY-MM-DD. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

export interface ImportSheet {
  header: string[];
  /** Data rows that are not blank, each with its number as a spreadsheet shows it (the header is row 1). */
  rows: { row: number; cells: string[] }[];
}

/**
 * The rows of an uploaded CSV or XLSX file (its first sheet) as text cells. The kind is
 * told by content, not by the file's name.
 */
export async function readImportFile(path: string): Promise<ImportSheet> {
  let rows: unknown[][];
  try {
    if (await startsWithZip(path)) {
      rows = await readSheet(path);
    } else {
      rows = parse(await readFile(path), {
        bom: true, relax_column_count: true, trim: true,
        // A row beyond the limit is not parsed at all.
        to_line: IMPORT_MAX_ROWS + 2,
      }) as string[][];
    }
  } catch {
    throw new Invalid(CLIENT_IMPORT_MESSAGES.unreadable);
  }
  const numbered = rows.map((row, index) => ({ row: index + 1, cells: row.map(cellText) })).filter((r) => r.cells.some((c) => c !== ''));
  const [header, ...data] = numbered;
  if (!header) throw new Invalid(CLIENT_IMPORT_MESSAGES.empty);
  if (data.length > IMPORT_MAX_ROWS) throw new Invalid(CLIENT_IMPORT_MESSAGES.tooManyRows);
  return { header: header.cells, rows: data };
}
