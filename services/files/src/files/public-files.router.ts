import express, { type Router } from 'express';
import { NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { publicFileQuerySchema } from '@ledgerline/contracts/files.contracts.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { sendFile } from './file-download.ts';
import { FILE_MESSAGES } from './file-rules.ts';
import type { FileService } from './file.service.ts';
import type { FileStore } from './file.store.ts';

/**
 * GET /api/public/files/{id}?token=… (spec 001 §7 "public view"): no bearer token, but a
 * signed link a signed-in user who may see the file asked for a moment ago, bound to the
 * firm and the file. Anything else answers 403 without saying what was wrong.
 */
export function createPublicFilesRouter(deps: { api: ApiRegistry; tenants: ServiceTenants; files: FileStore; service: FileService; blobs: BlobStorage }): Router {
  const { api, tenants, files, service, blobs } = deps;
  const router = express.Router();

  api.route(router, {
    method: 'get', path: '/api/public/files/:id', public: true, query: publicFileQuerySchema,
    summary: 'A file through a public link (signed, expiring token from POST /api/files/{id}/public-link)',
  }, async ({ req, res, params, query }) => {
    const fileId = parsePathId(params.id);
    const claims = service.verifyLink(query.token, fileId, req.header(TENANT_HEADER) || undefined);
    const t = await tenants.byName(claims.t);
    const file = await files.find(t.db, fileId);
    if (!file) throw new NotFound(FILE_MESSAGES.notFound);
    await sendFile(req, res, file, query.download === '1' || query.download === 'true' ? 'attachment' : 'inline', (range) => blobs.open(claims.t, file.location, range));
  });
  return router;
}
