import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  FILE_DELETED, FILE_EXTRACTION_REQUESTED,
  type ExtractContentResult, type FileExtractionRequestedEvent, type PublicFileLink,
} from '@ledgerline/contracts/files.contracts.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { fileDeletedEvent } from './file-events.ts';
import { assertMayDelete, FILE_MESSAGES } from './file-rules.ts';
import { assertReleasedFor } from './payment-holds.ts';
import type { FileStore, StoredFile } from './file.store.ts';

/** What a public file link token binds: the firm and the file. */
export interface PublicLinkClaims extends Record<string, unknown> { t: string; f: number }

/** Extraction requests are published in transactions of this many events. */
const REQUEST_BATCH = 500;

/** Reading, deleting, sharing and re-extracting stored files, within the caller's visibility. */
export class FileService {
  readonly #files: FileStore;
  readonly #blobs: BlobStorage;
  readonly #links: TokenSigner<PublicLinkClaims>;
  readonly #linkTtlSeconds: number;

  constructor(deps: { files: FileStore; blobs: BlobStorage; links: TokenSigner<PublicLinkClaims>; linkTtlSeconds: number }) {
    this.#files = deps.files;
    this.#blobs = deps.blobs;
    this.#links = deps.links;
    this.#linkTtlSeconds = deps.linkTtlSeconds;
  }

  /**
   * A file the caller may open: visible, and for a Client user not waiting for an invoice's
   * payment (403 saying which); staff open it either way.
   */
  async openable(t: TenantRequest, id: number): Promise<StoredFile> {
    const file = await this.visible(t, id);
    await assertReleasedFor(t.db, t.scope, id);
    return file;
  }

  /** A file the caller may see; hidden and missing files answer alike (404). */
  async visible(t: TenantRequest, id: number): Promise<StoredFile> {
    const file = await this.#files.findVisible(t.db, t.scope, id);
    if (!file) throw new NotFound(FILE_MESSAGES.notFound);
    return file;
  }

  /**
   * Deletes the row (its content cache goes with it) and announces it in one transaction;
   * the bytes go afterwards, and bytes that cannot be deleted now are only logged.
   */
  async delete(t: TenantRequest, id: number): Promise<{ message: string }> {
    if (t.scope.isClient) throw new Forbidden(FILE_MESSAGES.clientCannotDelete);
    const file = await this.visible(t, id);
    assertMayDelete(t, file);
    const deleted = await t.db.transaction(async (tx) => {
      if (!(await this.#files.delete(tx, id))) return false;
      await enqueueEvents(tx, [newEvent(FILE_DELETED, t.shortName, fileDeletedEvent(file, { id: actorId(t.claims), name: actorName(t.claims) }))]);
      return true;
    });
    if (!deleted) throw new NotFound(FILE_MESSAGES.notFound);
    await this.#blobs.deleteQuietly(t.shortName, file.location);
    return { message: FILE_MESSAGES.deleted(file.originalName) };
  }

  async publicLink(t: TenantRequest, id: number): Promise<PublicFileLink> {
    const file = await this.openable(t, id);
    const { token, expiresAt } = this.#links.sign({ t: t.shortName, f: file.id }, this.#linkTtlSeconds);
    return { url: `/api/${t.shortName}/public/files/${file.id}?token=${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** The firm and file a link token names, if genuine, unexpired and for this file (and firm, when known). */
  verifyLink(token: string | undefined, fileId: number, tenant: string | undefined): PublicLinkClaims {
    const claims = token ? this.#links.verify(token) : null;
    if (!claims || claims.f !== fileId || (tenant && claims.t !== tenant)) throw new Forbidden(FILE_MESSAGES.linkInvalid);
    return claims;
  }

  /** Spec 001 §7: every file the caller may see without extracted content is queued again. */
  async requestExtraction(t: TenantRequest): Promise<ExtractContentResult> {
    if (t.scope.isClient) throw new Forbidden(FILE_MESSAGES.clientCannotExtract);
    const ids = await this.#files.unprocessedIds(t.db, t.scope);
    for (let from = 0; from < ids.length; from += REQUEST_BATCH) {
      const batch = ids.slice(from, from + REQUEST_BATCH);
      await t.db.transaction((tx) => enqueueEvents(tx, batch.map((id) => newEvent<FileExtractionRequestedEvent>(FILE_EXTRACTION_REQUESTED, t.shortName, { id }))));
    }
    return { filesToProcess: ids.length };
  }
}
