import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { usersReaching } from '@ledgerline/kit/access/users-reaching.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { COMPLIANCE_STAGE_CHANGED, type ComplianceStageChanged, type StagePush } from '@ledgerline/contracts/stages.contracts.ts';
import { STAGE_PUSH } from '@ledgerline/contracts/stages.constants.ts';
import { clientStageSql } from './pipeline.store.ts';

/**
 * Every move of an item, pushed to the user rooms of those who reach it: staff whose lists hold
 * its client and report type (the stage itself), the client's own users (only what clients see).
 * A CPA without the report type hears nothing. From the outbox event, so automatic moves push
 * like a person's, once, whichever replica consumes it.
 */
export function followStagePushes(deps: TenantConsumerDeps & { users: UserAccessReadModel; emitter: RealtimeEmitter }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'compliance.stage-push', [COMPLIANCE_STAGE_CHANGED], async (tx, event, tenant) => {
    const move = event.payload as ComplianceStageChanged;
    const { rows } = await tx.query<{ client_stage: string | null }>(
      `SELECT ${clientStageSql('pl', '$2')} AS client_stage
       FROM (SELECT $1::int AS report_type_id) x LEFT JOIN compliance_pipelines pl ON pl.report_type_id = x.report_type_id`,
      [move.reportTypeId, move.to.id],
    );
    const clientStage = rows[0]?.client_stage ?? null;
    for (const user of await usersReaching(tx, deps.users.table, move.clientId)) {
      if (user.reportTypes !== 'all' && !user.reportTypes.includes(move.reportTypeId)) continue;
      const push: StagePush = user.isClient
        ? { itemId: move.itemId, clientId: move.clientId, stage: null, stageName: null, clientStage }
        : { itemId: move.itemId, clientId: move.clientId, stage: move.to.id, stageName: move.to.name, clientStage };
      deps.emitter.emit(userRoom(tenant.shortName, user.userId), STAGE_PUSH, push);
    }
  });
}
