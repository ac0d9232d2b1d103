import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { Conflict, NotFound, Unavailable } from '@ledgerline/kit/errors.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { FIRM_ARCHIVE_FORMAT, MANIFEST_ENTRY, PRODUCT_VERSION, type FirmManifest } from '@ledgerline/kit/portability/firm-manifest.ts';
import { EXPORT_REFUSED_ENTRY, INTERNAL_PORTABILITY_PATH } from '@ledgerline/kit/portability/portability.router.ts';
import { SEQUENCES_ENTRY, TABLE_ENTRY, text, VERSIONS_ENTRY } from '@ledgerline/kit/portability/table-portability.ts';
import { readTar, TarWriter } from '@ledgerline/kit/portability/tar-archive.ts';
import { SIGNATURE_ENTRY, type ArchiveSigningKey } from '@ledgerline/kit/portability/archive-signature.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { FirmExport } from '@ledgerline/contracts/identity.contracts.ts';

interface ExportRow {
  id: string;
  company_id: number;
  status: FirmExport['status'];
  progress: number;
  size: string | null;
  message: string | null;
  object_key: string;
  created_at: Date | string;
}

const toExport = (r: ExportRow): FirmExport => ({
  id: r.id, companyId: r.company_id, status: r.status, progress: r.progress,
  size: r.size === null ? null : Number(r.size), message: r.message, createdAt: new Date(r.created_at).toISOString(),
});

export const EXPORT_NOT_FOUND = 'Export not found';

/**
 * Firm exports: a job per request, run in the background, that asks every service for its
 * part (a tar stream of its rows and objects) and writes them, each entry checksummed,
 * into one archive in the object store, the manifest and its signature last. Only identity assembles; it
 * never reads another service's tables.
 */
export class FirmExportService {
  readonly #db: Database;
  readonly #storage: ObjectStore;
  readonly #peers: () => ServicePeer[];
  readonly #systemToken: () => Promise<string>;
  readonly #logger: Logger;
  readonly #signingKey: ArchiveSigningKey;

  constructor(deps: { db: Database; storage: ObjectStore; peers: () => ServicePeer[]; systemToken: () => Promise<string>; logger: Logger; signingKey: ArchiveSigningKey }) {
    this.#signingKey = deps.signingKey;
    this.#db = deps.db;
    this.#storage = deps.storage;
    this.#peers = deps.peers;
    this.#systemToken = deps.systemToken;
    this.#logger = deps.logger;
  }

  /** Jobs a restart cut short can never finish. */
  async failInterrupted(): Promise<void> {
    await this.#db.query("UPDATE portal.firm_exports SET status = 'failed', message = 'Interrupted by a restart; start the export again.' WHERE status = 'running'");
  }

  async list(companyId: number): Promise<FirmExport[]> {
    const { rows } = await this.#db.query<ExportRow>('SELECT * FROM portal.firm_exports WHERE company_id = $1 ORDER BY created_at DESC', [companyId]);
    return rows.map(toExport);
  }

