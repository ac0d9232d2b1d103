import type { PassageIndex } from '@ledgerline/kit/ai/passage-index.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { FILE_DELETED, type FileDeletedEvent } from '@ledgerline/contracts/files.contracts.ts';
import type { ChatSessionStore } from '../sessions/chat-session.store.ts';

export const FILE_DELETED_CONSUMER = 'chat.file-deleted';

/** A deleted file takes its conversations and this service's copy of its text with it. */
export function followFileDeletions(deps: TenantConsumerDeps & { sessions: ChatSessionStore; passages: PassageIndex }): Promise<Subscription> {
  return consumeTenantEvents(deps, FILE_DELETED_CONSUMER, [FILE_DELETED], async (tx, event) => {
    const { id } = event.payload as FileDeletedEvent;
    await deps.sessions.deleteOfFile(tx, id);
    await deps.passages.drop(tx, id);
  });
}
