import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import {
  COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, complianceDeletedEventSchema, complianceItemEventSchema,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequestChanged } from '@ledgerline/contracts/requests.contracts.ts';

const CONSUMER = 'files.file-context';

/**
 * What a file was for, as the services that know it announce it (DESIGN §2: no reading their
 * tables): the request item each file was uploaded for (requests' `item_uploaded`), and the
 * covered period of every tracker item with the file it was matched to (compliance). A
 * client's ZIP groups and names its files by them (client-archive.ts). A request's later
 * events keep its title and tracker item current on its files' rows; a tracker item's newer
 * event wins over an older one delivered late, and a deleted item leaves a tombstone.
 */
export function followFileContext(deps: TenantConsumerDeps): Promise<Subscription> {
  return consumeTenantEvents(deps, CONSUMER, [DOCUMENT_REQUEST_CHANGED, COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_ITEM_DELETED], async (tx, event) => {
    switch (event.type) {
      case DOCUMENT_REQUEST_CHANGED: {
        const r = event.payload as DocumentRequestChanged;
        if (r.action === 'item_uploaded' && r.itemId !== undefined) {
          for (const f of r.files ?? []) {
            await tx.query(
              `INSERT INTO file_request_items (file_id, request_id, request_title, item_id, item_title, tracker_item_id) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (file_id) DO NOTHING`,
              [f.fileId, r.requestId, r.title, r.itemId, r.itemTitle ?? '', r.trackerItemId ?? null],
            );
          }
        }
        await tx.query('UPDATE file_request_items SET request_title = $2, tracker_item_id = $3 WHERE request_id = $1', [r.requestId, r.title, r.trackerItemId ?? null]);
        return;
      }
      case COMPLIANCE_ITEM_UPSERTED: {
        const item = complianceItemEventSchema.parse(event.payload);
        await tx.query(
          `INSERT INTO file_tracker_periods (tracker_item_id, period, period_start, period_end, source_file_id, version) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (tracker_item_id) DO UPDATE SET period = EXCLUDED.period, period_start = EXCLUDED.period_start, period_end = EXCLUDED.period_end,
             source_file_id = EXCLUDED.source_file_id, version = EXCLUDED.version
           WHERE file_tracker_periods.version <= EXCLUDED.version AND NOT file_tracker_periods.deleted`,
          [item.id, item.period, item.periodStart, item.periodEnd, item.sourceFileId, event.occurredAt],
        );
        return;
      }
      default: {
        const { id } = complianceDeletedEventSchema.parse(event.payload);
        await tx.query(
          `INSERT INTO file_tracker_periods (tracker_item_id, period, period_start, period_end, deleted, version) VALUES ($1, '', '1970-01-01', '1970-01-01', true, $2)
           ON CONFLICT (tracker_item_id) DO UPDATE SET deleted = true, source_file_id = NULL, version = EXCLUDED.version`,
          [id, event.occurredAt],
        );
      }
    }
  });
}
