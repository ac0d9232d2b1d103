import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { filesPortability } from './files/files.portability.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { DRIVE_ACCESS_KEY_PURPOSE, type DriveAccessAssertion } from '@ledgerline/contracts/directory.contracts.ts';
import { FILE_TEXT_KEY_PURPOSE, type FileTextAssertion } from '@ledgerline/contracts/files.contracts.ts';
import { REQUEST_UPLOAD_KEY_PURPOSE, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import { createRequestUploadRouter } from './upload/request-upload.router.ts';
import { startContentExtraction } from './content/content-extraction.consumer.ts';
import { createTextExtractor } from './extraction/text-extractor.ts';
import { followClientDeletions } from './files/client-files.consumer.ts';
import { followFileContext } from './files/file-context.consumer.ts';
import { followInvoicePayments } from './files/payment-holds.ts';
import { readableDocuments } from './files/readable-documents.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { FileService, type PublicLinkClaims } from './files/file.service.ts';
import { FileStore } from './files/file.store.ts';
import { createFilesRouter } from './files/files.router.ts';
import { createFileTextRouter } from './files/file-text.router.ts';
import { createPublicFilesRouter } from './files/public-files.router.ts';
import { loadFilesConfig } from './files.config.ts';
import { filesTenantMigrations } from './files.migrations.ts';
import { BlobStorage } from './storage/blob-storage.ts';
import { DriveAccessClient } from './storage/drive-access.client.ts';
import { GoogleDriveBlobs } from './storage/google-drive-blobs.ts';
import { UploadService } from './upload/upload.service.ts';

const userAccess = createUserAccessReadModel('files');
const directory = createDirectoryReadModel('files');

/**
 * Files (DESIGN §2): uploads to the object store or a client's Google Drive, downloads,
 * deletion, public links, content extraction and full-text search, within the caller's
 * reach (docs/api/authorization.md).
 */
export const filesModule: ServiceModule = {
  name: 'files',
  defaultPort: 8103,
  apiResources: ['files', 'public/files'],
  migrations: [filesTenantMigrations, userAccess.migrations, directory.migrations],
  portability: filesPortability,
  async init(deps) {
    const config = loadFilesConfig(deps.env);
    const { logger } = deps;
    const api = new ApiRegistry('files');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants } = runtime;
    const master = loadMasterKey(config.encryptionKey, deps.dataDir);
    const files = new FileStore(directory.tables);
    const blobs = new BlobStorage({
      objects: deps.storage,
      drive: new GoogleDriveBlobs({ rootUrl: config.googleApiRootUrl, chunkBytes: config.driveChunkBytes, logger }),
      access: new DriveAccessClient(peer('directory'), new TokenSigner<DriveAccessAssertion>(deriveKey(master, DRIVE_ACCESS_KEY_PURPOSE))),
      logger,
    });
    const service = new FileService({
      files, blobs,
      links: new TokenSigner<PublicLinkClaims>(deriveKey(master, 'public-file-link')),
      linkTtlSeconds: config.publicLinkTtlSeconds,
    });
    const directoryLookup = new DirectoryLookup(directory, peer('directory'));
    const uploads = new UploadService({
      files, blobs, logger,
      directory: directoryLookup,
      maxFiles: config.uploadMaxFiles,
      maxFileBytes: config.uploadMaxBytes,
    });
    const extractor = createTextExtractor({
      maxInputBytes: config.extractionMaxInputBytes,
      maxTextChars: config.storedTextMaxChars,
      ...(config.ocrLanguageDataPath ? { ocrLanguageDataPath: config.ocrLanguageDataPath } : {}),
    });

    return {
      api,
      portability: { ...filesPortability, readable: readableDocuments({ blobs, tables: directory.tables }) },
      routers: [
        createPublicFilesRouter({ api, tenants, files, service, blobs }),
        createFilesRouter({ api, tokens: deps.tokens, tenants, files, service, uploads, blobs, directoryTables: directory.tables, directory: directoryLookup }),
        createFileTextRouter({ tokens: deps.tokens, tenants, service, files, assertions: new TokenSigner<FileTextAssertion>(deriveKey(master, FILE_TEXT_KEY_PURPOSE)) }),
        createRequestUploadRouter({ tenants, uploads, assertions: new TokenSigner<RequestUploadAssertion>(deriveKey(master, REQUEST_UPLOAD_KEY_PURPOSE)) }),
      ],
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => directory.follow(c),
          (c) => followClientDeletions({ ...c, files, blobs }),
          (c) => followFileContext(c),
          (c) => followInvoicePayments(c),
          (c) => startContentExtraction({
            ...c, files, blobs, extractor,
            concurrency: config.extractionConcurrency,
            storedTextMaxChars: config.storedTextMaxChars,
            searchIndexMaxChars: config.searchIndexMaxChars,
          }),
        ],
      }),
      async stop() {
        await runtime.stop();
        await extractor.close();
      },
    };
  },
};
