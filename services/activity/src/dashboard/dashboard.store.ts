import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { ActionCount, ClientEngagementDetails, DashboardOverview, UserActivityDetails } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTIVITY_ACTIONS, DASHBOARD_LIMITS, type ActivityAction } from '@ledgerline/contracts/activity.constants.ts';
import { FILE_TYPES, SYSTEM_ACTOR, type FileType } from '@ledgerline/contracts/files.contracts.ts';
import {
  DOCUMENT_COUNT_COLUMNS, FILE_COLUMNS, visibleClients, visibleDocuments, visibleEntries, visibleReportTypes, type ActivityVisibility,
} from '../access-rules.ts';
import { toDashboardFile, type ActivityFileStore } from '../files/activity-file.store.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';
import { isoInstantOrNull as iso } from '@ledgerline/kit/db/instants.ts';

/** Entries shown in a detail dialog (contracts: "at most 50"). */
export const DETAIL_RECENT_LIMIT = 50;
const CHART_DAYS = 30;
const DAY_MS = 86_400_000;

// The newest name a user or client had in the log (names travel with every event).
const latestUserName = (userCol: string) =>
  `(SELECT l.user_name FROM activity_logs l WHERE l.user_id = ${userCol} ORDER BY l."timestamp" DESC, l.id DESC LIMIT 1)`;
const latestClientName = (clientCol: string) =>
  `coalesce((SELECT l.client_name FROM activity_logs l WHERE l.client_id = ${clientCol} AND l.client_name IS NOT NULL ORDER BY l."timestamp" DESC, l.id DESC LIMIT 1),
    (SELECT f.client_name FROM activity_files f WHERE f.client_id = ${clientCol} AND f.deleted_at IS NULL ORDER BY f.uploaded_at DESC, f.id DESC LIMIT 1), '')`;

export interface RankedClient { clientId: number; clientName: string; documents: number; activities: number; lastActivityAt: string | null }
export interface RankedUser { userId: number; userName: string; actions: number; lastActiveAt: string | null }
export interface RankedFile {
  fileId: number; fileName: string; clientName: string | null; sizeBytes: number;
  views: number; downloads: number; chats: number; total: number;
}

/** Every action, in the contracts' order, with its count (0 when none). */
function actionCounts(rows: { action: ActivityAction; n: number }[]): ActionCount[] {
  const by = new Map(rows.map((r) => [r.action, Number(r.n)]));
  return ACTIVITY_ACTIONS.map((action) => ({ action, count: by.get(action) ?? 0 }));
}

/** The first UTC day of the chart: 29 days before today, so today is its 30th day. */
export function chartStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (CHART_DAYS - 1) * DAY_MS);
}

/**
 * The figures of the tenant dashboard and the administrator dashboard. Totals, top lists
 * and the whole firm's chart read the rollups (activity.migrations.ts); only the recent
 * lists (a LIMIT) and a narrower scope's chart (a 30-day range per client or user) touch
 * the log, through its indexes.
 */
export class DashboardStore {
  readonly #files: ActivityFileStore;
  readonly #logs: ActivityLogStore;

  constructor(files: ActivityFileStore, logs: ActivityLogStore) {
    this.#files = files;
    this.#logs = logs;
  }

  async overview(db: Queryable, v: ActivityVisibility, now = new Date()): Promise<DashboardOverview> {
    const p = new SqlParams();
    const activeUsersSql = `SELECT count(DISTINCT user_id) AS n FROM activity_counts
      WHERE user_id <> ${SYSTEM_ACTOR.id} AND last_at >= ${p.add(new Date(now.getTime() - DASHBOARD_LIMITS.activeUserDays * DAY_MS).toISOString())} AND ${visibleEntries(v, p)}`;
    const q = new SqlParams();
    const clientsSql = `SELECT count(*) AS n FROM (
         SELECT client_id FROM activity_counts WHERE client_id <> 0 AND ${visibleClients(v, q)}
         UNION SELECT client_id FROM activity_document_counts WHERE client_id <> 0 AND documents > 0 AND ${visibleDocuments(v, q, DOCUMENT_COUNT_COLUMNS)}
       ) c`;
    // Independent reads of small rollups and indexed lists: asked for together.
    const [documents, actions, active, clients, topClients, topFiles, topUsers, recentFiles, activityByDay] = await Promise.all([
      this.documentsByType(db, v),
      this.#actionCounts(db, v, []),
      db.query<{ n: number }>(activeUsersSql, p.values),
      db.query<{ n: number }>(clientsSql, q.values),
      this.topClients(db, v, DASHBOARD_LIMITS.topLists),
      this.topFiles(db, v, DASHBOARD_LIMITS.topLists),
      // A Client user sees their own row only (spec 001 §2 Dashboard).
      this.topUsers(db, v, DASHBOARD_LIMITS.topLists, v.isClient ? v.userId : undefined),
      this.#files.recent(db, v, DASHBOARD_LIMITS.recentFiles),
      this.#activityByDay(db, v, now),
    ]);
    return {
      totalDocuments: documents.reduce((n, d) => n + d.count, 0),
      totalActivities: actions.reduce((n, a) => n + a.count, 0),
      totalClients: Number(clients.rows[0]?.n ?? 0),
      activeUsers: Number(active.rows[0]?.n ?? 0),
      recentFiles: recentFiles.map(toDashboardFile),
      topClients,
      topFiles: topFiles.map(({ sizeBytes: _size, ...f }) => f),
      topUsers,
      activityByDay,
      actionCounts: actions,
      documentsByType: documents,
    };
  }

