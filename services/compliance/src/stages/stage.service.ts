import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES, type ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import {
  COMPLIANCE_STAGE_CHANGED, STAGE_MESSAGES, type ComplianceStageChanged, type Pipeline, type PipelineInput, type Stage, type StageAutomations, type StageMoveCause,
} from '@ledgerline/contracts/stages.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { TrackerStore } from '../tracker/tracker.store.ts';
import type { PipelineStore } from './pipeline.store.ts';

/** A pipeline's save and the moves of its items, one at a time: a move never lands on a stage being removed. */
const lockPipeline = (tx: Queryable, reportTypeId: number) => tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`compliance-pipeline:${reportTypeId}`]);

/**
 * Pipelines and the moves of items along them (issue 42; docs/using/stages.md). Every move,
 * by a person or by the product, is committed with its compliance.item.stage-changed event:
 * the activity log records it and compliance pushes it (stage-push.consumer.ts).
 */
export class StageService {
  readonly #pipelines: PipelineStore;
  readonly #items: TrackerStore;
  readonly #directory: DirectoryLookup;

  constructor(deps: { pipelines: PipelineStore; items: TrackerStore; directory: DirectoryLookup }) {
    this.#pipelines = deps.pipelines;
    this.#items = deps.items;
    this.#directory = deps.directory;
  }

  /** GET /compliance-pipelines: staff, those of the report types they reach. */
  list(t: TenantRequest): Promise<Pipeline[]> {
    return this.#pipelines.list(t.db, staffReach(t).reportTypes);
  }

  /**
   * PUT /compliance-pipelines/{reportTypeId}: Admins. A stage items still stand on cannot be
   * removed (409): they would stand nowhere.
   */
  async save(t: TenantRequest, reportTypeId: number, input: PipelineInput): Promise<Pipeline> {
    if (t.scope.isClient || !t.scope.isAdmin) throw new Forbidden(STAGE_MESSAGES.pipelineDenied);
    const reportType = await this.#directory.reportType(t, reportTypeId);
    return t.db.transaction(async (tx) => {
      // One save of a report type's pipeline at a time, and no move of its items in between.
      await lockPipeline(tx, reportTypeId);
      const inUse = await this.#pipelines.stagesInUse(tx, reportTypeId, input.stages.map((s) => s.id));
      if (inUse.length) throw new Conflict(`${STAGE_MESSAGES.stageInUse} (${inUse.map((s) => `${s.stage}: ${s.items}`).join(', ')})`);
      await this.#pipelines.save(tx, reportTypeId, input);
      return this.#pipelines.get(tx, reportType);
    });
  }

  /** PATCH /compliance-tracker/{id} with a stage: staff within reach; the stage by id, or by its staff name. */
  async move(t: TenantRequest, id: number, wanted: string): Promise<ComplianceItem> {
    const reach = staffReach(t);
    const item = await this.#items.get(t.db, reach, id);
    if (!item) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
    return t.db.transaction(async (tx) => {
      if (!await this.#items.lock(tx, reach, id)) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
      await lockPipeline(tx, item.reportTypeId);
      const pipeline = await this.#pipelines.get(tx, { id: item.reportTypeId, name: item.reportTypeName });
      const key = wanted.trim().toLowerCase();
      const stage = pipeline.stages.find((s) => s.id === key) ?? pipeline.stages.find((s) => s.name.toLowerCase() === key);
      if (!stage) throw new Invalid(STAGE_MESSAGES.unknownStage);
      await this.#moveLocked(tx, t.shortName, id, pipeline, stage, 'manual', { id: actorId(t.claims), name: actorName(t.claims) });
      return (await this.#items.byIds(tx, [id]))[0]!;
    });
  }

  /**
   * An automatic move (a request sent, documents in, filed), in the caller's transaction: to the
   * stage the item's pipeline names for it, when the firm has not turned it off and the stage
   * lies ahead of the item's (never back: late or reordered events cannot undo a later stage).
   */
  async automatic(tx: Queryable, tenant: string, itemId: number, cause: keyof StageAutomations): Promise<boolean> {
    const locked = await this.#lockedItem(tx, itemId);
    if (!locked) return false;
    const { stage, pipeline } = locked;
    const target = pipeline.automations[cause];
    if (!target) return false;
    const from = pipeline.stages.findIndex((s) => s.id === stage);
    const to = pipeline.stages.findIndex((s) => s.id === target);
    if (to < 0 || to <= from) return false;
    await this.#moveLocked(tx, tenant, itemId, pipeline, pipeline.stages[to]!, cause, SYSTEM_ACTOR);
    return true;
  }

  /**
   * Undoes an automatic move when what caused it is undone (an organizer reopened after its
   * submission moved the item on): back to the stage `back` names, only while the item still
   * stands where `made` put it — staff who moved it since keep their move.
   */
  async undoAutomatic(tx: Queryable, tenant: string, itemId: number, made: keyof StageAutomations, back: keyof StageAutomations): Promise<boolean> {
    const locked = await this.#lockedItem(tx, itemId);
    if (!locked) return false;
    const { stage, pipeline } = locked;
    const target = pipeline.stages.find((s) => s.id === pipeline.automations[back]);
    if (!target || !pipeline.automations[made] || stage !== pipeline.automations[made]) return false;
    await this.#moveLocked(tx, tenant, itemId, pipeline, target, back, SYSTEM_ACTOR);
    return true;
  }

  /** The item's stage and its report type's pipeline, the item's row and the pipeline locked for a move. */
  async #lockedItem(tx: Queryable, itemId: number): Promise<{ stage: string; pipeline: Pipeline } | null> {
    const { rows } = await tx.query<{ report_type_id: number; stage: string }>('SELECT report_type_id, stage FROM compliance_items WHERE id = $1 FOR UPDATE', [itemId]);
    const row = rows[0];
    if (!row) return null;
    await lockPipeline(tx, row.report_type_id);
    return { stage: row.stage, pipeline: await this.#pipelines.get(tx, { id: row.report_type_id, name: '' }) };
  }

  async #moveLocked(tx: Queryable, tenant: string, id: number, pipeline: Pipeline, stage: Stage, cause: StageMoveCause, actor: { id: number; name: string }): Promise<void> {
    const before = (await this.#items.byIds(tx, [id]))[0]!;
    if (before.stage === stage.id) return;
    await tx.query('UPDATE compliance_items SET stage = $1, updated_at = now() WHERE id = $2', [stage.id, id]);
    const fromStage = pipeline.stages.find((s) => s.id === before.stage);
    await enqueueEvents(tx, [newEvent<ComplianceStageChanged>(COMPLIANCE_STAGE_CHANGED, tenant, {
      itemId: id, clientId: before.clientId, clientName: before.clientName, reportTypeId: before.reportTypeId, reportTypeName: before.reportTypeName,
      period: before.period, from: { id: before.stage ?? '', name: fromStage?.name ?? before.stage ?? '' }, to: { id: stage.id, name: stage.name },
      cause, actorId: actor.id, actorName: actor.name,
    })]);
  }
}
