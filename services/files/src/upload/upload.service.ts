import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { DirectoryClient, DirectoryReportType } from '@ledgerline/kit/directory/directory-read-model.ts';
import { Forbidden, Invalid, NotFound, UnsupportedMedia } from '@ledgerline/kit/errors.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { DriveAccess } from '@ledgerline/contracts/directory.contracts.ts';
import {
  DEFAULT_FIRM_DOCUMENT_TYPE, FILE_UPLOADED, UPLOAD_MESSAGES, uploadFieldsSchema,
  type FirmDocumentType, type UploadFields, type UploadResult,
} from '@ledgerline/contracts/files.contracts.ts';
import { fileNameExtension, mediaTypeOfFileName } from '@ledgerline/contracts/media-types.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { fileEvent } from '../files/file-events.ts';
import { FILE_MESSAGES } from '../files/file-rules.ts';
import { PaymentHolds, type HeldFor } from '../files/payment-holds.ts';
import { publicFile, type FileStore, type StoredFile } from '../files/file.store.ts';
import type { BlobLocation } from '../storage/blob-location.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { cleanOriginalName, storedFileName } from './file-names.ts';
import { readMultipart } from './multipart-form.ts';
import { UploadInspector } from './upload-inspector.ts';
import { UPLOAD_ERRORS } from './upload-messages.ts';

/** The form fields POST /api/files reads (uploadFieldsSchema); others are ignored. */
const FIELD_NAMES: ReadonlySet<string> = new Set(['fileType', 'clientId', 'reportTypeId', 'documentType']);
/** Part names a file may arrive under (the screens send `file`). */
const FILE_FIELDS: ReadonlySet<string> = new Set(['file', 'files']);

type Destination = { kind: 'object' } | { kind: 'google_drive'; clientId: number; access: DriveAccess };

/** What the fields of an upload resolve to, checked against the caller's reach. */
interface Target {
  fields: UploadFields;
  client: DirectoryClient | null;
  reportType: DirectoryReportType | null;
  documentType: FirmDocumentType | null;
  destination: Destination;
}

interface StoredPart {
  originalName: string;
  filename: string;
  mimeType: string;
  size: number;
  location: BlobLocation;
}

/**
 * POST /api/files (spec 001 §5, §7): one or more files streamed to storage as they
 * arrive, with bounded memory whatever their size. The destination is decided from the
 * fields sent before the first file — the object store, or the client's Google Drive
 * when the client's uploads go there; fields sent after the files are honoured too
 * (bytes already in the object store move to Drive when needed). All or nothing: rows
 * and their `file.uploaded` events commit in one transaction once every file is stored
 * and every check passed; on any failure every byte already written is deleted.
 */
export class UploadService {
  readonly #files: FileStore;
  readonly #blobs: BlobStorage;
  readonly #directory: DirectoryLookup;
  readonly #limits: { maxFiles: number; maxFileBytes: number };
  readonly #logger: Logger;
  readonly #holds = new PaymentHolds();

  constructor(deps: { files: FileStore; blobs: BlobStorage; directory: DirectoryLookup; maxFiles: number; maxFileBytes: number; logger: Logger }) {
    this.#files = deps.files;
    this.#blobs = deps.blobs;
    this.#directory = deps.directory;
    this.#limits = { maxFiles: deps.maxFiles, maxFileBytes: deps.maxFileBytes };
    this.#logger = deps.logger;
  }

