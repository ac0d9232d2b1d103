import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants, TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { fileDownloadQuerySchema, fileListQuerySchema, PAYMENT_HOLD_MESSAGES, paymentHoldInputSchema } from '@ledgerline/contracts/files.contracts.ts';
import { FILE_MESSAGES } from './file-rules.ts';
import { PaymentHolds } from './payment-holds.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import type { UploadService } from '../upload/upload.service.ts';
import { sendClientArchive } from './client-archive.ts';
import { sendFile } from './file-download.ts';
import type { FileService } from './file.service.ts';
import type { FileStore } from './file.store.ts';

/** Spec 001 §7 "Files" (plain /api/files… and, through the gateway, /api/{tenant}/files…). */
export function createFilesRouter(deps: {
  api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; files: FileStore; service: FileService; uploads: UploadService; blobs: BlobStorage;
  directoryTables: { clients: string; reportTypes: string }; directory: DirectoryLookup;
}): Router {
  const { api, tenants, files, service, uploads, blobs } = deps;
  const holds = new PaymentHolds();
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (params: Record<string, string>) => parsePathId(params.id);

  api.route(router, {
    method: 'get', path: '/api/files', query: fileListQuerySchema, before,
    summary: 'Files the caller may see, newest first (or best match first with search, with a snippet); X-Total-Count tells how many match',
  }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    const page = await files.list(t.db, t.scope, query);
    res.setHeader('X-Total-Count', String(page.total));
    if (page.capped) res.setHeader('X-Total-Count-Capped', 'true');
    res.setHeader('Cache-Control', 'no-store');
    // Sent as is: express would hash every (often 100 KB) reply for an ETag nobody revalidates (no-store).
    res.status(200).type('application/json').end(page.json);
  });

  api.route(router, {
    method: 'post', path: '/api/files', status: 201, before,
    summary: 'Upload files (multipart/form-data: one or more `file` parts; fileType, clientId, reportTypeId, documentType) — staff only',
  }, async ({ req, res }) => uploads.upload(await tenants.ofRequest(res), req));

  api.route(router, { method: 'post', path: '/api/files/extract-content', summary: 'Queue content extraction for every visible file without extracted text (staff)', before }, async ({ res }) =>
    service.requestExtraction(await tenants.ofRequest(res)));

  api.route(router, {
    method: 'get', path: '/api/files/clients/:clientId/archive', before,
    summary: 'One client\'s documents as a ZIP, a folder per type and, for reports, per tax year and report type, with index.csv naming each file\'s request item (Admin)',
  }, async ({ res, params }) => sendClientArchive(
    { blobs, reportTypesTable: deps.directoryTables.reportTypes, clientsTable: deps.directoryTables.clients, directory: deps.directory },
    await tenants.ofRequest(res), parsePathId(params.clientId), res,
  ));

  api.route(router, {
    method: 'get', path: '/api/files/:id', query: fileDownloadQuerySchema, before,
    summary: 'The file\'s bytes (inline; download=1 for an attachment), single byte ranges supported',
  }, async ({ req, res, params, query }) => {
    const t = await tenants.ofRequest(res);
    const file = await service.openable(t, id(params));
    await sendFile(req, res, file, query.download === '1' || query.download === 'true' ? 'attachment' : 'inline', (range) => blobs.open(t.shortName, file.location, range));
  });

  api.route(router, { method: 'delete', path: '/api/files/:id', summary: 'Delete a file (Admin any; other staff what they see, firm documents only their own)', before }, async ({ res, params }) =>
    service.delete(await tenants.ofRequest(res), id(params)));

  api.route(router, {
    method: 'put', path: '/api/files/:id/payment-hold', body: paymentHoldInputSchema, before,
    summary: 'Release a client\'s document only on payment of one of the client\'s sent invoices (Admin): until then its Client users see it listed as waiting and cannot open it',
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    if (!t.scope.isAdmin) throw new Forbidden(FILE_MESSAGES.adminsOnlyHold);
    const file = await service.visible(t, id(params));
    return t.db.transaction((tx) => holds.hold(tx, file, body.invoiceId, actorId(t.claims)));
  });

  api.route(router, { method: 'delete', path: '/api/files/:id/payment-hold', summary: 'Release a document waiting for payment by hand (Admin)', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    if (!t.scope.isAdmin) throw new Forbidden(FILE_MESSAGES.adminsOnlyHold);
    await service.visible(t, id(params));
    await t.db.transaction((tx) => holds.release(tx, id(params), actorId(t.claims)));
    return { message: PAYMENT_HOLD_MESSAGES.released };
  });

  // A report type of a client held until an invoice is paid: under /api/files/clients/… (the
  // files service owns holds; /api/clients/… is the directory's).
  const clientReportType = async (t: TenantRequest, params: Record<string, string>) => {
    const client = await deps.directory.client(t, parsePathId(params.clientId));
    const reportType = await deps.directory.reportType(t, parsePathId(params.reportTypeId));
    return { clientId: client.id, reportTypeId: reportType.id };
  };

  api.route(router, {
    method: 'get', path: '/api/files/clients/:clientId/payment-holds', before,
    summary: 'The report types of a client released on payment of an invoice, with how many of their files wait (staff who reach the client)',
  }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    if (t.scope.isClient) throw new Forbidden(FILE_MESSAGES.staffOnlyHolds);
    const client = await deps.directory.client(t, parsePathId(params.clientId));
    return holds.reportTypeHolds(t.db, client.id);
  });

  api.route(router, {
    method: 'put', path: '/api/files/clients/:clientId/report-types/:reportTypeId/payment-hold', body: paymentHoldInputSchema, before,
    summary: 'Release every document of a report type of a client (those there and those filed meanwhile) only on payment of one of the client\'s sent invoices (Admin)',
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    if (!t.scope.isAdmin) throw new Forbidden(FILE_MESSAGES.adminsOnlyHold);
    const { clientId, reportTypeId } = await clientReportType(t, params);
    return t.db.transaction((tx) => holds.holdReportType(tx, clientId, reportTypeId, body.invoiceId, actorId(t.claims)));
  });

  api.route(router, {
    method: 'delete', path: '/api/files/clients/:clientId/report-types/:reportTypeId/payment-hold', before,
    summary: 'Release a report type of a client waiting for payment by hand, with the documents it held (Admin)',
  }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    if (!t.scope.isAdmin) throw new Forbidden(FILE_MESSAGES.adminsOnlyHold);
    const { clientId, reportTypeId } = await clientReportType(t, params);
    await t.db.transaction((tx) => holds.releaseReportType(tx, clientId, reportTypeId, actorId(t.claims)));
    return { message: PAYMENT_HOLD_MESSAGES.released };
  });

  api.route(router, { method: 'post', path: '/api/files/:id/public-link', summary: 'A signed, short-lived URL that opens the file without a bearer token', before }, async ({ res, params }) =>
    service.publicLink(await tenants.ofRequest(res), id(params)));
  return router;
}
