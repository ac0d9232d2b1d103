import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { sqlState } from '@ledgerline/kit/db/sql-errors.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate, authOf, type CallerCheck } from '@ledgerline/kit/http/authenticate.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { ADMIN_DASHBOARD_LIMITS, type AdminAnalytics } from '@ledgerline/contracts/activity.contracts.ts';
import { requirePlatformAdmin, type ActivityVisibility } from '../access-rules.ts';
import type { DashboardStore } from '../dashboard/dashboard.store.ts';

/** The whole firm, as an Admin sees it. */
const WHOLE_FIRM: ActivityVisibility = { userId: 0, isClient: false, clients: 'all', ownEntries: false, reportTypes: 'all' };
const UNDEFINED_TABLE = '42P01';

const byDesc = <T>(...keys: ((x: T) => number)[]) => (a: T, b: T) => {
  for (const key of keys) if (key(b) !== key(a)) return key(b) - key(a);
  return 0;
};

/**
 * GET /api/admin/analytics: the administrator dashboard's documents and top lists across
 * every active firm. Each firm ranks its own top N from its rollups; the merged lists keep
 * the best N overall, so the work grows with the number of firms, not of their rows.
 */
export function createAdminAnalyticsRouter(deps: {
  api: ApiRegistry; db: Database; dashboard: DashboardStore; tokens: TokenVerifier; checkCaller: CallerCheck; logger: Logger;
  /** The firms as identity lists them now (the registry's source: a fresh list, not a snapshot). */
  firms: () => Promise<TenantEventPayload[]>;
}): Router {
  const { api, db, dashboard, logger } = deps;
  const router = express.Router();
  const limits = ADMIN_DASHBOARD_LIMITS;

  api.route(router, {
    method: 'get', path: '/api/admin/analytics', summary: 'Documents and top clients, documents and users across every active firm (platform administrators)',
    before: [authenticate(deps.tokens, deps.checkCaller)],
  }, async ({ res }): Promise<AdminAnalytics> => {
    requirePlatformAdmin(authOf(res));
    const out: AdminAnalytics = { totalDocuments: 0, topClients: [], topDocuments: [], topUsers: [] };
    for (const firm of (await deps.firms()).filter((f) => f.isActive)) {
      const schema = db.forSchema(tenantSchema(firm.schemaName));
      const tenantName = firm.name;
      try {
        const documents = await dashboard.documentsByType(schema, WHOLE_FIRM);
        const clients = await dashboard.topClients(schema, WHOLE_FIRM, limits.topClients);
        const files = await dashboard.topFiles(schema, WHOLE_FIRM, limits.topDocuments);
        const users = await dashboard.topUsers(schema, WHOLE_FIRM, limits.topUsers);
        out.totalDocuments += documents.reduce((n, d) => n + d.count, 0);
        out.topClients.push(...clients.map((c) => ({ clientName: c.clientName, tenantName, documents: c.documents, activities: c.activities })));
        out.topDocuments.push(...files.map((f) => ({
          fileName: f.fileName, clientName: f.clientName, tenantName, sizeBytes: f.sizeBytes, views: f.views, downloads: f.downloads, chats: f.chats,
        })));
        out.topUsers.push(...users.map((u) => ({ userName: u.userName, tenantName, actions: u.actions, lastActiveAt: u.lastActiveAt })));
      } catch (err) {
        // A firm whose schema this service has not migrated yet has nothing to count.
        if (sqlState(err) !== UNDEFINED_TABLE) throw err;
        logger.warn({ tenant: firm.shortName }, 'activity tables missing in a firm schema; skipped in platform analytics');
      }
    }
    out.topClients = out.topClients.sort(byDesc((c) => c.activities, (c) => c.documents)).slice(0, limits.topClients);
    out.topDocuments = out.topDocuments.sort(byDesc((f) => f.views + f.downloads + f.chats)).slice(0, limits.topDocuments);
    out.topUsers = out.topUsers.sort(byDesc((u) => u.actions, (u) => Date.parse(u.lastActiveAt ?? '') || 0)).slice(0, limits.topUsers);
    return out;
  });
  return router;
}
