import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { FILE_UPLOADED, type FileEvent } from '@ledgerline/contracts/files.contracts.ts';
import type { ActivityFileStore } from '../files/activity-file.store.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const FILE_UPLOADED_CONSUMER = 'activity.file-uploaded';

/** An upload is an `upload` entry by the uploader, and a file the dashboards count and list. */
export function followFileUploads(deps: TenantConsumerDeps & { files: ActivityFileStore; logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, FILE_UPLOADED_CONSUMER, [FILE_UPLOADED], async (tx, event) => {
    const f = event.payload as FileEvent;
    await deps.files.uploaded(tx, f);
    await deps.logs.record(tx, {
      action: 'upload', fileId: f.id, fileName: f.originalName, userId: f.uploadedById, userName: f.uploaderName,
      clientId: f.clientId, clientName: f.clientName, details: `Uploaded ${f.originalName}`, timestamp: f.uploadedAt,
    });
  });
}
