import {
  CLIENT_IMPORT_EVENTS, IMPORT_COLUMNS, IMPORT_TEMPLATE_HEADERS,
  type ClientImportProgress, type ClientImportResult, type ImportColumn, type ImportField,
} from '@ledgerline/contracts/client-import.contracts.ts';
import { apiJson, apiRequest } from '@ledgerline/ui/api-client.ts';
import { readEventStream } from '@ledgerline/ui/event-stream.ts';
import { clientsPath } from './directory.api.ts';

/** The import screen's calls and the little it computes (kept out of the page for its tests). */

export const importPath = (): string => clientsPath('/import');

/** The template: one header line, every column the import reads, opened by any spreadsheet. */
export const templateCsv = (): string => `${IMPORT_TEMPLATE_HEADERS.join(',')}\r\n`;

/** The mapper's choices: every field by its template header, and "not imported". */
export const FIELD_OPTIONS: { label: string; value: ImportField | '' }[] = [
  { label: 'Not imported', value: '' },
  ...IMPORT_COLUMNS.map((c) => ({ label: c.header, value: c.field as ImportField })),
];

/** The mapping sent with the file: every column's field as the mapper shows it. */
export const mappingOf = (columns: readonly ImportColumn[]): Record<string, ImportField | ''> =>
  Object.fromEntries(columns.map((c) => [c.header, c.field ?? '']));

function form(file: File, dryRun: boolean, columns: readonly ImportColumn[] | null): FormData {
  const body = new FormData();
  body.append('dryRun', String(dryRun));
  if (columns) body.append('mapping', JSON.stringify(mappingOf(columns)));
  body.append('file', file);
  return body;
}

/** The dry run: what the import would do and each row's problems; nothing is written. */
export const previewImport = (file: File, columns: readonly ImportColumn[] | null): Promise<ClientImportResult> =>
  apiJson<ClientImportResult>('POST', importPath(), form(file, true, columns));

/** The import itself, its progress reported as the server streams it. */
export async function runImport(file: File, columns: readonly ImportColumn[], onProgress: (p: ClientImportProgress) => void): Promise<ClientImportResult> {
  const response = await apiRequest('POST', importPath(), form(file, false, columns), { accept: 'text/event-stream' });
  for await (const e of readEventStream(response)) {
    if (e.event === CLIENT_IMPORT_EVENTS.progress) onProgress(e.data as ClientImportProgress);
    else if (e.event === CLIENT_IMPORT_EVENTS.result) return e.data as ClientImportResult;
    else if (e.event === CLIENT_IMPORT_EVENTS.error) throw new Error((e.data as { message: string }).message);
  }
  throw new Error('The import ended without a result. Please check the client list and try again.');
}

/** Rows the preview says are skipped (each row once). */
export const skippedRows = (result: ClientImportResult): number => new Set(result.errors.map((e) => e.row)).size;

/** "Phone" for a field key, as the mapper names it. */
export const fieldLabel = (field: string): string => IMPORT_COLUMNS.find((c) => c.field === field)?.header ?? (field === 'row' ? 'Row' : field);
