import { newEvent, type Bus, type Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { eventTenant } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { CLIENT_DELETED } from '@ledgerline/contracts/directory.contracts.ts';
import { FILE_DELETED, SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { fileDeletedEvent } from './file-events.ts';
import type { FileStore } from './file.store.ts';

const BATCH = 200;
const CLIENT_DELETIONS_CONSUMER = 'files.client-deletions';

/**
 * A client deleted in the directory takes its documents with it (the directory's
 * "its files follow"): rows and content go in batches, each with its `file.deleted`
 * events; then the bytes. Re-running finds nothing left, so redelivery is harmless.
 * Documents in the client's own Google Drive stay there: the portal's access to that
 * Drive went with the client.
 */
export function followClientDeletions(o: { db: Database; bus: Bus; tenants: TenantRegistry; files: FileStore; blobs: BlobStorage; logger: Logger }): Promise<Subscription> {
  return o.bus.subscribe(CLIENT_DELETIONS_CONSUMER, [CLIENT_DELETED], async (event) => {
    const target = await eventTenant(o, CLIENT_DELETIONS_CONSUMER, event);
    if (!target) return;
    const { tenant, db } = target;
    const clientId = (event.payload as { id: number }).id;
    for (;;) {
      const batch = await o.files.ofClient(db, clientId, BATCH);
      if (batch.length === 0) break;
      await db.transaction(async (tx) => {
        await o.files.deleteMany(tx, batch.map((f) => f.id));
        await enqueueEvents(tx, batch.map((f) => newEvent(FILE_DELETED, tenant.shortName, fileDeletedEvent(f, SYSTEM_ACTOR))));
      });
      for (const f of batch) {
        if (f.location.kind === 'object') await o.blobs.deleteQuietly(tenant.shortName, f.location);
      }
      o.logger.info({ clientId, files: batch.length }, 'files of a deleted client removed');
    }
  });
}
