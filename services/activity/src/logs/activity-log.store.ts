import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { ActivityListQuery, ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { ActivityAction } from '@ledgerline/contracts/activity.constants.ts';
import { visibleEntries, visibleReportTypes, type ActivityVisibility } from '../access-rules.ts';

export interface ActivityLogRow {
  id: number;
  action: ActivityAction;
  file_id: number | null;
  file_name: string | null;
  user_id: number;
  user_name: string;
  client_id: number | null;
  client_name: string | null;
  details: string | null;
  timestamp: Date | string;
  file_deleted?: boolean;
  address: string | null;
  user_agent: string | null;
}

/** `showOrigin`: staff see where a link upload came from; a Client user does not. */
export const toActivityLog = (r: ActivityLogRow, showOrigin = true): ActivityLog => ({
  id: Number(r.id),
  action: r.action,
  fileId: r.file_id,
  fileName: r.file_name,
  userId: r.user_id,
  userName: r.user_name,
  clientId: r.client_id,
  clientName: r.client_name,
  details: r.details,
  timestamp: new Date(r.timestamp).toISOString(),
  fileDeleted: r.file_deleted === true,
  address: showOrigin ? r.address : null,
  userAgent: showOrigin ? r.user_agent : null,
});

/**
 * What happened, as the log records it; `timestamp` defaults to now. `reportTypeId`: what the
 * entry is about (a document request item's type); when absent, its file's if that is a report.
 */
export type NewActivity = Omit<ActivityLog, 'id' | 'timestamp' | 'fileDeleted'> & {
  timestamp?: string;
  reportTypeId?: number | null;
  /** Not for the client's own users (nor counted in the rollups, which they read). */
  staffOnly?: boolean;
};

export const LOG_COLUMNS = 'id, action, file_id, file_name, user_id, user_name, client_id, client_name, details, "timestamp", address, user_agent';

/** Whether the entry's file is gone (file.deleted marked it in activity_files). */
const FILE_DELETED_COLUMN = `EXISTS (SELECT 1 FROM activity_files f WHERE f.id = activity_logs.file_id AND f.deleted_at IS NOT NULL) AS file_deleted`;

/** The activity log: one row per action, and the rollups every dashboard count reads. */
export class ActivityLogStore {
  /**
   * Appends an entry and bumps its rollups in one statement (inside the caller's
   * transaction, with the inbox row when an event caused it). `last_at` keeps the newest
   * time even when events arrive out of order.
   */
  async record(tx: Queryable, a: NewActivity): Promise<ActivityLog> {
    const { rows } = await tx.query<ActivityLogRow>(
      `WITH log AS (
         INSERT INTO activity_logs (action, file_id, file_name, user_id, user_name, client_id, client_name, details, "timestamp", address, user_agent, report_type_id, staff_only)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()), $10, $11,
           coalesce($12::int, (SELECT f.report_type_id FROM activity_files f WHERE f.id = $2::int AND f.file_type = 'report')), $13)
         RETURNING ${LOG_COLUMNS}, staff_only
       ), counts AS (
         INSERT INTO activity_counts (client_id, user_id, action, count, last_at)
         SELECT coalesce(client_id, 0), user_id, action, 1, "timestamp" FROM log WHERE NOT staff_only
         ON CONFLICT (client_id, user_id, action) DO UPDATE
           SET count = activity_counts.count + 1, last_at = greatest(activity_counts.last_at, EXCLUDED.last_at)
       ), days AS (
         INSERT INTO activity_days (day, count) SELECT ("timestamp" AT TIME ZONE 'UTC')::date, 1 FROM log WHERE NOT staff_only
         ON CONFLICT (day) DO UPDATE SET count = activity_days.count + 1
       ), file_counts AS (
         INSERT INTO activity_file_counts (file_id, views, downloads, chats)
         SELECT file_id, (action = 'view')::int, (action = 'download')::int, (action = 'chat')::int FROM log
         WHERE file_id IS NOT NULL AND action IN ('view', 'download', 'chat')
         ON CONFLICT (file_id) DO UPDATE SET views = activity_file_counts.views + EXCLUDED.views,
           downloads = activity_file_counts.downloads + EXCLUDED.downloads, chats = activity_file_counts.chats + EXCLUDED.chats
       )
       SELECT * FROM log`,
      [a.action, a.fileId, a.fileName, a.userId, a.userName, a.clientId, a.clientName, a.details, a.timestamp ?? null, a.address ?? null, a.userAgent ?? null, a.reportTypeId ?? null, a.staffOnly ?? false],
    );
    return toActivityLog(rows[0]!);
  }

  /** Newest first, within what the caller may see, narrowed by the query's filters. */
  async list(db: Queryable, v: ActivityVisibility, query: ActivityListQuery): Promise<ActivityLog[]> {
    const p = new SqlParams();
    const where = [visibleEntries(v, p), visibleReportTypes(v, p)];
    if (query.action) where.push(`action = ${p.add(query.action)}`);
    if (query.fileId) where.push(`file_id = ${p.add(query.fileId)}`);
    if (query.clientId) where.push(`client_id = ${p.add(query.clientId)}`);
    if (query.userId) where.push(`user_id = ${p.add(query.userId)}`);
    return this.newest(db, where, p, query.limit, !v.isClient);
  }

  /** The newest `limit` entries matching every condition (built with `p`). */
  async newest(db: Queryable, where: readonly string[], p: SqlParams, limit: number, showOrigin: boolean): Promise<ActivityLog[]> {
    const { rows } = await db.query<ActivityLogRow>(
      `SELECT ${LOG_COLUMNS}, ${FILE_DELETED_COLUMN} FROM activity_logs WHERE ${where.join(' AND ')} ORDER BY "timestamp" DESC, id DESC LIMIT ${p.add(limit)}`,
      p.values,
    );
    return rows.map((r) => toActivityLog(r, showOrigin));
  }
}
