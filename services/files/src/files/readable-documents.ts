import type { ReadableContext } from '@ledgerline/kit/portability/portability.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { clientDocuments, clientIndex, safe } from './client-archive.ts';

/**
 * The files service's part of a firm's readable copy: `documents/<client>/` per client, laid
 * out as that client's own ZIP (reports by tax year and report type, company documents,
 * `index.csv`), and `documents/Firm documents/` with the firm's own. Bytes are streamed one
 * file at a time, from the object store or the client's Google Drive.
 */
const FIRM_FOLDER = 'documents/Firm documents';

export function readableDocuments(deps: { blobs: BlobStorage; tables: { clients: string; reportTypes: string } }) {
  return async (ctx: ReadableContext): Promise<void> => {
    const { rows: clients } = await ctx.db.query<{ id: number; name: string | null; jurisdiction: ClientJurisdiction | null }>(
      `SELECT f.client_id AS id, c.name, c.jurisdiction FROM (SELECT DISTINCT client_id FROM files WHERE client_id IS NOT NULL AND file_type <> 'firm_document') f
       LEFT JOIN ${deps.tables.clients} c ON c.id = f.client_id AND NOT c.deleted
       ORDER BY lower(c.name), f.client_id`);
    const folders = new Set<string>([FIRM_FOLDER.toLowerCase()]);
    for (const client of clients) {
      // Two clients of one name (or a client whose name has not reached this service yet) are told apart by id.
      let folder = `documents/${safe(client.name ?? `Client ${client.id}`)}`;
      if (folders.has(folder.toLowerCase())) folder = `${folder} (${client.id})`;
      folders.add(folder.toLowerCase());
      // A client announced before clients had a jurisdiction: the default one's years.
      const documents = await clientDocuments(ctx.db, deps.tables, { id: client.id, jurisdiction: client.jurisdiction ?? 'US', timeZone: ctx.timeZone });
      for (const d of documents) await ctx.write(`${folder}/${d.path}`, d.size, await deps.blobs.open(ctx.shortName, d.location));
      const index = clientIndex(documents);
      await ctx.write(`${folder}/index.csv`, index.length, index);
    }
    const { rows: firmDocuments } = await ctx.db.query<{ id: number; original_name: string; size: string; storage_key: string }>(
      "SELECT id, original_name, size::text, storage_key FROM files WHERE file_type = 'firm_document' AND storage = 'object' ORDER BY uploaded_at, id");
    const used = new Set<string>();
    for (const f of firmDocuments) {
      let path = `${FIRM_FOLDER}/${safe(f.original_name)}`;
      if (used.has(path)) path = `${FIRM_FOLDER}/${f.id}-${safe(f.original_name)}`;
      used.add(path);
      await ctx.write(path, Number(f.size), await deps.blobs.open(ctx.shortName, { kind: 'object', key: f.storage_key }));
    }
  };
}
