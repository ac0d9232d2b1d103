import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { CLIENT_DELETED } from '@ledgerline/kit/directory/directory-read-model.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { INSIGHTS_MATCH_DETECTED, insightsMatchDetectedSchema } from '@ledgerline/contracts/compliance.contracts.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequestAction, type DocumentRequestChanged } from '@ledgerline/contracts/requests.contracts.ts';
import { SIGNATURE_REQUEST_CHANGED, type SignatureRequestChanged } from '@ledgerline/contracts/signatures.contracts.ts';
import type { StageAutomations } from '@ledgerline/contracts/stages.contracts.ts';
import { ORGANIZER_EVENTS, type OrganizerChanged } from '@ledgerline/contracts/organizers.contracts.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { StageService } from '../stages/stage.service.ts';
import type { ScheduleStore } from '../schedules/schedule.store.ts';
import { publishClientRemoval } from '../tracker/compliance-events.ts';
import type { TrackerService } from '../tracker/tracker.service.ts';

/** The directory removed a client: its schedules and tracker items go too, announced as deletions. */
export function followClientDeletions(deps: TenantConsumerDeps & { schedules: ScheduleStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.client-deleted', [CLIENT_DELETED], async (tx, event, tenant) => {
    const clientId = (event.payload as { id: number }).id;
    const removed = await deps.schedules.deleteClient(tx, clientId);
    await publishClientRemoval(tx, tenant.shortName, clientId, removed);
  });
}

/** The insights service matched a document to a tracker item (contracts: insights.match.detected). */
export function followInsightMatches(deps: TenantConsumerDeps & { tracker: TrackerService }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.insight-matches', [INSIGHTS_MATCH_DETECTED], async (tx, event, tenant) => {
    const match = insightsMatchDetectedSchema.safeParse(event.payload);
    if (!match.success) {
      deps.logger.warn({ type: event.type, id: event.id, error: match.error.message }, 'malformed insights match ignored');
      return;
    }
    await deps.tracker.recordMatch(tx, tenant.shortName, match.data);
  });
}

/** The request changes that move a tracker item by themselves (issue 42): made or sent → waiting; completed → documents in. */
const AUTOMATIC_MOVE_OF: Partial<Record<DocumentRequestAction, keyof StageAutomations>> = { created: 'requestSent', sent: 'requestSent', completed: 'documentsIn' };

/**
 * Document requests made for tracker items (issue 27): the tracker shows each item's newest
 * open or completed request and its progress.
 */
export function followTrackerDocumentRequests(deps: TenantConsumerDeps & { stages: StageService }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.document-requests', [DOCUMENT_REQUEST_CHANGED], async (tx, event, tenant) => {
    const r = event.payload as DocumentRequestChanged;
    // Requests of no tracker item, and events published before they carried the request's state, are not kept.
    if (r.trackerItemId === null || r.trackerItemId === undefined || r.revision === undefined) return;
    const kept = await tx.query(
      `INSERT INTO compliance_document_requests (request_id, tracker_item_id, status, required, done, revision) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (request_id) DO UPDATE SET status = EXCLUDED.status, required = EXCLUDED.required, done = EXCLUDED.done, revision = EXCLUDED.revision
       WHERE compliance_document_requests.revision < EXCLUDED.revision`,
      [r.requestId, r.trackerItemId, r.status, r.progress.required, r.progress.done, r.revision],
    );
    // Issue 42: the item's stage follows the request; a change older than one already kept moves nothing.
    if (!kept.rowCount) return;
    const cause = AUTOMATIC_MOVE_OF[r.action];
    // Documents in, but an organizer of the item still being answered: the item still waits on the client.
    if (cause === 'documentsIn' && await organizerOpen(tx, r.trackerItemId)) return;
    if (cause) await deps.stages.automatic(tx, tenant.shortName, r.trackerItemId, cause);
  });
}

/** Whether an organizer sent for the tracker item is still being answered. */
async function organizerOpen(tx: Queryable, trackerItemId: number): Promise<boolean> {
  const r = await tx.query(`SELECT 1 FROM compliance_organizers WHERE tracker_item_id = $1 AND status IN ('sent', 'in_progress') LIMIT 1`, [trackerItemId]);
  return (r.rowCount ?? 0) > 0;
}

