import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { DEFAULT_RULE_SETTINGS, withScope, type InsightRuleSettings } from '@ledgerline/contracts/insights.contracts.ts';

/** The firm's threshold_alert settings: the saved row, else the documented defaults. */
export class RuleSettingsStore {
  async get(db: Queryable): Promise<InsightRuleSettings> {
    const { rows } = await db.query<{ settings: InsightRuleSettings }>('SELECT settings FROM insight_rule_settings');
    const saved = rows[0]?.settings;
    // Rules saved before thresholds had a scope (issue 44) are registration thresholds, as the defaults.
    return saved ? { ...saved, thresholds: saved.thresholds.map(withScope) } : DEFAULT_RULE_SETTINGS;
  }

  async save(db: Queryable, settings: InsightRuleSettings, byId: number): Promise<InsightRuleSettings> {
    await db.query(
      `INSERT INTO insight_rule_settings (id, settings, updated_by_id) VALUES (true, $1::jsonb, $2)
       ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, updated_by_id = EXCLUDED.updated_by_id, updated_at = now()`,
      [JSON.stringify(settings), byId],
    );
    return settings;
  }
}