  /** `recent` and counts of one user, within what the caller may see. */
  async userActivity(db: Queryable, v: ActivityVisibility, userId: number): Promise<Omit<UserActivityDetails, 'userName'> & { userName: string | null }> {
    const counts = await this.#actionCounts(db, v, [['user_id', userId]]);
    const p = new SqlParams();
    const recent = await this.#logs.newest(db, [`user_id = ${p.add(userId)}`, visibleEntries(v, p), visibleReportTypes(v, p)], p, DETAIL_RECENT_LIMIT, !v.isClient);
    return {
      userId,
      userName: recent[0]?.userName ?? null,
      totalActions: counts.reduce((n, a) => n + a.count, 0),
      actionCounts: counts,
      recent,
    };
  }

  /** One client the caller reads (checked by the caller); null when nothing was ever recorded for it. */
  async clientEngagement(db: Queryable, v: ActivityVisibility, clientId: number): Promise<ClientEngagementDetails | null> {
    const counts = await this.#actionCounts(db, v, [['client_id', clientId]]);
    const p = new SqlParams();
    const docs = await db.query<{ n: number | null }>(
      `SELECT sum(documents) AS n FROM activity_document_counts WHERE client_id = ${p.add(clientId)} AND ${visibleDocuments(v, p, DOCUMENT_COUNT_COLUMNS)}`,
      p.values,
    );
    const totalActions = counts.reduce((n, a) => n + a.count, 0);
    const documents = Number(docs.rows[0]?.n ?? 0);
    if (totalActions === 0 && documents === 0) return null;
    const r = new SqlParams();
    const recent = await this.#logs.newest(db, [`client_id = ${r.add(clientId)}`], r, DETAIL_RECENT_LIMIT, !v.isClient);
    const name = await db.query<{ name: string }>(`SELECT ${latestClientName('$1::int')} AS name`, [clientId]);
    return { clientId, clientName: name.rows[0]?.name ?? '', documents, totalActions, actionCounts: counts, recent };
  }

  /**
   * Clients the caller reads, by activities. Every document was an upload entry, so the
   * ranking needs the activity rollup only; documents are summed for the winners alone.
   */
  async topClients(db: Queryable, v: ActivityVisibility, limit: number): Promise<RankedClient[]> {
    const p = new SqlParams();
    const { rows } = await db.query<{ client_id: number; documents: number | null; activities: number; last_at: Date | string | null; client_name: string }>(
      `WITH top AS (
         SELECT client_id, sum(count) AS activities, max(last_at) AS last_at FROM activity_counts
         WHERE client_id <> 0 AND ${visibleClients(v, p)} GROUP BY client_id ORDER BY activities DESC, client_id LIMIT ${p.add(limit)}
       )
       SELECT top.*, ${latestClientName('top.client_id')} AS client_name,
         (SELECT sum(d.documents) FROM activity_document_counts d WHERE d.client_id = top.client_id
            AND ${visibleDocuments(v, p, { ...DOCUMENT_COUNT_COLUMNS, client: 'd.client_id', fileType: 'd.file_type', reportType: 'd.report_type_id' })}) AS documents
       FROM top ORDER BY activities DESC, client_id`,
      p.values,
    );
    return rows.map((r) => ({
      clientId: r.client_id, clientName: r.client_name, documents: Number(r.documents ?? 0), activities: Number(r.activities), lastActivityAt: iso(r.last_at),
    }));
  }

