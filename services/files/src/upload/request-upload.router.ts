import express, { type Router } from 'express';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { TenantRequest, ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { REQUEST_UPLOAD_ASSERTION_HEADER, REQUEST_UPLOAD_PATH, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import type { UploadService } from './upload.service.ts';
import { REQUEST_UPLOAD_EXTENSIONS, REQUEST_UPLOAD_REFUSED } from '@ledgerline/contracts/media-types.ts';

/** An item takes what its pages offer, whoever uploads (a link, a client user, staff). */
const REQUEST_UPLOADS = { extensions: new Set(REQUEST_UPLOAD_EXTENSIONS), refused: REQUEST_UPLOAD_REFUSED };

/**
 * POST /internal/document-request-uploads on the service port only (the gateway never
 * routes /internal): the requests service forwards an item's upload (from a client user,
 * staff, or a link without an account) with its signed assertion naming the firm, the
 * client, the report type and the uploader. The file goes through the same upload path as
 * any other (limits, type checks, storage, extraction and search), as a report of that
 * client; the caller's form fields are ignored. Only the types the pages offer are taken
 * (REQUEST_UPLOAD_EXTENSIONS), each checked by its content.
 */
export function createRequestUploadRouter(deps: { tenants: ServiceTenants; uploads: UploadService; assertions: TokenSigner<RequestUploadAssertion> }): Router {
  const router = express.Router();
  router.post(REQUEST_UPLOAD_PATH, async (req, res) => {
    const claims = deps.assertions.verify(req.header(REQUEST_UPLOAD_ASSERTION_HEADER) ?? '');
    if (!claims) throw new Forbidden('This service assertion is invalid or has expired.');
    const firm = await deps.tenants.byName(claims.t);
    const uploader: TenantRequest = {
      ...firm,
      token: '',
      tenant: claims.t,
      claims: { sub: String(claims.u), username: claims.n, fullName: claims.n, role: 'DocumentRequest', tenant: claims.t, platformAdmin: false },
      scope: { role: 'DocumentRequest', isAdmin: false, isClient: false, clients: [claims.c], reportTypes: claims.r === null ? [] : [claims.r] },
    };
    const fields: Record<string, string> = { fileType: 'report', clientId: String(claims.c), ...(claims.r === null ? {} : { reportTypeId: String(claims.r) }) };
    // A signed document released on payment (issue 43) is filed held for its invoice.
    const hold = claims.h ? { invoiceId: claims.h.i, invoiceNumber: claims.h.n } : undefined;
    res.status(201).json(await deps.uploads.upload(uploader, req, fields, REQUEST_UPLOADS, hold));
  });
  return router;
}
