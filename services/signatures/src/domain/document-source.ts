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
    const ofClient = await this.#listed(t, `clientId=${clientId}`, fileIds, (f) => f.clientId === clientId);
    const out: StoredDocument[] = [];
    for (const fileId of fileIds) {
      const meta = ofClient.get(fileId);
      if (!meta) throw new Invalid(SIGNATURE_MESSAGES.documentNotOfClient);
      out.push(await this.#copy(t, meta, SIGNATURE_MESSAGES.documentNotOfClient));
    }
    return out;
  }

  /** A template's PDF: one of the firm's own documents (fileType firm_document) the caller can see, copied. */
  async firmDocument(t: TenantRequest, fileId: number): Promise<StoredDocument> {
    const meta = (await this.#listed(t, 'fileType=firm_document', [fileId], (f) => f.fileType === 'firm_document')).get(fileId);
    if (!meta) throw new Invalid(SIGNATURE_MESSAGES.templateNotFirmDocument);
    return this.#copy(t, meta, SIGNATURE_MESSAGES.templateNotFirmDocument);
  }

  async #copy(t: TenantRequest, meta: PortalFile, refused: string): Promise<StoredDocument> {
    const r = await this.#get(t, `/api/files/${meta.id}`);
    if (r.status === 404 || r.status === 403) throw new Invalid(refused);
    if (!r.ok) throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
    const content = Buffer.from(await r.arrayBuffer());
    let pages: { width: number; height: number }[];
    try {
      pages = await pageSizes(content);
    } catch {
      throw new Invalid(`${SIGNATURE_MESSAGES.notPdf} (${meta.originalName})`);
    }
    return { fileId: meta.id, name: meta.originalName, sha256: createHash('sha256').update(content).digest('hex'), pages, content };
  }

  /** The files among `wanted` that a list query finds and `fits` accepts, by id (the list call is the one that names a file's client and type). */
  async #listed(t: TenantRequest, filter: string, wanted: readonly number[], fits: (f: PortalFile) => boolean): Promise<Map<number, PortalFile>> {
    const found = new Map<number, PortalFile>();
    for (let page = 0; page < MAX_PAGES && found.size < new Set(wanted).size; page++) {
      const r = await this.#get(t, `/api/files?${filter}&limit=${PAGE}&offset=${page * PAGE}`);
      if (!r.ok) throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
      const files = (await r.json()) as PortalFile[] | { files?: PortalFile[] };
      const list = Array.isArray(files) ? files : (files.files ?? []);
      for (const f of list) if (wanted.includes(f.id) && fits(f)) found.set(f.id, f);
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
