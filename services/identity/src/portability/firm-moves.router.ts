import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import express, { type RequestHandler, type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { contentDisposition } from '@ledgerline/kit/http/content-disposition.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { receiveFile } from '@ledgerline/kit/http/receive-file.ts';
import { isAdmin } from '@ledgerline/kit/auth/roles.ts';
import { firmImportFieldsSchema } from '@ledgerline/contracts/identity.contracts.ts';
import { requirePlatformAdmin } from '../access-rules.ts';
import type { RoleStore } from '../roles/role.store.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { FirmExportService } from './firm-export.service.ts';
import type { FirmImportService } from './firm-import.service.ts';
import type { FirmReadableCopy } from './firm-readable-copy.ts';
import type { ArchiveSigningKey } from '@ledgerline/kit/portability/archive-signature.ts';
import type { FirmArchiveSigningKey } from '@ledgerline/contracts/identity.contracts.ts';

const NO_ARCHIVE = 'Choose a firm archive (.tar) to import.';

/**
 * Moving firms: a platform administrator exports any firm and imports archives; a firm's
 * Admin exports their own firm under `/api/{tenant}/export`.
 */
export function createFirmMovesRouter(deps: {
  api: ApiRegistry; companies: CompanyStore; exports: FirmExportService; imports: FirmImportService; signingKey: ArchiveSigningKey;
  readable: FirmReadableCopy; authenticated: RequestHandler[]; tenantOf: (res: express.Response) => Promise<TenantRequest>;
  roles: Pick<RoleStore, 'mayRevealTaxIds'>;
}): Router {
  const { api, companies, exports } = deps;
  const router = express.Router();
  const before = deps.authenticated;
  const companyOf = async (res: express.Response, params: Record<string, string>) => {
    requirePlatformAdmin(authOf(res));
    return companies.get(parsePathId(params.id));
  };
  const ownFirm = async (res: express.Response) => {
    const t = await deps.tenantOf(res);
    if (!t.claims.platformAdmin && !isAdmin(t.claims)) throw new Forbidden('Only administrators can export the firm.');
    return t.company;
  };
  const download = (target: () => Promise<{ id: number }>): Parameters<ApiRegistry['route']>[2] => async ({ res, params }) => {
    const company = await target();
    const archive = await exports.download(company.id, params.exportId!);
    res.setHeader('content-type', 'application/x-tar');
    res.setHeader('content-length', String(archive.size));
    res.setHeader('content-disposition', contentDisposition('attachment', archive.name));
    await pipeline(archive.body, res);
  };
  const exportIdParam = { exportId: { type: 'string', format: 'uuid' } };

  api.route(router, { method: 'post', path: '/api/companies/:id/export', summary: 'Start exporting a firm (platform administrators)', status: 202, before },
    async ({ res, params }) => exports.start(await companyOf(res, params)));
  api.route(router, { method: 'get', path: '/api/companies/:id/exports', summary: 'A firm\'s exports with status, size and progress', before },
    async ({ res, params }) => exports.list((await companyOf(res, params)).id));
  api.route(router, { method: 'get', path: '/api/companies/:id/exports/:exportId/download', summary: 'Download a finished firm export (tar)', before, pathParams: exportIdParam },
    async (ctx) => download(() => companyOf(ctx.res, ctx.params))(ctx));

  api.route(router, {
    method: 'get', path: '/api/companies/:id/export/readable', before,
    summary: 'A readable copy of a firm as a ZIP (users, clients, report types and tasks as CSV; documents in a folder per client), never imported',
  }, async ({ res, params }) => deps.readable.send(await companyOf(res, params), res, { revealTaxIds: true }));

  api.route(router, { method: 'post', path: '/api/export', summary: 'Start exporting the caller\'s own firm (Admin)', status: 202, before },
    async ({ res }) => exports.start(await ownFirm(res)));
  api.route(router, { method: 'get', path: '/api/export', summary: 'The caller\'s firm\'s exports (Admin)', before },
    async ({ res }) => exports.list((await ownFirm(res)).id));
  api.route(router, { method: 'get', path: '/api/export/:exportId/download', summary: 'Download a finished export of the caller\'s firm (Admin)', before, pathParams: exportIdParam },
    async (ctx) => download(() => ownFirm(ctx.res))(ctx));

  api.route(router, {
    method: 'get', path: '/api/export/readable', before,
    summary: 'A readable copy of the caller\'s firm as a ZIP (users, clients, report types and tasks as CSV; documents in a folder per client) (Admin)',
  }, async ({ res }) => {
    const company = await ownFirm(res);
    // Whole tax IDs only for a role that may reveal them (the Admin role by default); else the last four.
    const t = await deps.tenantOf(res);
    const revealTaxIds = t.claims.platformAdmin || await deps.roles.mayRevealTaxIds(t.db, Number(t.claims.sub));
    return deps.readable.send(company, res, { revealTaxIds });
  });

  api.route(router, { method: 'get', path: '/api/companies/imports/signing-key', summary: 'This installation\'s archive signing key: what another installation lists in FIRM_ARCHIVE_TRUSTED_KEYS to trust its archives', before },
    async ({ res }): Promise<FirmArchiveSigningKey> => {
      requirePlatformAdmin(authOf(res));
      return { keyId: deps.signingKey.keyId, publicKey: deps.signingKey.publicKey };
    });
  api.route(router, {
    method: 'post', path: '/api/companies/import', status: 202, before,
    summary: 'Import a firm archive as a new firm (multipart: file, name, shortName, confirm); answers the import job. An archive not signed by this or a trusted installation answers 409 unless confirm=true',
  },
    async ({ req, res }) => {
      requirePlatformAdmin(authOf(res));
      const dir = await deps.imports.tempDir();
      const cleanup = () => rm(dir, { recursive: true, force: true });
      try {
        const { fields, file: archive } = await receiveFile(req, 'file', join(dir, 'archive.tar'), NO_ARCHIVE);
        const input = parseInput(firmImportFieldsSchema, fields);
        return await deps.imports.start(archive, input, cleanup);
      } catch (err) {
        await cleanup();
        throw err;
      }
    });
  api.route(router, { method: 'get', path: '/api/companies/imports/:importId', summary: 'An import job; once ready, `company` names the new firm', before, pathParams: { importId: { type: 'string', format: 'uuid' } } },
    async ({ res, params }) => {
      requirePlatformAdmin(authOf(res));
      return deps.imports.get(params.importId!);
    });
  return router;
}
