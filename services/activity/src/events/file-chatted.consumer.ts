import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { FILE_CHATTED, type FileChattedEvent } from '@ledgerline/contracts/activity.contracts.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const FILE_CHATTED_CONSUMER = 'activity.file-chatted';

/** A question to the AI about a file (published by the chat service) is a `chat` entry. */
export function followFileChats(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, FILE_CHATTED_CONSUMER, [FILE_CHATTED], async (tx, event) => {
    const c = event.payload as FileChattedEvent;
    await deps.logs.record(tx, {
      action: 'chat', fileId: c.fileId, fileName: c.fileName, userId: c.userId, userName: c.userName,
      clientId: c.clientId, clientName: c.clientName, details: `Asked the AI about ${c.fileName}`, timestamp: c.occurredAt,
    });
  });
}
