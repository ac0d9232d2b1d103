import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { ComplianceInsight, InsightListQuery, InsightPriority, InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import type { Finding } from '../rules/find-insights.ts';

/** Insights that still ask for attention; a subject has at most one (unique index). */
const OPEN = `status IN ('pending', 'reviewed')`;

const SELECT = (clientsTable: string) => `SELECT i.id, i.client_id AS "clientId", c.name AS "clientName", i.file_id AS "fileId", i.file_name AS "fileName",
  i.insight_type AS "insightType", i.priority, i.title, i.description, i.recommended_action AS "recommendedAction",
  i.confidence::float8 AS confidence, i.status, i.metadata, i.created_at AS "createdAt", i.reviewed_at AS "reviewedAt",
  i.reviewed_by_id AS "reviewedById", i.reviewed_by_name AS "reviewedByName"
  FROM compliance_insights i LEFT JOIN ${clientsTable} c ON c.id = i.client_id AND NOT c.deleted`;

type Row = Omit<ComplianceInsight, 'createdAt' | 'reviewedAt' | 'periods'> & { createdAt: Date; reviewedAt: Date | null };
/** The covered periods an insight concerns: a group's list, a match's one period (metadata, as the rules wrote them). */
const periodsOf = (metadata: Record<string, unknown>): string[] =>
  Array.isArray(metadata.periods) ? metadata.periods.filter((p): p is string => typeof p === 'string')
    : typeof metadata.period === 'string' ? [metadata.period] : [];
const present = (r: Row): ComplianceInsight => ({
  ...r, periods: periodsOf(r.metadata), createdAt: r.createdAt.toISOString(), reviewedAt: r.reviewedAt ? r.reviewedAt.toISOString() : null,
});

export interface ReconcileResult {
  created: number;
  retired: number;
}

interface OpenRow { id: number; subject: string; fingerprint: string }
/** JSON with object keys sorted: jsonb gives keys back in its own order. */
const canonical = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(canonical)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
/** What a run may change on an open insight (a group's periods among it); equal fingerprints mean nothing to write. */
const fingerprint = (f: Pick<Finding, 'priority' | 'title' | 'description' | 'recommendedAction' | 'confidence' | 'fileId' | 'metadata'>): string =>
  JSON.stringify([f.priority, f.title, f.description, f.recommendedAction, Number(f.confidence).toFixed(2), f.fileId, canonical(f.metadata)]);

export class InsightStore {
  readonly #select: string;

  /** `clientsTable`: the directory read model's clients, for clientName. */
  constructor(clientsTable: string) {
    this.#select = SELECT(clientsTable);
  }

  /** `readable`: the caller's reach as a condition on `i` (access-rules.ts readableInsights). */
  async list(db: Queryable, readable: (p: SqlParams) => string, q: InsightListQuery): Promise<ComplianceInsight[]> {
    const p = new SqlParams();
    const where: string[] = [readable(p)];
    if (q.clientId !== undefined) where.push(`i.client_id = ${p.add(q.clientId)}`);
    if (q.status) where.push(`i.status = ${p.add(q.status)}`);
    if (q.priority) where.push(`i.priority = ${p.add(q.priority)}`);
    const { rows } = await db.query<Row>(`${this.#select} WHERE ${where.join(' AND ')} ORDER BY i.created_at DESC, i.id DESC`, p.values);
    return rows.map(present);
  }

  async get(db: Queryable, id: number, lock = false): Promise<ComplianceInsight | null> {
    const { rows } = await db.query<Row>(`${this.#select} WHERE i.id = $1${lock ? ' FOR UPDATE OF i' : ''}`, [id]);
    return rows[0] ? present(rows[0]) : null;
  }

  /** A dismissal keeps what it replaced (status and reviewer), so its dismisser can undo it for a while. */
  async review(tx: Queryable, id: number, status: InsightStatus, reviewer: { id: number; name: string }): Promise<void> {
    await tx.query(
      `UPDATE compliance_insights SET status = $2, reviewed_at = now(), reviewed_by_id = $3, reviewed_by_name = $4, updated_at = now(),
         undo = CASE WHEN $2 = 'dismissed' THEN jsonb_build_object('status', status, 'reviewedAt', reviewed_at, 'reviewedById', reviewed_by_id, 'reviewedByName', reviewed_by_name) END
       WHERE id = $1`,
      [id, status, reviewer.id, reviewer.name],
    );
  }

  /**
   * Undoes a dismissal `reviewerId` made within the last `minutes`: the insight gets back the
   * status and reviewer it had. Null when it may not (someone else's, older, a run's
   * retirement, not dismissed); 'superseded' when an open insight about its subject exists.
   */
  async undoDismissal(tx: Queryable, id: number, reviewerId: number, minutes: number): Promise<'done' | 'superseded' | null> {
    const { rows } = await tx.query<{ subject: string }>(
      `SELECT subject FROM compliance_insights WHERE id = $1 AND status = 'dismissed' AND undo IS NOT NULL AND retired_at IS NULL
         AND reviewed_by_id = $2 AND reviewed_at > now() - make_interval(mins => $3) FOR UPDATE`, [id, reviewerId, minutes],
    );
    if (!rows[0]) return null;
    const open = await tx.query(`SELECT 1 FROM compliance_insights WHERE subject = $1 AND ${OPEN}`, [rows[0].subject]);
    if (open.rows.length) return 'superseded';
    await tx.query(
      `UPDATE compliance_insights SET status = undo->>'status', reviewed_at = (undo->>'reviewedAt')::timestamptz, reviewed_by_id = (undo->>'reviewedById')::int,
         reviewed_by_name = undo->>'reviewedByName', undo = NULL, updated_at = now() WHERE id = $1`, [id],
    );
    return 'done';
  }

  /**
   * Tracker items whose missing-document card a person acted upon or dismissed: the rules do
   * not raise them again (a grouped card's items, or an older card's one item).
   */
  async settledItems(db: Queryable, clientId: number): Promise<Set<number>> {
    const { rows } = await db.query<{ id: number }>(
      `SELECT DISTINCT COALESCE((e->>'trackerItemId')::int, (i.metadata->>'trackerItemId')::int) AS id
       FROM compliance_insights i LEFT JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(i.metadata->'items') = 'array' THEN i.metadata->'items' ELSE '[]'::jsonb END) e ON true
       WHERE i.client_id = $1 AND i.insight_type = 'missing_document' AND i.status IN ('acted_upon', 'dismissed') AND i.retired_at IS NULL`, [clientId],
    );
    return new Set(rows.map((r) => r.id).filter((id) => id !== null));
  }

  /**
   * Makes a client's insights match a run's findings: a new subject becomes a pending
   * insight; an open one is refreshed in place (a due-soon document that is now overdue
   * turns high); an open one whose subject was not found is retired (dismissed, with no
   * reviewer). A subject a person acted upon or dismissed is not raised again, unless the
   * finding is renewable (grouped missing periods: the rules left out the periods the person
   * closed, so what remains is new). Runs for the
   * same client wait for each other (advisory lock), so two never insert the same subject.
   */
  async reconcile(tx: Queryable, clientId: number, findings: readonly Finding[], fileNames: ReadonlyMap<number, string>): Promise<ReconcileResult> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('insights:client:' || $1::text))`, [clientId]);
    const { rows } = await tx.query<OpenRow & { status: InsightStatus; priority: InsightPriority; title: string; description: string; recommendedAction: string; confidence: number; fileId: number | null; metadata: Record<string, unknown> }>(
      `SELECT id, subject, status, priority, title, description, recommended_action AS "recommendedAction",
         confidence::float8 AS confidence, file_id AS "fileId", metadata
       FROM compliance_insights WHERE client_id = $1 AND (${OPEN} OR retired_at IS NULL)`, [clientId],
    );
    const open = new Map<string, OpenRow>();
    const closedByPerson = new Set<string>();
    for (const r of rows) {
      if (r.status === 'pending' || r.status === 'reviewed') open.set(r.subject, { id: r.id, subject: r.subject, fingerprint: fingerprint(r) });
      else closedByPerson.add(r.subject);
    }
    const toInsert: Finding[] = [];
    const toRefresh: (Finding & { id: number })[] = [];
    const found = new Set<string>();
    for (const f of findings) {
      found.add(f.subject);
      const existing = open.get(f.subject);
      if (existing) { if (existing.fingerprint !== fingerprint(f)) toRefresh.push({ ...f, id: existing.id }); }
      else if (f.renewable || !closedByPerson.has(f.subject)) toInsert.push(f);
    }
    const toRetire = [...open.values()].filter((o) => !found.has(o.subject)).map((o) => o.id);
    const record = (f: Finding) => ({
      subject: f.subject, insight_type: f.insightType, priority: f.priority, title: f.title, description: f.description,
      recommended_action: f.recommendedAction, confidence: f.confidence, file_id: f.fileId,
      file_name: f.fileId === null ? null : (fileNames.get(f.fileId) ?? null), metadata: f.metadata,
    });
    const columns = `subject text, insight_type text, priority text, title text, description text, recommended_action text, confidence numeric, file_id integer, file_name text, metadata jsonb`;
    if (toInsert.length) {
      await tx.query(
        `INSERT INTO compliance_insights (client_id, subject, insight_type, priority, title, description, recommended_action, confidence, file_id, file_name, metadata)
         SELECT $1, r.subject, r.insight_type, r.priority, r.title, r.description, r.recommended_action, r.confidence, r.file_id, r.file_name, r.metadata
         FROM jsonb_to_recordset($2::jsonb) AS r(${columns})`,
        [clientId, JSON.stringify(toInsert.map(record))],
      );
    }
    if (toRefresh.length) {
      await tx.query(
        `UPDATE compliance_insights i SET priority = r.priority, title = r.title, description = r.description, recommended_action = r.recommended_action,
           confidence = r.confidence, file_id = r.file_id, file_name = r.file_name, metadata = r.metadata, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS r(id integer, ${columns}) WHERE i.id = r.id`,
        [JSON.stringify(toRefresh.map((f) => ({ id: f.id, ...record(f) })))],
      );
    }
    await this.retire(tx, toRetire);
    return { created: toInsert.length, retired: toRetire.length };
  }

  /**
   * A tracker item was filed or removed: its match insight is resolved at once (no run needed).
   * True when an open missing-documents card still lists it: the caller re-analyses the
   * client, which drops the period from the card (or retires the card with its last period).
   */
  async retireForItem(tx: Queryable, itemId: number): Promise<boolean> {
    const { rows } = await tx.query<{ id: number }>(`SELECT id FROM compliance_insights WHERE ${OPEN} AND subject = $1`, [`compliance_match:item:${itemId}`]);
    await this.retire(tx, rows.map((r) => r.id));
    const listed = await tx.query(
      `SELECT 1 FROM compliance_insights WHERE ${OPEN} AND insight_type = 'missing_document' AND metadata->'items' @> $1::jsonb LIMIT 1`,
      [JSON.stringify([{ trackerItemId: itemId }])],
    );
    return listed.rows.length > 0;
  }

  async retire(tx: Queryable, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await tx.query(
      `UPDATE compliance_insights SET status = 'dismissed', retired_at = now(), updated_at = now(),
         metadata = metadata || jsonb_build_object('retiredAt', now())
       WHERE id = ANY($1::int[]) AND ${OPEN}`, [ids],
    );
  }
}