/**
 * Organizers sent for tracker items (issue 42): sent → the pipeline's requestSent move (the
 * same "waiting on client" as a document request); submitted with no documents outstanding
 * for the item (no open request waiting, no other organizer being answered) → its documentsIn
 * move; reopened while the item is still where that submission put it → back to waiting on the
 * client. Only an item of the organizer's own client moves.
 */
export function followTrackerOrganizers(deps: TenantConsumerDeps & { stages: StageService }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.organizers', Object.values(ORGANIZER_EVENTS), async (tx, event, tenant) => {
    const o = event.payload as OrganizerChanged;
    if (o.trackerItemId === null || o.trackerItemId === undefined) return;
    const item = await tx.query('SELECT 1 FROM compliance_items WHERE id = $1 AND client_id = $2', [o.trackerItemId, o.clientId]);
    if (!item.rowCount) return;
    const kept = await tx.query(
      `INSERT INTO compliance_organizers (organizer_id, tracker_item_id, status, occurred_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organizer_id) DO UPDATE SET status = EXCLUDED.status, occurred_at = EXCLUDED.occurred_at
       WHERE compliance_organizers.occurred_at < EXCLUDED.occurred_at`,
      [o.organizerId, o.trackerItemId, o.status, event.occurredAt],
    );
    if (!kept.rowCount) return;
    if (event.type === ORGANIZER_EVENTS.sent) {
      await deps.stages.automatic(tx, tenant.shortName, o.trackerItemId, 'requestSent');
    } else if (event.type === ORGANIZER_EVENTS.submitted) {
      if (o.documentsOutstanding || await organizerOpen(tx, o.trackerItemId)) return;
      const waiting = await tx.query(
        `SELECT 1 FROM compliance_document_requests WHERE tracker_item_id = $1 AND status = 'open' AND done < required LIMIT 1`, [o.trackerItemId]);
      if (waiting.rowCount) return;
      await deps.stages.automatic(tx, tenant.shortName, o.trackerItemId, 'documentsIn');
    } else if (event.type === ORGANIZER_EVENTS.reopened) {
      await deps.stages.undoAutomatic(tx, tenant.shortName, o.trackerItemId, 'documentsIn', 'requestSent');
    }
  });
}

/**
 * Signature requests linked to tracker items (issue 41): sending one moves the item to "Ready to
 * sign" (the pipeline's signatureSent move); once its sealed PDF is filed the item shows it. Only an item of the request's own client and report
 * type moves: whoever made the request reaches those, so a stray or foreign trackerItemId moves nothing.
 */
export function followTrackerSignatureRequests(deps: TenantConsumerDeps & { stages: StageService }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.signature-requests', [SIGNATURE_REQUEST_CHANGED], async (tx, event, tenant) => {
    const r = event.payload as SignatureRequestChanged;
    const filed = r.action === 'filed' && r.signedFileId && r.completedAt;
    if ((r.action !== 'sent' && !filed) || r.trackerItemId === null || r.trackerItemId === undefined) return;
    const item = await tx.query('SELECT 1 FROM compliance_items WHERE id = $1 AND client_id = $2 AND report_type_id = $3', [r.trackerItemId, r.clientId, r.reportTypeId]);
    if (!item.rowCount) return;
    if (r.action === 'sent') {
      await deps.stages.automatic(tx, tenant.shortName, r.trackerItemId, 'signatureSent');
      return;
    }
    // The item shows what was signed and when ("Form 8879 2026 signed 12 Mar 2027").
    await tx.query(
      `INSERT INTO compliance_signed_documents (request_id, tracker_item_id, file_id, signed_at, title) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (request_id) DO UPDATE SET file_id = EXCLUDED.file_id, signed_at = EXCLUDED.signed_at, title = EXCLUDED.title`,
      [r.requestId, r.trackerItemId, r.signedFileId, r.completedAt, r.title],
    );
  });
}
