import type { Response } from 'express';
import { isAdmin } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { csvDocument } from '@ledgerline/kit/csv-cell.ts';
import { contentDisposition } from '@ledgerline/kit/http/content-disposition.ts';
import { ZipWriter } from '@ledgerline/kit/http/zip-writer.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
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
}

const INDEX_COLUMNS = ['path', 'original name', 'type', 'report type', 'uploaded at', 'size'];
const FOLDERS = { report: 'Reports', company_document: 'Company documents' } as const;
/** Names as a folder or file name on any system: no separators, no control or reserved characters. */
const safe = (name: string) => name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').replace(/^\.+/, '_').slice(0, 150) || '_';

/**
 * One client's documents as a ZIP (what a firm hands over when a client leaves): a folder
 * per type and, for reports, per report type, and `index.csv` listing every file. Streamed
 * file by file; only the list of the client's files is held. Admin only.
 */
export async function sendClientArchive(deps: { blobs: BlobStorage; reportTypesTable: string; clientsTable: string }, t: TenantRequest, clientId: number, res: Response): Promise<void> {
  if (!t.claims.platformAdmin && !isAdmin(t.claims)) throw new Forbidden('Only administrators can download a client\'s documents.');
  const { rows: clients } = await t.db.query<{ name: string }>(`SELECT name FROM ${deps.clientsTable} WHERE id = $1 AND NOT deleted`, [clientId]);
  if (!clients[0]) throw new NotFound('Client not found');
  const { rows } = await t.db.query<ArchivedFile>(
    `SELECT f.id, f.original_name, f.file_type, rt.name AS report_type, f.uploaded_at, f.size::text, f.storage, f.storage_key
     FROM files f LEFT JOIN ${deps.reportTypesTable} rt ON rt.id = f.report_type_id
     WHERE f.client_id = $1 AND f.file_type IN ('report', 'company_document')
     ORDER BY f.file_type DESC, rt.name NULLS LAST, f.uploaded_at, f.id`, [clientId]);
  res.setHeader('content-type', 'application/zip');
  res.setHeader('content-disposition', contentDisposition('attachment', `${safe(clients[0].name)} documents.zip`));
  const zip = new ZipWriter(res);
  const index: unknown[][] = [];
  const used = new Set<string>();
  for (const f of rows) {
    const folder = f.file_type === 'report' ? `${FOLDERS.report}/${safe(f.report_type ?? 'No report type')}` : FOLDERS.company_document;
    let path = `${folder}/${safe(f.original_name)}`;
    // Two files of one name in a folder: the later ones carry their id.
    if (used.has(path)) path = `${folder}/${f.id}-${safe(f.original_name)}`;
    used.add(path);
    const location: BlobLocation = f.storage === 'object' ? { kind: 'object', key: f.storage_key } : { kind: 'google_drive', fileId: f.storage_key, clientId };
    await zip.add(path, await deps.blobs.open(t.shortName, location), new Date(f.uploaded_at), Number(f.size));
    index.push([path, f.original_name, f.file_type, f.report_type ?? '', new Date(f.uploaded_at).toISOString(), f.size]);
  }
  await zip.add('index.csv', Buffer.from(csvDocument(INDEX_COLUMNS, index)));
  await zip.finish();
  res.end();
}
