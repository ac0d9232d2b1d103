import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { COMPLIANCE_STAGE_CHANGED, type ComplianceStageChanged, type StageMoveCause } from '@ledgerline/contracts/stages.contracts.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const STAGE_CHANGED_CONSUMER = 'activity.stage-changes';

/** Why the product moved an item by itself, as the log says it. */
const BECAUSE: Record<StageMoveCause, string> = {
  manual: '',
  requestSent: ' (a document request was sent)',
  documentsIn: ' (every requested document is in)',
  filed: ' (marked filed)',
  signatureSent: ' (a signature request was sent)',
};

/**
 * A tracker item's moves along its pipeline (issue 42), as `update` entries about the item's
 * client and report type: a CPA without the report type does not read them, and the client's
 * own users never do (they name the firm's stages, some hidden from clients).
 */
export function followStageChanges(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, STAGE_CHANGED_CONSUMER, [COMPLIANCE_STAGE_CHANGED], async (tx, event) => {
    const m = event.payload as ComplianceStageChanged;
    await deps.logs.record(tx, {
      action: 'update', userId: m.actorId, userName: m.actorName, clientId: m.clientId, clientName: m.clientName, timestamp: event.occurredAt,
      fileId: null, fileName: null, address: null, userAgent: null, reportTypeId: m.reportTypeId, staffOnly: true,
      details: `Moved ${m.reportTypeName} ${m.period} from "${m.from.name}" to "${m.to.name}"${BECAUSE[m.cause] ?? ''}`,
    });
  });
}
