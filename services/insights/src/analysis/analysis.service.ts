import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { INSIGHTS_MATCH_DETECTED, type InsightsMatchDetected } from '@ledgerline/contracts/compliance.contracts.ts';
import type { EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { JURISDICTIONS, type InsightRuleSettings, type Jurisdiction } from '@ledgerline/contracts/insights.contracts.ts';
import type { InsightStore, ReconcileResult } from '../insights/insight.store.ts';
import type { RuleSettingsStore } from '../insights/rule-settings.store.ts';
import type { FileFactsStore } from '../read-models/file-facts.store.ts';
import type { TrackerStore } from '../read-models/tracker.store.ts';
import { findInsights } from '../rules/find-insights.ts';

interface AnalysisDeps {
  files: FileFactsStore;
  tracker: TrackerStore;
  insights: InsightStore;
  settings: RuleSettingsStore;
  /** The directory read model's tables (report-type names, clients' jurisdictions). */
  tables: { clients: string; reportTypes: string };
  /** The firm's IANA time zone, by short name. */
  timeZoneOf(firm: string): Promise<string>;
}

interface RunContext {
  today: string;
  settings: InsightRuleSettings;
  reportTypeNames: ReadonlyMap<number, string>;
}

/**
 * One analysis of a client: read its tracker items and files' facts from the read models,
 * run the rules, reconcile the insights, and tell compliance about a tracker item whose
 * matching report or confidence changed (INSIGHTS_MATCH_DETECTED, through the outbox in
 * the same transaction). Everything runs in the caller's transaction.
 */
export class AnalysisService {
  readonly #deps: AnalysisDeps;

  constructor(deps: AnalysisDeps) {
    this.#deps = deps;
  }

  async analyzeClient(tx: Queryable, firm: string, clientId: number, context?: RunContext): Promise<ReconcileResult> {
    const { files, tracker, insights } = this.#deps;
    // One analysis of a client at a time (until the transaction ends): two run at once when
    // uploads are extracted back to back, and the one that read the facts first would retire
    // what the other had just found as "no longer found".
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', [`insights-analysis:${firm}`, clientId]);
    const { today, settings, reportTypeNames } = context ?? await this.#context(tx, firm);
    const items = await tracker.ofClient(tx, clientId);
    const clientFiles = await files.ofClient(tx, clientId);
    const { jurisdiction, entityType } = await this.#client(tx, clientId, settings);
    const settledItemIds = await insights.settledItems(tx, clientId);
    const findings = findInsights({ clientId, items, files: clientFiles, today, settings, jurisdiction, entityType, settledItemIds }, reportTypeNames);
    const result = await insights.reconcile(tx, clientId, findings, new Map(clientFiles.map((f) => [f.id, f.name])));
    const byId = new Map(items.map((i) => [i.id, i]));
    const events = [];
    for (const { trackerMatch: m } of findings) {
      const item = m && byId.get(m.trackerItemId);
      if (!m || !item || (item.aiConfidence === m.aiConfidence && item.sourceFileId === m.sourceFileId)) continue;
      await tracker.noteMatch(tx, m.trackerItemId, m.aiConfidence, m.sourceFileId);
      events.push(newEvent<InsightsMatchDetected>(INSIGHTS_MATCH_DETECTED, firm, { itemId: m.trackerItemId, aiConfidence: m.aiConfidence, sourceFileId: m.sourceFileId }));
    }
    await enqueueEvents(tx, events);
    return result;
  }

  /** Every client of the firm with tracker items or files (the nightly run). */
  async analyzeFirm(tx: Queryable, firm: string): Promise<ReconcileResult & { clients: number }> {
    const context = await this.#context(tx, firm);
    const { rows } = await tx.query<{ id: number }>(
      'SELECT client_id AS id FROM insight_tracker_items UNION SELECT client_id FROM insight_files WHERE client_id IS NOT NULL AND NOT deleted ORDER BY id',
    );
    const total = { clients: rows.length, created: 0, retired: 0 };
    for (const { id } of rows) {
      const r = await this.analyzeClient(tx, firm, id, context);
      total.created += r.created;
      total.retired += r.retired;
    }
    return total;
  }

  /** What every client of one run shares; "today" is the firm's. */
  async #context(db: Queryable, firm: string): Promise<RunContext> {
    const { rows } = await db.query<{ id: number; name: string }>(`SELECT id, name FROM ${this.#deps.tables.reportTypes} WHERE NOT deleted`);
    const today = todayIn(await this.#deps.timeZoneOf(firm));
    return { today, settings: await this.#deps.settings.get(db), reportTypeNames: new Map(rows.map((r) => [r.id, r.name])) };
  }

  /**
   * The client's jurisdiction and legal form as the directory announced them; a client naming
   * no jurisdiction (or one unknown here) counts as the firm's default.
   */
  async #client(db: Queryable, clientId: number, settings: InsightRuleSettings): Promise<{ jurisdiction: Jurisdiction; entityType: EntityType | null }> {
    const { rows } = await db.query<{ jurisdiction: string | null; entityType: EntityType | null }>(
      `SELECT jurisdiction, entity_type AS "entityType" FROM ${this.#deps.tables.clients} WHERE id = $1`, [clientId]);
    const named = rows[0]?.jurisdiction;
    const jurisdiction = (JURISDICTIONS as readonly string[]).includes(named ?? '') ? named as Jurisdiction : settings.defaultJurisdiction;
    return { jurisdiction, entityType: rows[0]?.entityType ?? null };
  }
}