  async start(company: Company): Promise<FirmExport> {
    const id = randomUUID();
    const key = `exports/${company.schemaName}/${id}.tar`;
    const { rows } = await this.#db.query<ExportRow>(
      "INSERT INTO portal.firm_exports (id, company_id, status, progress, object_key) VALUES ($1, $2, 'running', 0, $3) RETURNING *", [id, company.id, key]);
    void this.#run(id, key, company).catch(async (err: unknown) => {
      this.#logger.error({ err, exportId: id }, 'firm export failed');
      await this.#storage.delete(key).catch(() => undefined);
      await this.#db.query("UPDATE portal.firm_exports SET status = 'failed', message = $2 WHERE id = $1", [id, (err as Error).message]).catch(() => undefined);
    });
    return toExport(rows[0]!);
  }

  /** The archive of a finished export of this company. */
  async download(companyId: number, exportId: string): Promise<{ body: Readable; size: number; name: string }> {
    const { rows } = await this.#db.query<ExportRow & { short_name: string }>(
      `SELECT e.*, c.short_name FROM portal.firm_exports e JOIN portal.companies c ON c.id = e.company_id
       WHERE e.id::text = $1 AND e.company_id = $2 AND e.status = 'ready'`, [exportId, companyId]);
    const row = rows[0];
    if (!row) throw new NotFound(EXPORT_NOT_FOUND);
    const date = new Date(row.created_at).toISOString().slice(0, 10);
    return { body: await this.#storage.get(row.object_key), size: Number(row.size), name: `${row.short_name}-${date}.tar` };
  }

  async #run(id: string, key: string, company: Company): Promise<void> {
    const out = new PassThrough();
    const stored = this.#storage.put(key, out, { contentType: 'application/x-tar' });
    stored.catch((err: unknown) => out.destroy(err as Error));
    const tar = new TarWriter(out);
    const manifest: FirmManifest = {
      format: FIRM_ARCHIVE_FORMAT, productVersion: PRODUCT_VERSION, createdAt: new Date().toISOString(),
      firm: { name: company.name, shortName: company.shortName, schemaName: company.schemaName, urlPattern: company.urlPattern, customDomain: company.customDomain, customSubdomain: company.customSubdomain },
      services: {}, files: {},
    };
    const peers = this.#peers();
    const token = await this.#systemToken();
    for (const [index, peer] of peers.entries()) {
      const part: FirmManifest['services'][string] = { migrations: {}, rows: {}, objects: 0 };
      manifest.services[peer.service] = part;
      const response = await fetch(`${peer.url}${INTERNAL_PORTABILITY_PATH}/export?schemaName=${encodeURIComponent(company.schemaName)}`, {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => { throw new Unavailable(`The ${peer.service} service is unavailable; try the export again shortly.`); });
      if (!response.ok || !response.body) throw new Unavailable(`The ${peer.service} service could not export: ${response.status}`);
      for await (const entry of readTar(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>))) {
        if (entry.name === EXPORT_REFUSED_ENTRY) throw new Conflict((JSON.parse(await text(entry)) as { message: string }).message);
        const name = `${peer.service}/${entry.name}`;
        const hash = createHash('sha256');
        const table = TABLE_ENTRY.exec(entry.name)?.[1];
        const small: Buffer[] = [];
        let lines = 0;
        await tar.add(name, entry.size, entry.body, (chunk) => {
          hash.update(chunk);
          if (table) for (const byte of chunk) if (byte === 10) lines++;
          if (entry.name === VERSIONS_ENTRY) small.push(chunk);
        });
        manifest.files[name] = { size: entry.size, sha256: hash.digest('hex') };
        if (table) part.rows[table] = (part.rows[table] ?? 0) + lines;
        else if (entry.name === VERSIONS_ENTRY) part.migrations = JSON.parse(Buffer.concat(small).toString('utf8')) as Record<string, string[]>;
        else if (entry.name !== SEQUENCES_ENTRY) part.objects++;
      }
      await this.#progress(id, Math.floor(((index + 1) / peers.length) * 99));
    }
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await tar.add(MANIFEST_ENTRY, manifestBytes.length, manifestBytes);
    // Signed by this installation: an import here (or where this key is trusted) knows where the archive came from.
    const signature = Buffer.from(JSON.stringify(this.#signingKey.sign(manifestBytes)));
    await tar.add(SIGNATURE_ENTRY, signature.length, signature);
    await tar.finish();
    out.end();
    const { size } = await stored;
    await this.#db.query("UPDATE portal.firm_exports SET status = 'ready', progress = 100, size = $2 WHERE id = $1", [id, size]);
  }

  async #progress(id: string, progress: number): Promise<void> {
    await this.#db.query('UPDATE portal.firm_exports SET progress = $2 WHERE id = $1', [id, progress]);
  }
}
