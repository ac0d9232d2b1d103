import { concurrencyLimit } from '@ledgerline/kit/async/concurrency-limit.ts';
import { newEvent, type Bus, type EventEnvelope, type Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { eventTenant } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import {
  FILE_CONTENT_EXTRACTED, FILE_EXTRACTION_REQUESTED, FILE_UPLOADED, type FileContentExtractedEvent,
} from '@ledgerline/contracts/files.contracts.ts';
import { InputReadError, OcrUnavailableError, type TextExtractor } from '../extraction/text-extractor.ts';
import type { FileStore } from '../files/file.store.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';

const CONSUMER = 'files.content-extraction';

/** Control characters (tab, line feed and carriage return excepted) never reach the stored text or a snippet's marks. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Half a UTF-16 pair cannot be stored as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface ContentExtractionOptions {
  db: Database;
  bus: Bus;
  tenants: TenantRegistry;
  files: FileStore;
  blobs: BlobStorage;
  extractor: TextExtractor;
  logger: Logger;
  /** Extractions running at once in this process (OCR is CPU-heavy). */
  concurrency: number;
  storedTextMaxChars: number;
  searchIndexMaxChars: number;
}

/**
 * The background half of every upload (and of "Extract Content from Existing Files"):
 * reads the bytes, extracts their text, stores it in the content cache, folds it into
 * the search vector, and announces `file.content-extracted`. Extraction runs outside any
 * transaction (it can take minutes) and a few at a time; the result commits once per
 * event (inbox) and once per file (only while `processed_at` is unset), so redeliveries
 * and repeated requests never extract twice into the table. A file whose content cannot
 * be parsed is recorded as processed with no text (logged, never retried for ever); one
 * whose bytes could not be read or whose OCR could not run stays unprocessed, so 'Extract
 * Content from Existing Files' tries it again once storage or OCR is back.
 */
export function startContentExtraction(o: ContentExtractionOptions): Promise<Subscription> {
  const limit = concurrencyLimit(o.concurrency);

  const extract = async (event: EventEnvelope): Promise<void> => {
    const target = await eventTenant(o, CONSUMER, event);
    if (!target) return;
    const { tenant, db } = target;
    const fileId = (event.payload as { id: number }).id;
    const file = await o.files.find(db, fileId);
    if (!file || file.processedAt) return;

    let text = '';
    const started = Date.now();
    try {
      // The extractor streams text formats and skips whole-file formats over its input limit.
      text = await o.extractor.extract({
        originalName: file.originalName,
        mimeType: file.mimeType,
        size: file.size,
        open: () => o.blobs.open(tenant.shortName, file.location),
      });
    } catch (err) {
      if (err instanceof InputReadError || err instanceof OcrUnavailableError) {
        o.logger.warn({ fileId, tenant: tenant.shortName, err: String(err) }, 'content extraction could not run; the file stays unprocessed');
        return;
      }
      o.logger.warn({ fileId, tenant: tenant.shortName, err: String(err) }, 'content extraction failed; recorded without text');
    }
    text = text.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD').slice(0, o.storedTextMaxChars);

    await consumeOnce(db, CONSUMER, event, async (tx) => {
      // A text the search vector cannot take (a tsvector holds at most 1 MB) must not
      // block the file for ever: it is then stored without indexing its words.
      await tx.query('SAVEPOINT content');
      let saved = await o.files.saveContent(tx, fileId, text, o.searchIndexMaxChars).catch(async (err: unknown) => {
        await tx.query('ROLLBACK TO SAVEPOINT content');
        o.logger.warn({ fileId, err: String(err) }, 'extracted text not indexed');
        return undefined;
      });
      if (saved === undefined) saved = await o.files.saveContent(tx, fileId, text, 0);
      if (!saved) return;
      await enqueueEvents(tx, [newEvent<FileContentExtractedEvent>(FILE_CONTENT_EXTRACTED, tenant.shortName, { id: fileId, processedAt: saved.processedAt, characters: text.length })]);
    });
    o.logger.debug({ fileId, characters: text.length, ms: Date.now() - started }, 'content extracted');
  };

  return o.bus.subscribe(CONSUMER, [FILE_UPLOADED, FILE_EXTRACTION_REQUESTED], (event) => limit.run(() => extract(event)));
}
