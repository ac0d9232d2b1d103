import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { z } from 'zod';

const MIB = 1024 * 1024;
/** Google accepts resumable chunks in multiples of 256 KiB (the last one excepted). */
const DRIVE_CHUNK_UNIT = 256 * 1024;

export const filesConfigSpec = {
  uploadMaxBytes: field('UPLOAD_MAX_BYTES', env.int(1536 * MIB, 1), 'largest file one upload may carry, in bytes (default 1.5 GiB)'),
  uploadMaxFiles: field('UPLOAD_MAX_FILES', env.int(20, 1), 'most files one upload request may carry'),
  publicLinkTtlSeconds: field('PUBLIC_FILE_LINK_TTL_SECONDS', env.int(300, 10), 'lifetime of a public file link (open in a new tab without a bearer token)'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex) for signed links; unset generates one in PORTAL_DATA_DIR/keys'),
  extractionConcurrency: field('FILE_EXTRACTION_CONCURRENCY', env.int(1, 1), 'files whose text is extracted (OCR included) at the same time, per process'),
  extractionMaxInputBytes: field('FILE_EXTRACTION_MAX_INPUT_BYTES', env.int(50 * MIB, 1), 'largest PDF, Office document, JSON or image whose text is extracted (they are read whole into memory; text formats stream at any size)'),
  storedTextMaxChars: field('FILE_TEXT_MAX_CHARS', env.int(1_000_000, 1000), 'extracted text kept per file (characters)'),
  searchIndexMaxChars: field('FILE_SEARCH_INDEX_MAX_CHARS', env.int(250_000, 1000), 'leading characters of the extracted text that are indexed for search (a tsvector holds at most 1 MB)'),
  ocrLanguageDataPath: field('OCR_LANGUAGE_DATA_PATH', env.optionalString(), 'folder with OCR language data; unset uses the extraction library\'s default'),
  googleApiRootUrl: field('GOOGLE_API_ROOT_URL', z.url().default('https://www.googleapis.com/').transform((u) => (u.endsWith('/') ? u : `${u}/`)), 'root of Google\'s REST APIs (Drive)'),
  driveChunkBytes: field('GOOGLE_DRIVE_UPLOAD_CHUNK_BYTES', env.int(8 * MIB, DRIVE_CHUNK_UNIT).refine((n) => n % DRIVE_CHUNK_UNIT === 0, 'must be a multiple of 262144 (256 KiB)'),
    'Google Drive uploads: files up to this size go in one request, larger ones resumably in chunks of this size (the memory one upload holds)'),
  tenantPollMs: field('TENANT_POLL_MS', env.int(1000, 100), 'how often the firm list is re-read from identity (a deactivated firm is refused within this)'),
};

export type FilesConfig = ConfigOf<typeof filesConfigSpec>;
export const loadFilesConfig = (e: NodeJS.ProcessEnv): FilesConfig => loadConfig(filesConfigSpec, e);
