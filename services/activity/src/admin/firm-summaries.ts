import { concurrencyLimit } from '@ledgerline/kit/async/concurrency-limit.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { sqlState } from '@ledgerline/kit/db/sql-errors.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { ADMIN_DASHBOARD_LIMITS, type AdminAnalytics } from '@ledgerline/contracts/activity.contracts.ts';
import type { ActivityVisibility } from '../access-rules.ts';
import type { DashboardStore } from '../dashboard/dashboard.store.ts';

/** The whole firm, as an Admin sees it. */
const WHOLE_FIRM: ActivityVisibility = { userId: 0, isClient: false, clients: 'all', ownEntries: false, reportTypes: 'all' };
const UNDEFINED_TABLE = '42P01';
/** Firms summarised at once when many changed since the last read. */
const SUMMARY_CONCURRENCY = 4;

/** One firm's part of the platform's analytics, without the firm's name (read at answer time: a rename shows at once). */
export interface FirmSummary {
  totalDocuments: number;
  topClients: Omit<AdminAnalytics['topClients'][number], 'tenantName'>[];
  topDocuments: Omit<AdminAnalytics['topDocuments'][number], 'tenantName'>[];
  topUsers: Omit<AdminAnalytics['topUsers'][number], 'tenantName'>[];
}

/** A firm as the analytics name it: its schema (as stored) and its display name. */
export interface SummarisedFirm { schema: string; name: string }

const byDesc = <T>(...keys: ((x: T) => number)[]) => (a: T, b: T) => {
  for (const key of keys) if (key(b) !== key(a)) return key(b) - key(a);
  return 0;
};

/**
 * The platform administrator's analytics from one stored summary per firm (issue 45): the
 * screen used to rank every firm's rollups on each request (3.7 s at 1,000 firms). A trigger
 * on the rollups marks a firm changed (migration 005); `refreshChanged`, on a slow timer,
 * summarises the marked firms in the background, and a read first summarises only the firms
 * still marked, then merges the stored summaries. Idle, the timer's pass is one statement on
 * the marks whatever the number of firms, and a read with nothing changed is two.
 */
export class FirmSummaries {
  readonly #db: Database;
  readonly #dashboard: DashboardStore;
  readonly #logger: Logger;

  constructor(db: Database, dashboard: DashboardStore, logger: Logger) {
    this.#db = db;
    this.#dashboard = dashboard;
    this.#logger = logger;
  }

  async analytics(firms: readonly SummarisedFirm[]): Promise<AdminAnalytics> {
    const names = new Map(firms.map((f) => [f.schema, f.name]));
    await this.#summariseChanged([...names.keys()]);
    const { rows } = await this.#db.query<{ schema_name: string; summary: FirmSummary }>(
      `SELECT schema_name, summary FROM ${PLATFORM_SCHEMA}.activity_firm_summaries WHERE schema_name = ANY($1::text[])`,
      [[...names.keys()]],
    );
    const limits = ADMIN_DASHBOARD_LIMITS;
    const out: AdminAnalytics = { totalDocuments: 0, topClients: [], topDocuments: [], topUsers: [] };
    for (const { schema_name: schema, summary } of rows) {
      const tenantName = names.get(schema)!;
      out.totalDocuments += summary.totalDocuments;
      out.topClients.push(...summary.topClients.map((c) => ({ ...c, tenantName })));
      out.topDocuments.push(...summary.topDocuments.map((f) => ({ ...f, tenantName })));
      out.topUsers.push(...summary.topUsers.map((u) => ({ ...u, tenantName })));
    }
    out.topClients = out.topClients.sort(byDesc((c) => c.activities, (c) => c.documents)).slice(0, limits.topClients);
    out.topDocuments = out.topDocuments.sort(byDesc((f) => f.views + f.downloads + f.chats)).slice(0, limits.topDocuments);
    out.topUsers = out.topUsers.sort(byDesc((u) => u.actions, (u) => Date.parse(u.lastActiveAt ?? '') || 0)).slice(0, limits.topUsers);
    return out;
  }

  /**
   * Summarises every firm marked changed, off the admin's read path: a read after many firms
   * changed (a thousand made in an afternoon) then finds them summarised. Two replicas may
   * both summarise a firm; the result is the same.
   */
  refreshChanged(): Promise<void> {
    return this.#summariseChanged(null);
  }

  /**
   * Summarises the firms marked changed (of `schemas`, or all). The mark is cleared only if its
   * version is still the one read before summarising: a change committed meanwhile keeps it,
   * and the next pass summarises the firm again.
   */
  async #summariseChanged(schemas: readonly string[] | null): Promise<void> {
    const { rows } = await this.#db.query<{ schema_name: string; version: string }>(
      `SELECT schema_name, version FROM ${PLATFORM_SCHEMA}.activity_firm_changes${schemas ? ' WHERE schema_name = ANY($1::text[])' : ''}`,
      schemas ? [schemas] : [],
    );
    const limit = concurrencyLimit(SUMMARY_CONCURRENCY);
    await Promise.all(rows.map((changed) => limit.run(async () => {
      let summary: FirmSummary;
      try {
        summary = await this.#summarise(changed.schema_name);
      } catch (err) {
        // A firm whose schema this service has not migrated yet has nothing to count.
        if (sqlState(err) !== UNDEFINED_TABLE) throw err;
        this.#logger.warn({ schema: changed.schema_name }, 'activity tables missing in a firm schema; skipped in platform analytics');
        return;
      }
      await this.#db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO ${PLATFORM_SCHEMA}.activity_firm_summaries (schema_name, summary, made_at) VALUES ($1, $2, now())
           ON CONFLICT (schema_name) DO UPDATE SET summary = EXCLUDED.summary, made_at = EXCLUDED.made_at`,
          [changed.schema_name, JSON.stringify(summary)],
        );
        await tx.query(`DELETE FROM ${PLATFORM_SCHEMA}.activity_firm_changes WHERE schema_name = $1 AND version = $2`, [changed.schema_name, changed.version]);
      });
    })));
  }

  async #summarise(schema: string): Promise<FirmSummary> {
    const db = this.#db.forSchema(schema);
    const limits = ADMIN_DASHBOARD_LIMITS;
    const documents = await this.#dashboard.documentsByType(db, WHOLE_FIRM);
    const clients = await this.#dashboard.topClients(db, WHOLE_FIRM, limits.topClients);
    const files = await this.#dashboard.topFiles(db, WHOLE_FIRM, limits.topDocuments);
    const users = await this.#dashboard.topUsers(db, WHOLE_FIRM, limits.topUsers);
    return {
      totalDocuments: documents.reduce((n, d) => n + d.count, 0),
      topClients: clients.map((c) => ({ clientName: c.clientName, documents: c.documents, activities: c.activities })),
      topDocuments: files.map((f) => ({ fileName: f.fileName, clientName: f.clientName, sizeBytes: f.sizeBytes, views: f.views, downloads: f.downloads, chats: f.chats })),
      topUsers: users.map((u) => ({ userName: u.userName, actions: u.actions, lastActiveAt: u.lastActiveAt })),
    };
  }
}