  /** Files the caller may see, by views + downloads + chats (files nobody opened yet are not ranked). */
  async topFiles(db: Queryable, v: ActivityVisibility, limit: number): Promise<RankedFile[]> {
    const p = new SqlParams();
    const { rows } = await db.query<{ id: number; name: string; client_name: string | null; size: number; views: number; downloads: number; chats: number; total: number }>(
      `SELECT f.id, f.name, f.client_name, f.size, s.views, s.downloads, s.chats, s.total
       FROM activity_file_counts s JOIN activity_files f ON f.id = s.file_id
       WHERE s.total > 0 AND f.deleted_at IS NULL AND ${visibleDocuments(v, p, { ...FILE_COLUMNS, client: 'f.client_id', fileType: 'f.file_type', reportType: 'f.report_type_id' })}
       ORDER BY s.total DESC, s.file_id LIMIT ${p.add(limit)}`,
      p.values,
    );
    return rows.map((r) => ({
      fileId: r.id, fileName: r.name, clientName: r.client_name, sizeBytes: Number(r.size),
      views: Number(r.views), downloads: Number(r.downloads), chats: Number(r.chats), total: Number(r.total),
    }));
  }

  /** Users by the number of entries the caller may see; `onlyUserId` narrows to one user. */
  async topUsers(db: Queryable, v: ActivityVisibility, limit: number, onlyUserId?: number): Promise<RankedUser[]> {
    const p = new SqlParams();
    // What the system did (files that went with their client) is no user's.
    const where = [visibleEntries(v, p), `user_id <> ${SYSTEM_ACTOR.id}`];
    if (onlyUserId !== undefined) where.push(`user_id = ${p.add(onlyUserId)}`);
    const { rows } = await db.query<{ user_id: number; actions: number; last_at: Date | string | null; user_name: string | null }>(
      `WITH top AS (
         SELECT user_id, sum(count) AS actions, max(last_at) AS last_at FROM activity_counts
         WHERE ${where.join(' AND ')} GROUP BY user_id ORDER BY actions DESC, user_id LIMIT ${p.add(limit)}
       )
       SELECT top.*, ${latestUserName('top.user_id')} AS user_name FROM top ORDER BY actions DESC, user_id`,
      p.values,
    );
    return rows.map((r) => ({ userId: r.user_id, userName: r.user_name ?? '', actions: Number(r.actions), lastActiveAt: iso(r.last_at) }));
  }

  /** Live documents the caller may see, per file type (every type, 0 when none). */
  async documentsByType(db: Queryable, v: ActivityVisibility): Promise<{ fileType: FileType; count: number }[]> {
    const p = new SqlParams();
    const { rows } = await db.query<{ file_type: FileType; n: number }>(
      `SELECT file_type, sum(documents) AS n FROM activity_document_counts WHERE ${visibleDocuments(v, p, DOCUMENT_COUNT_COLUMNS)} GROUP BY file_type`,
      p.values,
    );
    const by = new Map(rows.map((r) => [r.file_type, Number(r.n)]));
    return FILE_TYPES.map((fileType) => ({ fileType, count: by.get(fileType) ?? 0 }));
  }

  async #actionCounts(db: Queryable, v: ActivityVisibility, equal: [column: 'user_id' | 'client_id', value: number][]): Promise<ActionCount[]> {
    const p = new SqlParams();
    const where = [visibleEntries(v, p), ...equal.map(([column, value]) => `${column} = ${p.add(value)}`)];
    const { rows } = await db.query<{ action: ActivityAction; n: number }>(
      `SELECT action, sum(count) AS n FROM activity_counts WHERE ${where.join(' AND ')} GROUP BY action`, p.values,
    );
    return actionCounts(rows);
  }

  /**
   * Entries per UTC day over the last 30 days, oldest first, days without any as 0. The
   * whole firm reads the daily rollup; a narrower scope counts its entries in the range
   * through the per-client and per-user indexes (days as whole days since the epoch:
   * arithmetic, where formatting a date per row would cost more than the scan).
   */
  async #activityByDay(db: Queryable, v: ActivityVisibility, now: Date): Promise<{ date: string; count: number }[]> {
    const start = chartStart(now);
    const p = new SqlParams();
    const sql = v.clients === 'all'
      ? `SELECT (day - DATE '1970-01-01') AS day, count AS n FROM activity_days WHERE day >= ${p.add(start.toISOString().slice(0, 10))}::date`
      : `SELECT floor(extract(epoch FROM "timestamp") / 86400)::int AS day, count(*) AS n FROM activity_logs
         WHERE "timestamp" >= ${p.add(start.toISOString())} AND ${visibleEntries(v, p)} AND NOT staff_only GROUP BY 1`;
    const { rows } = await db.query<{ day: number; n: number }>(sql, p.values);
    const by = new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
    const firstDay = start.getTime() / DAY_MS;
    return Array.from({ length: CHART_DAYS }, (_, i) => ({
      date: new Date((firstDay + i) * DAY_MS).toISOString().slice(0, 10),
      count: by.get(firstDay + i) ?? 0,
    }));
  }
}
