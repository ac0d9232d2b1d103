import { z } from 'zod';
import { textSchema } from './scalars.ts';

/*
 * Stages of a return (issue 42): each report type has a firm-editable pipeline, an ordered list
 * of stages; every tracker item stands on one stage of its report type's pipeline. Stages have a
 * stable id (what items store and calls send), the name staff see and the name the client sees,
 * or none when the stage is hidden from clients (they then see the last visible stage before it).
 */

export const STAGE_MESSAGES = {
  stages: 'stages must be a list of 1 to 30 stages',
  stageId: 'A stage id is 1 to 40 lowercase letters, digits and dashes, starting with a letter or digit',
  duplicateId: 'Stage ids must be unique within a pipeline',
  duplicateName: 'Stage names must be unique within a pipeline',
  name: 'A stage needs a name of 1 to 60 characters',
  clientName: 'clientName must be text of 1 to 120 characters, or null to hide the stage from clients',
  automationStage: 'An automatic move must name a stage of the pipeline, or null to turn it off',
  unknownStage: 'stage must be one of the stages of the item\'s pipeline',
  stageInUse: 'Items stand on a stage this pipeline removes: move them first',
  pipelineDenied: 'Only an Admin can change a pipeline.',
  reportTypeNotFound: 'Report type not found',
} as const;

export interface Stage {
  /** Stable within its pipeline: items store it, calls and filters send it. */
  id: string;
  /** What staff see ("In review"). */
  name: string;
  /** What the client sees ("We are preparing it"); null: hidden from clients. */
  clientName: string | null;
}

/**
 * What the product moves by itself (issue 42), each to the stage it names, or null when the firm
 * turned that move off. Automatic moves only go forward in the pipeline (never back, and never off
 * the last stage), so events that arrive late or out of order cannot undo a later stage.
 */
export interface StageAutomations {
  /** A document request made or sent for the item. */
  requestSent: string | null;
  /** Every required item of the item's document request is in (the request completed). */
  documentsIn: string | null;
  /** The item marked filed. */
  filed: string | null;
  /** A signature request linked to the item sent to its signers (issue 41). */
  signatureSent: string | null;
}
export const STAGE_AUTOMATIONS = ['requestSent', 'documentsIn', 'filed', 'signatureSent'] as const;

export interface Pipeline {
  reportTypeId: number;
  reportTypeName: string;
  stages: Stage[];
  automations: StageAutomations;
  /** False while the firm has not saved one: the default pipeline applies. */
  customised: boolean;
}

/** The default pipeline of every report type until the firm saves its own. */
export const DEFAULT_STAGES: readonly Stage[] = [
  { id: 'not-started', name: 'Not started', clientName: 'Not started yet' },
  { id: 'waiting-on-client', name: 'Waiting on client', clientName: 'We are waiting for you' },
  { id: 'in-preparation', name: 'In preparation', clientName: 'We are preparing it' },
  { id: 'in-review', name: 'In review', clientName: null },
  { id: 'ready-to-sign', name: 'Ready to sign', clientName: 'Ready for your signature' },
  { id: 'ready-to-file', name: 'Ready to file', clientName: null },
  { id: 'filed', name: 'Filed', clientName: 'Filed' },
];
export const DEFAULT_AUTOMATIONS: StageAutomations = { requestSent: 'waiting-on-client', documentsIn: 'in-preparation', filed: 'filed', signatureSent: 'ready-to-sign' };
/** Where every item starts: the first stage of the default pipeline (a saved pipeline's first stage for new items of its type). */
export const FIRST_STAGE_ID = DEFAULT_STAGES[0]!.id;

const stageIdSchema = z.string({ error: STAGE_MESSAGES.stageId }).regex(/^[a-z0-9][a-z0-9-]{0,39}$/, STAGE_MESSAGES.stageId);

/** "Waiting on client" → "waiting-on-client": the id of a stage saved without one. */
export const stageIdOf = (name: string): string =>
  name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'stage';

