import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { periodLagFor } from '@ledgerline/kit/calendar/covered-period.ts';
import { PERIOD_CHOICES, type ComplianceSchedule, type ScheduleInput, type ScheduleUpdate } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { reachable, type ComplianceReach } from '../access-rules.ts';

interface ScheduleRow extends Omit<ComplianceSchedule, 'createdAt' | 'updatedAt' | 'covers'> {
  createdAt: Date;
  updatedAt: Date;
}
const toSchedule = (r: ScheduleRow): ComplianceSchedule => ({
  ...r, covers: PERIOD_CHOICES.find((c) => periodLagFor(c, r.frequency, r.dueMonths, r.jurisdiction) === r.periodLagMonths) ?? null,
  createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** Compliance schedules (spec 001 §3) with client and report-type names from the directory read model. */
export class ScheduleStore {
  readonly #select: string;

  constructor(directory: DirectoryReadModel) {
    this.#select = `SELECT s.id, s.client_id AS "clientId", COALESCE(c.name, '') AS "clientName", s.report_type_id AS "reportTypeId",
        COALESCE(rt.name, '') AS "reportTypeName", s.frequency, s.due_day_of_month AS "dueDayOfMonth", s.due_months AS "dueMonths",
        s.is_active AS "isActive", s.reminder_days AS "reminderDays", s.notes, s.period_lag_months AS "periodLagMonths",
        s.jurisdiction, s.preset_id AS "presetId", s.entry_id AS "entryId", s.created_at AS "createdAt", s.updated_at AS "updatedAt"
      FROM compliance_schedules s
      LEFT JOIN ${directory.tables.clients} c ON c.id = s.client_id
      LEFT JOIN ${directory.tables.reportTypes} rt ON rt.id = s.report_type_id`;
  }

  async list(db: Queryable, reach: ComplianceReach, clientId?: number): Promise<ComplianceSchedule[]> {
    const p = new SqlParams();
    const where = [reachable(reach, p, 's'), 's.deleted_at IS NULL'];
    if (clientId !== undefined) where.push(`s.client_id = ${p.add(clientId)}`);
    const { rows } = await db.query<ScheduleRow>(`${this.#select} WHERE ${where.join(' AND ')} ORDER BY s.id`, p.values);
    return rows.map(toSchedule);
  }

  async get(db: Queryable, reach: ComplianceReach, id: number): Promise<ComplianceSchedule | null> {
    const p = new SqlParams();
    const { rows } = await db.query<ScheduleRow>(`${this.#select} WHERE s.id = ${p.add(id)} AND s.deleted_at IS NULL AND ${reachable(reach, p, 's')}`, p.values);
    return rows[0] ? toSchedule(rows[0]) : null;
  }

  async byIds(db: Queryable, ids: readonly number[]): Promise<ComplianceSchedule[]> {
    if (!ids.length) return [];
    const { rows } = await db.query<ScheduleRow>(`${this.#select} WHERE s.id = ANY($1::int[]) ORDER BY s.id`, [ids]);
    return rows.map(toSchedule);
  }

  /** `jurisdiction`: whose years label the periods (the calendar's country, else the client's); `presetId`/`entryId`: the calendar entry it follows. */
  async insert(tx: Queryable, input: ScheduleInput & { jurisdiction: ClientJurisdiction; periodLagMonths: number; presetId?: string; entryId?: string }): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO compliance_schedules (client_id, report_type_id, frequency, due_day_of_month, due_months, reminder_days, notes, period_lag_months, jurisdiction,
         preset_id, entry_id)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11) RETURNING id`,
      [input.clientId, input.reportTypeId, input.frequency, input.dueDayOfMonth, input.dueMonths, input.reminderDays, input.notes, input.periodLagMonths, input.jurisdiction,
        input.presetId ?? null, input.entryId ?? null],
    );
    return rows[0]!.id;
  }

  /** `keepEntry`: it still follows its calendar entry (its rule was not changed by hand). */
  async update(tx: Queryable, id: number, input: ScheduleUpdate & { isActive: boolean; jurisdiction: ClientJurisdiction; periodLagMonths: number; keepEntry: boolean }): Promise<void> {
    await tx.query(
      `UPDATE compliance_schedules SET client_id = $2, report_type_id = $3, frequency = $4, due_day_of_month = $5, due_months = $6::text[],
         reminder_days = $7, notes = $8, period_lag_months = $9, is_active = $10, jurisdiction = $11,
         preset_id = CASE WHEN $12 THEN preset_id END, entry_id = CASE WHEN $12 THEN entry_id END, updated_at = now() WHERE id = $1`,
      [id, input.clientId, input.reportTypeId, input.frequency, input.dueDayOfMonth, input.dueMonths, input.reminderDays, input.notes, input.periodLagMonths, input.isActive,
        input.jurisdiction, input.keepEntry],
    );
  }

  /**
   * Removes a schedule: it leaves the lists and generates no more; its items stay in the tracker
   * as the record of what was due (so the row is kept, marked deleted), except the pending ones
   * when `deletePending`. Returns the removed and the kept items' ids.
   */
  async delete(tx: Queryable, id: number, deletePending: boolean): Promise<{ deleted: number[]; kept: number }> {
    const deleted = deletePending
      ? (await tx.query<{ id: number }>(`DELETE FROM compliance_items WHERE schedule_id = $1 AND status = 'pending' RETURNING id`, [id])).rows.map((r) => r.id)
      : [];
    const { rows } = await tx.query<{ kept: number }>('SELECT count(*)::int AS kept FROM compliance_items WHERE schedule_id = $1', [id]);
    await tx.query('UPDATE compliance_schedules SET deleted_at = now(), is_active = false, updated_at = now() WHERE id = $1', [id]);
    return { deleted, kept: rows[0]!.kept };
  }

  /** Client, report type and frequency of the given clients' schedules, as pairKey()s (a preset skips those). */
  async existingPairs(tx: Queryable, clientIds: readonly number[]): Promise<Set<string>> {
    const { rows } = await tx.query<{ client_id: number; report_type_id: number; frequency: string }>(
      'SELECT client_id, report_type_id, frequency FROM compliance_schedules WHERE client_id = ANY($1::int[]) AND deleted_at IS NULL', [clientIds],
    );
    return new Set(rows.map((r) => pairKey(r.client_id, r.report_type_id, r.frequency)));
  }

  /** Removes a client's schedules and (cascade) items; returns what went, for the deletion events. */
  async deleteClient(tx: Queryable, clientId: number): Promise<{ schedules: number[]; items: number[] }> {
    const items = await tx.query<{ id: number }>('DELETE FROM compliance_items WHERE client_id = $1 RETURNING id', [clientId]);
    const schedules = await tx.query<{ id: number }>('DELETE FROM compliance_schedules WHERE client_id = $1 RETURNING id', [clientId]);
    return { schedules: schedules.rows.map((r) => r.id), items: items.rows.map((r) => r.id) };
  }
}

export const pairKey = (clientId: number, reportTypeId: number, frequency: string): string => `${clientId}/${reportTypeId}/${frequency}`;
