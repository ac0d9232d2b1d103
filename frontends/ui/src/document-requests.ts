import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import { invalidateApiResources } from './api-invalidation.ts';
import { useRealtimeEvents } from '@ledgerline/ui/realtime-connection.ts';

/* What the request screens (the requests remote, the home panels) share about document requests. */

/** "3 to review": a request's items uploaded and waiting for a decision (progress.uploaded). */
export const toReviewText = (uploaded: number): string => `${uploaded} to review`;

/**
 * A document request changed while a screen showing requests is open (the requests service
 * pushes to the staff who reach it and to its client's users, link uploads included): the
 * cached request lists and pages are read again, so an upload shows without a reload.
 */
export function useDocumentRequestRefresh(enabled: boolean): void {
  const queryClient = useQueryClient();
  const handlers = useMemo(() => {
    const refresh = () => { void invalidateApiResources(queryClient, ['document-requests']); };
    // 'connect': pushes made before the socket (re)connected never arrive, so read again.
    return { connect: refresh, [DOCUMENT_REQUEST_PUSH]: refresh };
  }, [queryClient]);
  useRealtimeEvents(enabled, handlers);
}
