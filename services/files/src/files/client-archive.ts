import type { Response } from 'express';
import { isAdmin } from '@ledgerline/kit/auth/roles.ts';
import { taxYearOf, taxYearOfPeriod } from '@ledgerline/kit/calendar/tax-year.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { csvDocument } from '@ledgerline/kit/csv-cell.ts';
import { contentDisposition } from '@ledgerline/kit/http/content-disposition.ts';
import { ZipWriter } from '@ledgerline/kit/http/zip-writer.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { dateIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import type { BlobLocation } from '../storage/blob-location.ts';

interface ArchivedFile {
  id: number;
  original_name: string;
  file_type: 'report' | 'company_document';
  report_type: string | null;
  uploaded_at: Date;
  size: string;
  storage: 'object' | 'google_drive';
  storage_key: string;
  request_title: string | null;
  item_title: string | null;
  period: string | null;
  period_start: string | null;
  period_end: string | null;
}

/** One file of a client's documents: where it goes in the ZIP, where its bytes are, and its line of `index.csv`. */
export interface ClientDocument {
  path: string;
  location: BlobLocation;
  uploadedAt: Date;
  size: number;
  /** path, original name, type, report type, uploaded at, size, tax year, period, request, request item */
  index: string[];
}

export const CLIENT_INDEX_COLUMNS = ['path', 'original name', 'type', 'report type', 'uploaded at', 'size', 'tax year', 'period', 'request', 'request item'];
const FOLDERS = { report: 'Reports', company_document: 'Company documents' } as const;
/** Names as a folder or file name on any system: no separators, no control or reserved characters. */
export const safe = (name: string) => name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').replace(/^\.+/, '_').slice(0, 150) || '_';

/**
 * Where each of a client's documents goes, in the order they are written: reports by tax year
 * (newest first), then report type, under `Reports/`; company documents (not of one year) in
 * one folder. A report's tax year is that of the period it answers: the covered period of the
 * tracker item of the request it was uploaded for, or of the tracker item it was matched to;
 * else the year of its upload day in the firm's zone. Years are the client's jurisdiction's
 * (kit/calendar/tax-year.ts). Its request and request item are named in the index.
 */
export async function clientDocuments(db: Queryable, tables: { reportTypes: string }, client: { id: number; jurisdiction: ClientJurisdiction; timeZone: string }): Promise<ClientDocument[]> {
  const { rows } = await db.query<ArchivedFile>(
    `SELECT f.id, f.original_name, f.file_type, rt.name AS report_type, f.uploaded_at, f.size::text, f.storage, f.storage_key,
       a.request_title, a.item_title, coalesce(rp.period, mp.period) AS period,
       coalesce(rp.period_start, mp.period_start)::text AS period_start, coalesce(rp.period_end, mp.period_end)::text AS period_end
     FROM files f
     LEFT JOIN ${tables.reportTypes} rt ON rt.id = f.report_type_id
     LEFT JOIN file_request_items a ON a.file_id = f.id
     LEFT JOIN file_tracker_periods rp ON rp.tracker_item_id = a.tracker_item_id AND NOT rp.deleted
     LEFT JOIN LATERAL (
       SELECT p.period, p.period_start, p.period_end FROM file_tracker_periods p
       WHERE p.source_file_id = f.id AND NOT p.deleted ORDER BY p.period_end DESC LIMIT 1
     ) mp ON true
     WHERE f.client_id = $1 AND f.file_type IN ('report', 'company_document')
     ORDER BY f.uploaded_at, f.id`, [client.id]);
  const placed = rows.map((f) => {
    const year = f.period_start && f.period_end
      ? taxYearOfPeriod({ start: f.period_start, end: f.period_end }, client.jurisdiction)
      : taxYearOf(dateIn(new Date(f.uploaded_at), client.timeZone), client.jurisdiction);
    return { f, year: year.label };
  });
  // Reports first, newest tax year first, then by report type; within a folder, by upload.
  placed.sort((a, b) => (a.f.file_type === b.f.file_type ? 0 : a.f.file_type === 'report' ? -1 : 1)
    || (a.f.file_type === 'report' ? b.year.localeCompare(a.year) || (a.f.report_type ?? '\uffff').localeCompare(b.f.report_type ?? '\uffff') : 0));
  const used = new Set<string>();
  return placed.map(({ f, year }) => {
    const folder = f.file_type === 'report' ? `${FOLDERS.report}/${year}/${safe(f.report_type ?? 'No report type')}` : FOLDERS.company_document;
    let path = `${folder}/${safe(f.original_name)}`;
    // Two files of one name in a folder: the later ones carry their id.
    if (used.has(path)) path = `${folder}/${f.id}-${safe(f.original_name)}`;
    used.add(path);
    return {
      path,
      location: f.storage === 'object' ? { kind: 'object', key: f.storage_key } : { kind: 'google_drive', fileId: f.storage_key, clientId: client.id },
      uploadedAt: new Date(f.uploaded_at),
      size: Number(f.size),
      index: [path, f.original_name, f.file_type, f.report_type ?? '', new Date(f.uploaded_at).toISOString(), f.size,
        f.file_type === 'report' ? year : '', f.period ?? '', f.request_title ?? '', f.item_title ?? ''],
    };
  });
}

/**
 * One client's documents as a ZIP (what a firm hands over when a client leaves): a folder
 * per type and, for reports, per tax year and report type (clientDocuments), and `index.csv`
 * listing every file with the request item it answered. Streamed file by file; only the list
 * of the client's files is held. Admin only.
 */
export async function sendClientArchive(deps: { blobs: BlobStorage; reportTypesTable: string; clientsTable: string; directory: DirectoryLookup }, t: TenantRequest, clientId: number, res: Response): Promise<void> {
  if (!t.claims.platformAdmin && !isAdmin(t.claims)) throw new Forbidden('Only administrators can download a client\'s documents.');
  const { rows: clients } = await t.db.query<{ name: string; jurisdiction: ClientJurisdiction | null }>(`SELECT name, jurisdiction FROM ${deps.clientsTable} WHERE id = $1 AND NOT deleted`, [clientId]);
  if (!clients[0]) throw new NotFound('Client not found');
  // A row from before clients had a jurisdiction: the directory says.
  const jurisdiction = clients[0].jurisdiction ?? (await deps.directory.client(t, clientId)).jurisdiction ?? 'US';
  const documents = await clientDocuments(t.db, { reportTypes: deps.reportTypesTable }, { id: clientId, jurisdiction, timeZone: t.timeZone });
  res.setHeader('content-type', 'application/zip');
  res.setHeader('content-disposition', contentDisposition('attachment', `${safe(clients[0].name)} documents.zip`));
  const zip = new ZipWriter(res);
  for (const d of documents) await zip.add(d.path, await deps.blobs.open(t.shortName, d.location), d.uploadedAt, d.size);
  await zip.add('index.csv', clientIndex(documents));
  await zip.finish();
  res.end();
}

/** `index.csv` of a client's documents: a line per file, in the order they were written. */
export function clientIndex(documents: readonly ClientDocument[]): Buffer {
  return Buffer.from(csvDocument(CLIENT_INDEX_COLUMNS, documents.map((d) => d.index)));
}
