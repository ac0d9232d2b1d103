import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import type { DriveAccess } from '@ledgerline/contracts/directory.contracts.ts';
import type { BlobLocation } from './blob-location.ts';
import type { DriveAccessClient } from './drive-access.client.ts';
import type { GoogleDriveBlobs } from './google-drive-blobs.ts';

/**
 * A file's bytes wherever they live: the object store (key `files/<schema>/<uuid>`, so
 * no user-chosen text ever reaches a key) or the client's Google Drive folder, reached
 * with an access token the directory hands out per call.
 */
export class BlobStorage {
  readonly #objects: ObjectStore;
  readonly #drive: GoogleDriveBlobs;
  readonly #access: DriveAccessClient;
  readonly #logger: Logger;

  constructor(deps: { objects: ObjectStore; drive: GoogleDriveBlobs; access: DriveAccessClient; logger: Logger }) {
    this.#objects = deps.objects;
    this.#drive = deps.drive;
    this.#access = deps.access;
    this.#logger = deps.logger;
  }

  newObjectKey(schema: string): string {
    return `files/${schema}/${randomUUID()}`;
  }

  /** `tenant`: the firm whose client's Drive it is (the caller's reach is checked before). */
  driveAccess(tenant: string, clientId: number): Promise<DriveAccess> {
    return this.#access.get(tenant, clientId);
  }

  async putObject(key: string, body: Readable, contentType: string): Promise<number> {
    return (await this.#objects.put(key, body, { contentType })).size;
  }

  putDrive(access: DriveAccess, file: { name: string; mimeType: string; body: Readable; signal?: AbortSignal }): Promise<{ fileId: string; size: number }> {
    return this.#drive.upload(access, file);
  }

  /** The bytes, or the inclusive range of them. */
  async open(tenant: string, location: BlobLocation, range?: { start: number; end: number }): Promise<Readable> {
    if (location.kind === 'object') return this.#objects.get(location.key, range);
    return this.#drive.download(await this.#access.get(tenant, location.clientId), location.fileId, range);
  }

  async delete(tenant: string, location: BlobLocation): Promise<void> {
    if (location.kind === 'object') return this.#objects.delete(location.key);
    return this.#drive.remove(await this.#access.get(tenant, location.clientId), location.fileId);
  }

  /** For cleanup paths: a blob that cannot be deleted now is logged, never fatal. */
  async deleteQuietly(tenant: string, location: BlobLocation): Promise<void> {
    await this.delete(tenant, location).catch((err: unknown) => {
      this.#logger.warn({ err: String(err), location }, 'file bytes not deleted from storage (left behind)');
    });
  }
}
