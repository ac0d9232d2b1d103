import express, { type RequestHandler, type Router } from 'express';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { requirePlatformAdmin } from '../access-rules.ts';
import type { UserStore } from '../users/user.store.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import type { CompanyStore } from './company.store.ts';
import { tenantMigrationsOverview } from './tenant-migrations-overview.ts';

const ACTIVE_WINDOW_DAYS = 7;
const RECENT_TENANTS = 5;

/** Identity's part of the administrator dashboard: firms and users across all firms (users from the platform's login index, not a query per firm). */
export function createAdminOverviewRouter(deps: {
  api: ApiRegistry; db: Database; companies: CompanyStore; users: UserStore; peers: () => ServicePeer[]; authenticated: RequestHandler[];
}): Router {
  const router = express.Router();
  deps.api.route(router, {
    method: 'get', path: '/api/admin/overview', summary: 'Firms and users across the platform (platform administrators)', before: deps.authenticated,
  }, async ({ res }) => {
    requirePlatformAdmin(authOf(res));
    const companies = await deps.companies.list();
    const users = await deps.users.activity(deps.db, companies.map((c) => c.schemaName), ACTIVE_WINDOW_DAYS);
    return {
      totalCompanies: companies.length,
      activeCompanies: companies.filter((c) => c.isActive).length,
      totalUsers: users.total,
      activeUsers7d: users.active,
      recentTenants: companies.slice(0, RECENT_TENANTS),
    };
  });
  deps.api.route(router, {
    method: 'get', path: '/api/admin/tenant-migrations', summary: 'Firms the services are still migrating after an upgrade (platform administrators)', before: deps.authenticated,
  }, async ({ res }) => {
    requirePlatformAdmin(authOf(res));
    return tenantMigrationsOverview(deps.peers(), authOf(res).token);
  });
  return router;
}
