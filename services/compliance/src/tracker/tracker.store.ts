import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import {
  COMPLIANCE_UPCOMING_DAYS, TRACKER_LIST_MAX_LIMIT, type ComplianceItem, type ComplianceItemEvent, type TrackerListQuery, type TrackerPage, type TrackerStatus,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { FIRST_STAGE_ID } from '@ledgerline/contracts/stages.contracts.ts';
import { reachable, type ComplianceReach } from '../access-rules.ts';
import { clientStageSql, stagesOf } from '../stages/pipeline.store.ts';
import type { Period } from '../schedules/periods.ts';

/** One period of one schedule, to be inserted if the schedule lacks it. */
export interface SchedulePeriod {
  schedule: { id: number; clientId: number; reportTypeId: number };
  period: Period;
}

/** The columns PUT and the insights match may change; the store writes exactly what it is given. */
export interface ItemFields {
  status?: TrackerStatus;
  filedDate?: string | null;
  extensionDate?: string | null;
  remarks?: string | null;
  assignedToId?: number | null;
  aiConfidence?: number;
  autoDetected?: boolean;
  sourceFileId?: number | null;
}
const COLUMNS: Record<keyof ItemFields, string> = {
  status: 'status', filedDate: 'filed_date', extensionDate: 'extension_date', remarks: 'remarks', assignedToId: 'assigned_to_id',
  aiConfidence: 'ai_confidence', autoDetected: 'auto_detected', sourceFileId: 'source_file_id',
};

/**
 * The day an item is due in effect (issue 39): its extended due date once extended, else its due
 * date (already moved to a business day). Lists, counts, reminders and the calendar use it.
 */
export const EFFECTIVE_DUE = `(CASE WHEN i.status = 'extended' AND i.extension_date IS NOT NULL THEN i.extension_date ELSE i.due_date END)`;
/** Overdue in the list sense (§4): due date passed (before today, UTC) and still pending, or extended and past the extended day. */
const OVERDUE = `i.status IN ('pending', 'extended') AND ${EFFECTIVE_DUE} < current_date`;
const UPCOMING = `i.status <> 'filed' AND ${EFFECTIVE_DUE} >= current_date AND ${EFFECTIVE_DUE} <= current_date + ${COMPLIANCE_UPCOMING_DAYS}`;
const ORDER = `ORDER BY ${EFFECTIVE_DUE}, i.id`;

/** A list as PostgreSQL wrote it, and how many items match in all when a page was asked for. */
export interface ItemList {
  json: string;
  total: number | null;
  /** The total stopped at TRACKER_COUNT_CAP. */
  capped?: boolean;
  /** CalendarDayCounts as JSON, for a perDay list. */
  dayCounts?: string;
}
/** A page's X-Total-Count counts at most this far (then X-Total-Count-Capped: true). */
const TRACKER_COUNT_CAP = 10_000;
/** Overdue in the calendar's sense (§4): the effective due day passed and not filed (nor delayed past it with an extension). */
const CALENDAR_OVERDUE = `${EFFECTIVE_DUE} < current_date AND i.status <> 'filed'`;

/** A timestamp as the API writes it (JavaScript's toISOString: UTC, milliseconds, 'Z'). */
const isoInstant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Tracker items (spec 001 §3) with the names the screens show: client and report type from the
 * directory read model, assignee from the user read model (DESIGN §7), the newest document request
 * from the requests read model (compliance.consumers.ts), joined in the query.
 * The select yields the API's shape itself (dates as text, timestamps in ISO form), so the lists
 * can be built as JSON by PostgreSQL and sent as they come: a firm's month is thousands of items,
 * and parsing and re-serialising them row by row cost more than the query.
 */
export class TrackerStore {
  readonly #select: string;
  /** The same for a Client user: the stage as clients see it, never the staff's. */
  readonly #clientSelect: string;

  constructor(users: UserAccessReadModel, directory: DirectoryReadModel) {
    const stages = stagesOf('pl');
    const stageName = `(SELECT s->>'name' FROM jsonb_array_elements(${stages}) s WHERE s->>'id' = i.stage LIMIT 1)`;
    const clientStage = clientStageSql('pl', 'i.stage');
    const select = (staff: boolean) => `SELECT i.id, i.schedule_id AS "scheduleId", i.client_id AS "clientId", COALESCE(c.name, '') AS "clientName",
        i.report_type_id AS "reportTypeId", COALESCE(rt.name, '') AS "reportTypeName", i.period, i.period_start::text AS "periodStart",
        i.period_end::text AS "periodEnd", i.statutory_due_date::text AS "statutoryDueDate", i.due_date::text AS "dueDate",
        i.due_date_reason AS "dueDateReason", i.holiday_calendar AS "holidayCalendar", i.status, ${isoInstant('i.filed_date')} AS "filedDate",
        i.extension_date::text AS "extendedDueDate", i.extension_date::text AS "extensionDate",
        i.remarks, i.assigned_to_id AS "assignedToId", NULLIF(COALESCE(NULLIF(u.full_name, ''), u.username), '') AS "assignedToName",
        i.ai_confidence::float8 AS "aiConfidence", i.auto_detected AS "autoDetected", i.source_file_id AS "sourceFileId",
        ${isoInstant('i.created_at')} AS "createdAt", ${isoInstant('i.updated_at')} AS "updatedAt",
        (SELECT json_build_object('id', d.request_id, 'status', d.status, 'required', d.required, 'done', d.done, 'revision', d.revision)
         FROM compliance_document_requests d WHERE d.tracker_item_id = i.id AND d.status <> 'cancelled'
         ORDER BY d.request_id DESC LIMIT 1) AS "documentRequest",
        (SELECT json_build_object('fileId', sd.file_id, 'signedAt', ${isoInstant('sd.signed_at')}, 'title', sd.title)
         FROM compliance_signed_documents sd WHERE sd.tracker_item_id = i.id ORDER BY sd.signed_at DESC, sd.request_id DESC LIMIT 1) AS "signedDocument",
        ${staff ? 'i.stage' : 'NULL::text'} AS stage, ${staff ? stageName : 'NULL::text'} AS "stageName", ${clientStage} AS "clientStage"
      FROM compliance_items i
      LEFT JOIN ${directory.tables.clients} c ON c.id = i.client_id
      LEFT JOIN ${directory.tables.reportTypes} rt ON rt.id = i.report_type_id
      LEFT JOIN ${users.table} u ON u.user_id = i.assigned_to_id AND NOT u.deleted
      LEFT JOIN compliance_pipelines pl ON pl.report_type_id = i.report_type_id`;
    this.#select = select(true);
    this.#clientSelect = select(false);
  }

  #selectFor(reach: ComplianceReach | null): string {
    return reach?.client ? this.#clientSelect : this.#select;
  }

  async #query(db: Queryable, p: SqlParams, where: string[], limit: number, reach: ComplianceReach | null = null): Promise<ComplianceItem[]> {
    const { rows } = await db.query<ComplianceItem>(`${this.#selectFor(reach)} WHERE ${where.join(' AND ')} ${ORDER} LIMIT ${p.add(limit)}`, p.values);
    return rows;
  }

  /**
   * A page of the items as a JSON array written by PostgreSQL, in the same order; with the
   * count of all matches in the same statement when the caller pages.
   */
  async #queryJson(db: Queryable, p: SqlParams, where: string[], page: TrackerPage, reach: ComplianceReach): Promise<ItemList> {
    const select = this.#selectFor(reach);
    const condition = where.join(' AND ');
    // Counting a firm's 200,000 items costs more than the page: beyond the cap the total is the cap.
    const total = page.limit === undefined ? 'NULL::int'
      : `(SELECT count(*)::int FROM (SELECT 1 FROM compliance_items i WHERE ${condition} LIMIT ${p.add(TRACKER_COUNT_CAP + 1)}) matched)`;
    const limit = `LIMIT ${p.add(page.limit ?? TRACKER_LIST_MAX_LIMIT)} OFFSET ${p.add(page.offset)}`;
    // A page takes its ids first (an index scan that skips the offset cheaply) and joins the
    // names for those alone; a whole list reads its rows in one go.
    const picked = page.limit === undefined
      ? `${select} WHERE ${condition} ${ORDER} ${limit}`
      : `${select} WHERE i.id = ANY(ARRAY(SELECT i.id FROM compliance_items i WHERE ${condition} ${ORDER} ${limit}))`;
    const { rows } = await db.query<{ items: string; total: number | null }>(
      `SELECT COALESCE(json_agg(x ORDER BY COALESCE(CASE WHEN x.status = 'extended' THEN x."extendedDueDate" END, x."dueDate"), x.id), '[]')::text AS items, ${total} AS total FROM (${picked}) x`, p.values,
    );
    const counted = rows[0]!.total;
    return { json: rows[0]!.items, total: counted === null ? null : Math.min(counted, TRACKER_COUNT_CAP), capped: counted !== null && counted > TRACKER_COUNT_CAP };
  }

  async get(db: Queryable, reach: ComplianceReach, id: number): Promise<ComplianceItem | null> {
    const p = new SqlParams();
    return (await this.#query(db, p, [`i.id = ${p.add(id)}`, reachable(reach, p, 'i')], 1, reach))[0] ?? null;
  }

  /** The item's id if it exists and is within reach, its row locked for the caller's transaction. */
  async lock(tx: Queryable, reach: ComplianceReach, id: number): Promise<boolean> {
    const p = new SqlParams();
    const { rows } = await tx.query(`SELECT id FROM compliance_items WHERE id = ${p.add(id)} AND ${reachable(reach, p)} FOR UPDATE`, p.values);
    return rows.length > 0;
  }

  /** By client and status, or by due-date range (days, both ends inclusive); a JSON array of ComplianceItem. */
  list(db: Queryable, reach: ComplianceReach, q: TrackerListQuery): Promise<ItemList> {
    const p = new SqlParams();
    const where = [reachable(reach, p, 'i')];
    if (q.clientId !== undefined) where.push(`i.client_id = ${p.add(q.clientId)}`);
    if (q.status) where.push(`i.status = ${p.add(q.status)}`);
    if (q.startDate && q.endDate) where.push(`${EFFECTIVE_DUE} BETWEEN ${p.add(q.startDate.slice(0, 10))}::date AND ${p.add(q.endDate.slice(0, 10))}::date`);
    if (q.reportTypeId !== undefined) where.push(`i.report_type_id = ${p.add(q.reportTypeId)}`);
    if (q.assignedToId !== undefined) where.push(q.assignedToId === 0 ? 'i.assigned_to_id IS NULL' : `i.assigned_to_id = ${p.add(q.assignedToId)}`);
    // A Client user does not see staff stages, nor filter by them.
    if (q.stage !== undefined) where.push(reach.client ? 'false' : `i.stage = ${p.add(q.stage)}`);
    if (q.perDay === undefined) return this.#queryJson(db, p, where, q, reach);
    return this.#calendar(db, p, where, q.perDay, reach);
  }

  /** The first `perDay` items of each due day, and every day's counts, in one statement. */
  async #calendar(db: Queryable, p: SqlParams, where: string[], perDay: number, reach: ComplianceReach): Promise<ItemList> {
    // One pass over the range's rows (narrow: id, day, status) serves both the counts and the pick.
    const { rows } = await db.query<{ items: string; days: string }>(
      `WITH in_range AS MATERIALIZED (
         SELECT i.id, ${EFFECTIVE_DUE} AS due_date, ${CALENDAR_OVERDUE} AS overdue, row_number() OVER (PARTITION BY ${EFFECTIVE_DUE} ORDER BY i.id) AS n
         FROM compliance_items i WHERE ${where.join(' AND ')}
       )
       SELECT COALESCE((SELECT json_agg(x ORDER BY x."dueDate", x.id) FROM (
           ${this.#selectFor(reach)} WHERE i.id = ANY(ARRAY(SELECT id FROM in_range WHERE n <= ${p.add(perDay)} ORDER BY due_date, id LIMIT ${p.add(TRACKER_LIST_MAX_LIMIT)}))
         ) x), '[]')::text AS items,
         (SELECT COALESCE(json_object_agg(d.day, json_build_object('total', d.total, 'overdue', d.overdue)), '{}')::text
          FROM (SELECT due_date::text AS day, count(*)::int AS total, (count(*) FILTER (WHERE overdue))::int AS overdue FROM in_range GROUP BY due_date) d) AS days`,
      p.values,
    );
    return { json: rows[0]!.items, total: null, dayCounts: rows[0]!.days };
  }

  /** A JSON array of ComplianceItem. */
  overdue(db: Queryable, reach: ComplianceReach, clientId: number | undefined, page: TrackerPage): Promise<ItemList> {
    const p = new SqlParams();
    const where = [reachable(reach, p, 'i'), OVERDUE];
    if (clientId !== undefined) where.push(`i.client_id = ${p.add(clientId)}`);
    return this.#queryJson(db, p, where, page, reach);
  }

  /** Due within the next 30 days (§9), today included, and not filed; a JSON array of ComplianceItem. */
  upcoming(db: Queryable, reach: ComplianceReach, clientId: number | undefined, page: TrackerPage): Promise<ItemList> {
    const p = new SqlParams();
    const where = [reachable(reach, p, 'i'), UPCOMING];
    if (clientId !== undefined) where.push(`i.client_id = ${p.add(clientId)}`);
    return this.#queryJson(db, p, where, page, reach);
  }

  async byIds(db: Queryable, ids: readonly number[]): Promise<ComplianceItem[]> {
    if (!ids.length) return [];
    const p = new SqlParams();
    return this.#query(db, p, [`i.id = ANY(${p.add(ids)}::int[])`], ids.length);
  }

  /**
   * Inserts the schedules' periods they lack, in one statement; returns the items this call made,
   * as their events tell them (a new item is pending, unassigned, with no AI match yet).
   */
  /**
   * Inserts the periods' items that do not exist yet; answers those it made. With `filedBefore`
   * (a day) they are made as filed, remarked as filed before that day (the firm took the work
   * over then), with no filed date the firm did not give.
   */
  async insertMissing(tx: Queryable, periods: readonly SchedulePeriod[], options: { filedBefore?: string } = {}): Promise<ComplianceItemEvent[]> {
    if (!periods.length) return [];
    const status = options.filedBefore ? 'filed' : 'pending';
    const remarks = options.filedBefore ? `Filed before ${options.filedBefore}, when the firm took the work over` : null;
    const { rows } = await tx.query<{ id: number; schedule_id: number; period_key: string }>(
      `INSERT INTO compliance_items (schedule_id, client_id, report_type_id, period_key, period, period_start, period_end, statutory_due_date, due_date,
         due_date_reason, holiday_calendar, status, remarks, stage)
       SELECT p.schedule_id, p.client_id, p.report_type_id, p.key, p.label, p.start::date, p.end_day::date, p.statutory::date, p.due::date, p.reason, p.calendar, $2, $3,
         -- A new item starts on its pipeline's first stage (issue 42).
         COALESCE((SELECT pl.stages->0->>'id' FROM compliance_pipelines pl WHERE pl.report_type_id = p.report_type_id), '${FIRST_STAGE_ID}')
       FROM jsonb_to_recordset($1::jsonb) AS p(schedule_id int, client_id int, report_type_id int, key text, label text, start text, end_day text, statutory text,
         due text, reason text, calendar text)
       ON CONFLICT (schedule_id, period_key) DO NOTHING RETURNING id, schedule_id, period_key`,
      [JSON.stringify(periods.map(({ schedule: s, period: x }) => ({
        schedule_id: s.id, client_id: s.clientId, report_type_id: s.reportTypeId, key: x.key, label: x.label, start: x.start, end_day: x.end,
        statutory: x.statutoryDueDate ?? x.dueDate, due: x.dueDate, reason: x.dueDateReason ?? null, calendar: x.holidayCalendar ?? null,
      }))), status, remarks],
    );
    const asked = new Map(periods.map((p) => [`${p.schedule.id}/${p.period.key}`, p]));
    return rows.sort((a, b) => a.id - b.id).map((r) => {
      const { schedule: s, period: x } = asked.get(`${r.schedule_id}/${r.period_key}`)!;
      return {
        id: r.id, scheduleId: s.id, clientId: s.clientId, reportTypeId: s.reportTypeId, period: x.label, periodStart: x.start, periodEnd: x.end,
        statutoryDueDate: x.statutoryDueDate ?? x.dueDate, dueDate: x.dueDate, dueDateReason: x.dueDateReason ?? null, holidayCalendar: x.holidayCalendar ?? null,
        status, filedDate: null, extendedDueDate: null, extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: false, sourceFileId: null,
      };
    });
  }

  async update(tx: Queryable, id: number, fields: ItemFields): Promise<void> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined) as [keyof ItemFields, unknown][];
    const p = new SqlParams();
    const sets = entries.map(([k, v]) => `${COLUMNS[k]} = ${p.add(v)}`);
    await tx.query(`UPDATE compliance_items SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)}`, p.values);
  }

  /** Marks a notice as sent, once: false when it already was (another replica, a redelivery). */
  async markNotified(tx: Queryable, id: number, column: 'reminded_at' | 'overdue_notified_at'): Promise<boolean> {
    const { rowCount } = await tx.query(`UPDATE compliance_items SET ${column} = now() WHERE id = $1 AND ${column} IS NULL`, [id]);
    return rowCount > 0;
  }
}
