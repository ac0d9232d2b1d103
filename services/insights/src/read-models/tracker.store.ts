import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { ComplianceItemEvent, ComplianceScheduleEvent } from '@ledgerline/contracts/compliance.contracts.ts';
import type { TrackerItemFacts, TrackerStatus } from '../rules/find-insights.ts';
import { periodKeyOf } from '../rules/period-mentions.ts';

/** The compliance service's default reminder window (spec 001 §9), for items whose schedule event has not arrived. */
const DEFAULT_REMINDER_DAYS = 7;

/**
 * The insights schema's read model of tracker items and schedules (from the compliance
 * service's events; an older event never overwrites a newer one). Report-type names come
 * from the directory read model (`reportTypesTable`).
 */
export class TrackerStore {
  readonly #reportTypes: string;

  constructor(reportTypesTable: string) {
    this.#reportTypes = reportTypesTable;
  }

  /** Applies an item's state; true when it changed what the read model held. */
  async upsertItem(tx: Queryable, i: ComplianceItemEvent, version: string): Promise<boolean> {
    const r = await tx.query(
      `INSERT INTO insight_tracker_items (id, schedule_id, client_id, report_type_id, period, period_start, period_end, due_date, status, filed_date, extension_date, ai_confidence, source_file_id, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET schedule_id = EXCLUDED.schedule_id, client_id = EXCLUDED.client_id, report_type_id = EXCLUDED.report_type_id,
         period = EXCLUDED.period, period_start = EXCLUDED.period_start, period_end = EXCLUDED.period_end, due_date = EXCLUDED.due_date,
         status = EXCLUDED.status, filed_date = EXCLUDED.filed_date, extension_date = EXCLUDED.extension_date,
         ai_confidence = EXCLUDED.ai_confidence, source_file_id = EXCLUDED.source_file_id, version = EXCLUDED.version
       WHERE insight_tracker_items.version <= EXCLUDED.version`,
      [i.id, i.scheduleId, i.clientId, i.reportTypeId, i.period, i.periodStart, i.periodEnd, i.dueDate, i.status, i.filedDate, i.extensionDate, i.aiConfidence, i.sourceFileId, version],
    );
    return r.rowCount > 0;
  }

  async deleteItem(tx: Queryable, id: number): Promise<void> {
    await tx.query('DELETE FROM insight_tracker_items WHERE id = $1', [id]);
  }

  async upsertSchedule(tx: Queryable, s: ComplianceScheduleEvent, version: string): Promise<void> {
    await tx.query(
      `INSERT INTO insight_schedules (id, client_id, reminder_days, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET client_id = EXCLUDED.client_id, reminder_days = EXCLUDED.reminder_days, version = EXCLUDED.version
       WHERE insight_schedules.version <= EXCLUDED.version`,
      [s.id, s.clientId, s.reminderDays, version],
    );
  }

  async deleteSchedule(tx: Queryable, id: number): Promise<void> {
    await tx.query('DELETE FROM insight_schedules WHERE id = $1', [id]);
  }

  /** Records what insights told compliance about an item, so an unchanged match is not sent again. */
  async noteMatch(tx: Queryable, itemId: number, aiConfidence: number, sourceFileId: number): Promise<void> {
    await tx.query('UPDATE insight_tracker_items SET ai_confidence = $2, source_file_id = $3 WHERE id = $1', [itemId, aiConfidence, sourceFileId]);
  }

  async ofClient(db: Queryable, clientId: number): Promise<(TrackerItemFacts & { aiConfidence: number; sourceFileId: number | null })[]> {
    const { rows } = await db.query<{
      id: number; reportTypeId: number; reportTypeName: string | null; period: string; periodStart: string; periodEnd: string; dueDate: string;
      extensionDate: string | null; status: TrackerStatus; filedDate: Date | null; reminderDays: number | null; aiConfidence: number; sourceFileId: number | null;
    }>(
      `SELECT i.id, i.report_type_id AS "reportTypeId", rt.name AS "reportTypeName", i.period, i.period_start AS "periodStart", i.period_end AS "periodEnd",
         i.due_date AS "dueDate", i.extension_date AS "extensionDate", i.status, i.filed_date AS "filedDate", s.reminder_days AS "reminderDays",
         i.ai_confidence::float8 AS "aiConfidence", i.source_file_id AS "sourceFileId"
       FROM insight_tracker_items i
       LEFT JOIN insight_schedules s ON s.id = i.schedule_id
       LEFT JOIN ${this.#reportTypes} rt ON rt.id = i.report_type_id AND NOT rt.deleted
       WHERE i.client_id = $1 ORDER BY i.due_date, i.id`, [clientId],
    );
    return rows.map((r) => ({
      id: r.id, reportTypeId: r.reportTypeId, reportTypeName: r.reportTypeName ?? 'Report', periodLabel: r.period,
      periodKey: periodKeyOf(r.periodStart, r.periodEnd), dueDate: r.dueDate, extensionDate: r.extensionDate, status: r.status,
      filedDate: r.filedDate ? r.filedDate.toISOString().slice(0, 10) : null, reminderDays: r.reminderDays ?? DEFAULT_REMINDER_DAYS,
      aiConfidence: r.aiConfidence, sourceFileId: r.sourceFileId,
    }));
  }
}
