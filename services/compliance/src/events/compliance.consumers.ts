import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { CLIENT_DELETED } from '@ledgerline/kit/directory/directory-read-model.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { INSIGHTS_MATCH_DETECTED, insightsMatchDetectedSchema } from '@ledgerline/contracts/compliance.contracts.ts';
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
