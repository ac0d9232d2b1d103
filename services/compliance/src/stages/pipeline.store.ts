import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { DEFAULT_AUTOMATIONS, DEFAULT_STAGES, STAGE_AUTOMATIONS, type Pipeline, type PipelineInput, type Stage, type StageAutomations } from '@ledgerline/contracts/stages.contracts.ts';

/** The default stages as a SQL literal, for the queries that read an item's pipeline (none saved: this one). */
export const DEFAULT_STAGES_SQL = `'${JSON.stringify(DEFAULT_STAGES).replace(/'/g, "''")}'::jsonb`;

/** An item's pipeline's stages in SQL, given the alias of its LEFT JOINed compliance_pipelines row. */
export const stagesOf = (pipelineAlias: string) => `COALESCE(${pipelineAlias}.stages, ${DEFAULT_STAGES_SQL})`;

/** The client's name of the stage `stageExpr` names, else the last visible one before it (stages.contracts.ts clientStageOf), in SQL. */
export const clientStageSql = (pipelineAlias: string, stageExpr: string) => `(SELECT s.v->>'clientName' FROM jsonb_array_elements(${stagesOf(pipelineAlias)}) WITH ORDINALITY s(v, n)
  WHERE s.n <= (SELECT o.n FROM jsonb_array_elements(${stagesOf(pipelineAlias)}) WITH ORDINALITY o(v, n) WHERE o.v->>'id' = ${stageExpr} LIMIT 1)
    AND COALESCE(s.v->>'clientName', '') <> '' ORDER BY s.n DESC LIMIT 1)`;

interface PipelineRow { report_type_id: number; name: string; stages: Stage[] | null; automations: StageAutomations | null }

const toPipeline = (r: PipelineRow): Pipeline => {
  const stages = r.stages ?? [...DEFAULT_STAGES];
  return { reportTypeId: r.report_type_id, reportTypeName: r.name, stages, automations: withNewMoves(r.automations, stages), customised: r.stages !== null };
};

/**
 * Saved automations, with each move added since they were saved (a key they lack, e.g.
 * signatureSent) at its default when the pipeline has that stage, else off, as saving
 * without it would have set it.
 */
function withNewMoves(saved: Partial<StageAutomations> | null, stages: readonly Stage[]): StageAutomations {
  if (!saved) return { ...DEFAULT_AUTOMATIONS };
  const out = { ...saved } as StageAutomations;
  for (const key of STAGE_AUTOMATIONS) {
    if (out[key] === undefined) out[key] = stages.some((s) => s.id === DEFAULT_AUTOMATIONS[key]) ? DEFAULT_AUTOMATIONS[key] : null;
  }
  return out;
}

/** The firm's pipelines, keyed by report type (compliance keeps the report types' read model). */
export class PipelineStore {
  readonly #reportTypes: string;

  constructor(directory: DirectoryReadModel) {
    this.#reportTypes = directory.tables.reportTypes;
  }

  /** Every live report type within `reportTypes`, with its pipeline (the default when none is saved), by name. */
  async list(db: Queryable, reportTypes: 'all' | readonly number[]): Promise<Pipeline[]> {
    const p = new SqlParams();
    const within = reportTypes === 'all' ? 'true' : `rt.id = ANY(${p.add(reportTypes)}::int[])`;
    const { rows } = await db.query<PipelineRow>(
      `SELECT rt.id AS report_type_id, rt.name, pl.stages, pl.automations FROM ${this.#reportTypes} rt
       LEFT JOIN compliance_pipelines pl ON pl.report_type_id = rt.id
       WHERE NOT rt.deleted AND ${within} ORDER BY lower(rt.name), rt.id`, p.values);
    return rows.map(toPipeline);
  }

  /** A report type's pipeline (the default when none is saved), named as given. */
  async get(db: Queryable, reportType: { id: number; name: string }): Promise<Pipeline> {
    const { rows } = await db.query<PipelineRow>('SELECT report_type_id, stages, automations FROM compliance_pipelines WHERE report_type_id = $1', [reportType.id]);
    const row = rows[0];
    return toPipeline({ report_type_id: reportType.id, name: reportType.name, stages: row?.stages ?? null, automations: row?.automations ?? null });
  }

  async save(tx: Queryable, reportTypeId: number, input: PipelineInput): Promise<void> {
    await tx.query(
      `INSERT INTO compliance_pipelines (report_type_id, stages, automations) VALUES ($1, $2::jsonb, $3::jsonb)
       ON CONFLICT (report_type_id) DO UPDATE SET stages = EXCLUDED.stages, automations = EXCLUDED.automations, updated_at = now()`,
      [reportTypeId, JSON.stringify(input.stages), JSON.stringify(input.automations)],
    );
  }

  /** The stages items of this report type stand on that are not among `keep`, and how many items each. */
  async stagesInUse(tx: Queryable, reportTypeId: number, keep: readonly string[]): Promise<{ stage: string; items: number }[]> {
    const { rows } = await tx.query<{ stage: string; items: number }>(
      'SELECT stage, count(*)::int AS items FROM compliance_items WHERE report_type_id = $1 AND NOT (stage = ANY($2::text[])) GROUP BY stage ORDER BY stage',
      [reportTypeId, keep],
    );
    return rows;
  }
}