  /**
   * `fixed` fields (an upload another service made on a user's behalf, e.g. a document
   * request's item) are the only ones taken: fields in the form are ignored. `only` limits
   * the files to these extensions (415 for any other), on top of the content check every
   * upload gets.
   */
  async upload(
    t: TenantRequest, req: IncomingMessage, fixed?: Record<string, string>, only?: { extensions: ReadonlySet<string>; refused: (fileName: string) => string },
    releaseOnPaymentOf?: HeldFor,
  ): Promise<UploadResult> {
    if (t.scope.isClient) throw new Forbidden(FILE_MESSAGES.clientCannotUpload);
    const fields: Record<string, string> = { ...fixed };
    const parts: (StoredPart | undefined)[] = [];
    // Every blob written for this request until it commits: deleted if anything fails.
    const written = new Set<BlobLocation>();
    let early: { snapshot: string; target: Promise<Target | null> } | undefined;
    let count = 0;

    try {
      await readMultipart(req, this.#limits, {
        field: (name, value) => {
          if (fixed || !FIELD_NAMES.has(name)) return;
          if (Object.hasOwn(fields, name)) throw new Invalid(UPLOAD_ERRORS.duplicateField(name));
          fields[name] = value;
        },
        file: async (part, signal) => {
          if (!FILE_FIELDS.has(part.fieldName)) throw new Invalid(UPLOAD_ERRORS.unexpectedFileField(part.fieldName.slice(0, 50)));
          const originalName = cleanOriginalName(part.fileName);
          // A file input left empty arrives as a part without a name.
          if (!originalName) { part.stream.resume(); return; }
          if (only && !only.extensions.has(fileNameExtension(originalName))) throw new UnsupportedMedia(only.refused(originalName));
          const index = count++;
          early ??= { snapshot: JSON.stringify(fields), target: this.#resolveEarly(t, { ...fields }) };
          const target = await early.target;
          parts[index] = await this.#store(t, part.stream, originalName, target?.destination ?? { kind: 'object' }, signal, written);
        },
      });
      // The fields seen at the first file are usually all of them: reuse what they resolved to.
      const reusable = early && early.snapshot === JSON.stringify(fields) ? await early.target : null;
      const target = reusable ?? await this.#resolve(t, fields);
      const stored = parts.filter((p): p is StoredPart => p !== undefined);
      if (stored.length === 0) throw new Invalid(UPLOAD_MESSAGES.noFiles);
      for (const part of stored) await this.#settle(t, part, target.destination, written);

      const uploadedById = actorId(t.claims);
      const uploaderName = actorName(t.claims);
      const files = await t.db.transaction(async (tx) => {
        const rows: StoredFile[] = [];
        for (const part of stored) {
          const inserted = await this.#files.insert(tx, {
            ...part,
            clientId: target.client?.id ?? null,
            fileType: target.fields.fileType,
            documentType: target.documentType,
            reportTypeId: target.reportType?.id ?? null,
            uploadedById,
            uploaderName,
          });
          // Filed into a report type that waits for payment, or as a signed document released on payment: it waits too.
          const held = await this.#holds.fileFiled(tx, inserted, uploadedById, releaseOnPaymentOf);
          rows.push(held ? (await this.#files.find(tx, inserted.id))! : inserted);
        }
        await enqueueEvents(tx, rows.map((f) => newEvent(FILE_UPLOADED, t.shortName, fileEvent(f))));
        return rows;
      });
      written.clear();
      return { message: UPLOAD_MESSAGES.success, files: files.map(publicFile) };
    } finally {
      if (written.size) {
        await Promise.all([...written].map((location) => this.#blobs.deleteQuietly(t.shortName, location)));
      }
    }
  }

  /**
   * The destination as far as the fields sent before the first file tell. Fields still to
   * come leave it open (object store for now); a client or report type the caller may
   * not reach fails at once, before any byte is stored.
   */
  #resolveEarly(t: TenantRequest, fields: Record<string, string>): Promise<Target | null> {
    return this.#resolve(t, fields).catch((error: unknown) => {
      if (error instanceof NotFound || error instanceof Forbidden) throw error;
      return null;
    });
  }

  async #resolve(t: TenantRequest, raw: Record<string, string>): Promise<Target> {
    const fields = parseInput(uploadFieldsSchema, raw);
    const client = fields.clientId === undefined ? null : await this.#directory.client(t, fields.clientId);
    const reportType = fields.reportTypeId === undefined ? null : await this.#directory.reportType(t, fields.reportTypeId);
    const documentType = fields.fileType === 'firm_document' ? (fields.documentType ?? DEFAULT_FIRM_DOCUMENT_TYPE) : null;
    // A client's reports and company documents go to its Drive when it chose Drive; the
    // firm's own documents stay with the firm. The directory answers 409 while Drive is
    // selected but not connected.
    const destination: Destination = client && fields.fileType !== 'firm_document' && client.uploadDestination === 'google_drive'
      ? { kind: 'google_drive', clientId: client.id, access: await this.#blobs.driveAccess(t.shortName, client.id) }
      : { kind: 'object' };
    return { fields, client, reportType, documentType, destination };
  }

  /** Streams one file part through the inspector to its destination. */
  async #store(t: TenantRequest, source: Readable, originalName: string, destination: Destination, signal: AbortSignal, written: Set<BlobLocation>): Promise<StoredPart> {
    const mimeType = mediaTypeOfFileName(originalName);
    const filename = storedFileName(originalName);
    const inspector = new UploadInspector({ fileName: originalName, extension: fileNameExtension(originalName), maxBytes: this.#limits.maxFileBytes });
    // A failed file must not stall the form: its remaining bytes are read and dropped.
    inspector.on('error', () => { source.unpipe(inspector); source.resume(); });
    const onAbort = () => inspector.destroy(signal.reason instanceof Error ? signal.reason : new Error('upload aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    source.pipe(inspector);
    try {
      if (destination.kind === 'google_drive') {
        const { fileId, size } = await this.#blobs.putDrive(destination.access, { name: filename, mimeType, body: inspector, signal });
        const location: BlobLocation = { kind: 'google_drive', fileId, clientId: destination.clientId };
        written.add(location);
        return { originalName, filename, mimeType, size, location };
      }
      const location: BlobLocation = { kind: 'object', key: this.#blobs.newObjectKey(t.db.schema) };
      const size = await this.#blobs.putObject(location.key, inspector, mimeType);
      written.add(location);
      return { originalName, filename, mimeType, size, location };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Brings a stored part to the final destination: bytes that waited in the object store
   * (fields came after the files) move to the client's Drive. Bytes already in a Drive
   * folder the final fields do not name cannot be moved back without reading them out
   * of Drive again: that request must send its fields first.
   */
  async #settle(t: TenantRequest, part: StoredPart, destination: Destination, written: Set<BlobLocation>): Promise<void> {
    const at = part.location;
    if (destination.kind === 'object') {
      if (at.kind === 'object') return;
      throw new Invalid(UPLOAD_ERRORS.fieldsAfterFiles);
    }
    if (at.kind === 'google_drive') {
      if (at.clientId === destination.clientId) return;
      throw new Invalid(UPLOAD_ERRORS.fieldsAfterFiles);
    }
    const body = await this.#blobs.open(t.shortName, at);
    const { fileId } = await this.#blobs.putDrive(destination.access, { name: part.filename, mimeType: part.mimeType, body });
    const moved: BlobLocation = { kind: 'google_drive', fileId, clientId: destination.clientId };
    written.add(moved);
    written.delete(at);
    await this.#blobs.deleteQuietly(t.shortName, at);
    this.#logger.debug({ fileId }, 'upload moved from the object store to Google Drive (fields after files)');
    part.location = moved;
  }
}
