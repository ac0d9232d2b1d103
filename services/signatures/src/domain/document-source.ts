import { createHash } from 'node:crypto';
import { pageSizes } from '@ledgerline/kit/pdf/fields.ts';
import { Invalid, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { SIGNATURE_MESSAGES } from '@ledgerline/contracts/signatures.contracts.ts';
import type { StoredDocument } from '../store/signature.store.ts';

const PAGE = 500;
const MAX_PAGES = 40;

/**
 * The PDFs a request is made of, read from the files service with the caller's own token
 * (so only files they may open), checked to be of the request's client and readable PDFs,
 * and copied: what the signers see and sign stays what the firm chose, whatever later
 * happens to the file.
 */
export class DocumentSource {
  readonly #filesUrl: () => string;

  constructor(filesUrl: () => string) {
    this.#filesUrl = filesUrl;
  }

  async fetch(t: TenantRequest, clientId: number, fileIds: readonly number[]): Promise<StoredDocument[]> {
    const ofClient = await this.#clientFiles(t, clientId, fileIds);
    const out: StoredDocument[] = [];
    for (const fileId of fileIds) {
      const meta = ofClient.get(fileId);
      if (!meta) throw new Invalid(SIGNATURE_MESSAGES.documentNotOfClient);
      const r = await this.#get(t, `/api/files/${fileId}`);
      if (r.status === 404 || r.status === 403) throw new Invalid(SIGNATURE_MESSAGES.documentNotOfClient);
      if (!r.ok) throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
      const content = Buffer.from(await r.arrayBuffer());
      let pages: { width: number; height: number }[];
      try {
        pages = await pageSizes(content);
      } catch {
        throw new Invalid(`${SIGNATURE_MESSAGES.notPdf} (${meta.originalName})`);
      }
      out.push({ fileId, name: meta.originalName, sha256: createHash('sha256').update(content).digest('hex'), pages, content });
    }
    return out;
  }

  /** The client's files among `wanted`, by id (the list call is the one that names a file's client). */
  async #clientFiles(t: TenantRequest, clientId: number, wanted: readonly number[]): Promise<Map<number, PortalFile>> {
    const found = new Map<number, PortalFile>();
    for (let page = 0; page < MAX_PAGES && found.size < new Set(wanted).size; page++) {
      const r = await this.#get(t, `/api/files?clientId=${clientId}&limit=${PAGE}&offset=${page * PAGE}`);
      if (!r.ok) throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
      const files = (await r.json()) as PortalFile[] | { files?: PortalFile[] };
      const list = Array.isArray(files) ? files : (files.files ?? []);
      for (const f of list) if (wanted.includes(f.id) && f.clientId === clientId) found.set(f.id, f);
      if (list.length < PAGE) break;
    }
    return found;
  }

  async #get(t: TenantRequest, path: string): Promise<Response> {
    try {
      return await fetch(`${this.#filesUrl()}${path}`, { headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new Unavailable('The files service is unavailable. Please try again.');
    }
  }
}