const stageInputSchema = z.object({
  id: stageIdSchema.optional(),
  name: textSchema('name', 60).transform((v) => v.trim()).refine((v) => v.length > 0, STAGE_MESSAGES.name),
  clientName: z.union([z.null(), textSchema('clientName', 120)], { error: STAGE_MESSAGES.clientName })
    .transform((v) => (v?.trim() ? v.trim() : null)),
}, { error: STAGE_MESSAGES.stages });

const automationSchema = z.union([z.null(), stageIdSchema], { error: STAGE_MESSAGES.automationStage }).optional();

/**
 * PUT /compliance-pipelines/{reportTypeId}: the whole pipeline, in order. A stage without an id
 * takes one made from its name. Automations absent: each default move to its default stage when
 * the pipeline has it, else off.
 */
export const pipelineInputSchema = z.object({
  stages: z.array(stageInputSchema, { error: STAGE_MESSAGES.stages }).min(1, STAGE_MESSAGES.stages).max(30, STAGE_MESSAGES.stages),
  automations: z.object({ requestSent: automationSchema, documentsIn: automationSchema, filed: automationSchema, signatureSent: automationSchema }, { error: STAGE_MESSAGES.automationStage }).optional(),
}).transform((p, ctx) => {
  const stages: Stage[] = p.stages.map((s) => ({ id: s.id ?? stageIdOf(s.name), name: s.name, clientName: s.clientName }));
  const ids = stages.map((s) => s.id);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['stages'], message: STAGE_MESSAGES.duplicateId });
  const names = stages.map((s) => s.name.toLowerCase());
  if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', path: ['stages'], message: STAGE_MESSAGES.duplicateName });
  const automations = {} as StageAutomations;
  for (const key of STAGE_AUTOMATIONS) {
    const given = p.automations?.[key];
    const target = given === undefined ? (ids.includes(DEFAULT_AUTOMATIONS[key]!) ? DEFAULT_AUTOMATIONS[key] : null) : given;
    if (target !== null && !ids.includes(target)) ctx.addIssue({ code: 'custom', path: ['automations', key], message: STAGE_MESSAGES.automationStage });
    automations[key] = target;
  }
  return { stages, automations };
});
export type PipelineInput = z.output<typeof pipelineInputSchema>;

/** PATCH /compliance-tracker/{id}: the item's stage, by id (or by its staff name, as the default "Not started"). */
export const trackerPatchSchema = z.object({
  stage: textSchema('stage', 60).refine((v) => v.trim().length > 0, STAGE_MESSAGES.unknownStage),
}, { error: STAGE_MESSAGES.unknownStage });
export type TrackerPatch = z.output<typeof trackerPatchSchema>;

/**
 * Which stage a client sees for an item on `stageId`: that stage's client name, else the last
 * visible stage before it, else null (nothing to say yet).
 */
export function clientStageOf(stages: readonly Stage[], stageId: string): string | null {
  const at = stages.findIndex((s) => s.id === stageId);
  for (let i = at; i >= 0; i--) if (stages[i]!.clientName) return stages[i]!.clientName;
  return null;
}

// ---------------------------------------------------------------- events and pushes

/** Why an item moved: a person, or one of the automatic moves. */
export type StageMoveCause = 'manual' | (typeof STAGE_AUTOMATIONS)[number];

/** Published through the outbox on every move (the activity log records it; compliance pushes it). */
export const COMPLIANCE_STAGE_CHANGED = 'compliance.item.stage-changed';
export interface ComplianceStageChanged {
  itemId: number;
  clientId: number;
  clientName: string;
  reportTypeId: number;
  reportTypeName: string;
  period: string;
  from: { id: string; name: string };
  to: { id: string; name: string };
  cause: StageMoveCause;
  /** The person who moved it; for an automatic move the system actor. */
  actorId: number;
  actorName: string;
}

/** What a push (STAGE_PUSH, stages.constants.ts) tells: staff the stage, a client user only what clients see. */
export interface StagePush {
  itemId: number;
  clientId: number;
  stage: string | null;
  stageName: string | null;
  clientStage: string | null;
}
