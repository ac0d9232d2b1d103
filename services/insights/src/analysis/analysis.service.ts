import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { INSIGHTS_MATCH_DETECTED, type InsightsMatchDetected } from '@ledgerline/contracts/compliance.contracts.ts';
import type { InsightRuleSettings } from '@ledgerline/contracts/insights.contracts.ts';
import type { InsightStore, ReconcileResult } from '../insights/insight.store.ts';
import type { RuleSettingsStore } from '../insights/rule-settings.store.ts';
import type { FileFactsStore } from '../read-models/file-facts.store.ts';
import type { TrackerStore } from '../read-models/tracker.store.ts';
import { findInsights } from '../rules/find-insights.ts';

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

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
  readonly #deps: { files: FileFactsStore; tracker: TrackerStore; insights: InsightStore; settings: RuleSettingsStore; reportTypesTable: string };

  constructor(deps: { files: FileFactsStore; tracker: TrackerStore; insights: InsightStore; settings: RuleSettingsStore; reportTypesTable: string }) {
    this.#deps = deps;
  }

  async analyzeClient(tx: Queryable, firm: string, clientId: number, context?: RunContext): Promise<ReconcileResult> {
    const { files, tracker, insights } = this.#deps;
    const { today, settings, reportTypeNames } = context ?? await this.#context(tx);
    const items = await tracker.ofClient(tx, clientId);
    const clientFiles = await files.ofClient(tx, clientId);
    const findings = findInsights({ clientId, items, files: clientFiles, today, settings }, reportTypeNames);
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
    const context = await this.#context(tx);
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

  /** What every client of one run shares. */
  async #context(db: Queryable): Promise<RunContext> {
    const { rows } = await db.query<{ id: number; name: string }>(`SELECT id, name FROM ${this.#deps.reportTypesTable} WHERE NOT deleted`);
    return { today: todayUtc(), settings: await this.#deps.settings.get(db), reportTypeNames: new Map(rows.map((r) => [r.id, r.name])) };
  }
}
