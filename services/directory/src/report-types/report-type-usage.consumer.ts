import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { FILE_DELETED, FILE_UPLOADED, type FileEvent } from '@ledgerline/contracts/files.contracts.ts';

const CONSUMER = 'directory.report-type-usage';

/**
 * Keeps report_type_files in step with the files service's files (file.uploaded adds a
 * typed file, file.deleted removes it; both idempotent by file id), so deleting a report
 * type can be refused while files use it.
 */
export function followReportTypeUsage(deps: TenantConsumerDeps): Promise<Subscription> {
  return consumeTenantEvents(deps, CONSUMER, [FILE_UPLOADED, FILE_DELETED], async (tx, event) => {
    const file = event.payload as FileEvent;
    if (event.type === FILE_DELETED) {
      await tx.query('DELETE FROM report_type_files WHERE file_id = $1', [file.id]);
    } else if (file.reportTypeId !== null) {
      await tx.query('INSERT INTO report_type_files (file_id, report_type_id) VALUES ($1, $2) ON CONFLICT (file_id) DO NOTHING', [file.id, file.reportTypeId]);
    }
  });
}
