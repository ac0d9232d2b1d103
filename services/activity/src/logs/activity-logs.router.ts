import express, { type Router } from 'express';
import { actorName } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { activityListQuerySchema, activityLogInputSchema } from '@ledgerline/contracts/activity.contracts.ts';
import { visibilityOf } from '../access-rules.ts';
import type { ActivityFileStore } from '../files/activity-file.store.ts';
import type { ActivityLogStore } from './activity-log.store.ts';

export const FILE_NOT_FOUND = 'File not found';

export function createActivityLogsRouter(deps: { api: ApiRegistry; logs: ActivityLogStore; files: ActivityFileStore; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, logs, files, tenants } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, {
    method: 'get', path: '/api/activity-logs', summary: 'Activity entries the caller may see, newest first', query: activityListQuerySchema, before,
  }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return logs.list(t.db, visibilityOf(t), query);
  });

  api.route(router, {
    method: 'post', path: '/api/activity-logs', summary: 'Record that the caller viewed or downloaded a file they may see', status: 201, body: activityLogInputSchema, before,
  }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    const v = visibilityOf(t);
    // A file outside the caller's reach answers as a missing one: its existence is not revealed.
    const file = await files.findVisible(t.db, v, body.fileId);
    if (!file) throw new NotFound(FILE_NOT_FOUND);
    return t.db.transaction((tx) => logs.record(tx, {
      action: body.action, fileId: file.id, fileName: file.name, userId: v.userId, userName: actorName(t.claims),
      clientId: file.clientId, clientName: file.clientName, details: body.details,
    }));
  });
  return router;
}
