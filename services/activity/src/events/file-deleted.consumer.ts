import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { FILE_DELETED, type FileDeletedEvent } from '@ledgerline/contracts/files.contracts.ts';
import type { ActivityFileStore } from '../files/activity-file.store.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const FILE_DELETED_CONSUMER = 'activity.file-deleted';

/** A deletion is a `delete` entry by whoever deleted it; the file leaves the dashboards, its history stays. */
export function followFileDeletions(deps: TenantConsumerDeps & { files: ActivityFileStore; logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, FILE_DELETED_CONSUMER, [FILE_DELETED], async (tx, event) => {
    const f = event.payload as FileDeletedEvent;
    await deps.files.deleted(tx, f, f.deletedAt);
    await deps.logs.record(tx, {
      action: 'delete', fileId: f.id, fileName: f.originalName, userId: f.deletedById, userName: f.deletedByName,
      clientId: f.clientId, clientName: f.clientName, details: `Deleted ${f.originalName}`, timestamp: f.deletedAt,
    });
  });
}
