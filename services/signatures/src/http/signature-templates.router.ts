import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { SIGNATURE_MESSAGES, signatureTemplateInputSchema, signatureTemplatePreviewSchema } from '@ledgerline/contracts/signatures.contracts.ts';
import type { SignatureService } from '../domain/signature.service.ts';
import type { SignatureTemplates } from '../domain/signature-templates.service.ts';
import { sendPdf } from './signature-requests.router.ts';

/** Issue 41 templates (plain /api/… and, through the gateway, /api/{tenant}/…): Admin and DTA manage them, staff use them. */
export function createSignatureTemplatesRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; templates: SignatureTemplates; service: SignatureService }): Router {
  const { api, tenants, templates, service } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (v: string | undefined) => parsePathId(v, SIGNATURE_MESSAGES.templateNotFound);
  const base = '/api/signature-templates';

  api.route(router, { method: 'get', path: base, before, summary: 'Signature templates (engagement letters, saved form placements) the caller may use' }, async ({ res }) =>
    templates.list(await tenants.ofRequest(res)));
  api.route(router, {
    method: 'post', path: base, status: 201, body: signatureTemplateInputSchema, before,
    summary: 'Save a template (Admin, DTA): a letter body with merge fields or a PDF of the firm\'s documents, signer roles and field placements',
  }, async ({ res, body }) => templates.create(await tenants.ofRequest(res), body));
  api.route(router, { method: 'get', path: `${base}/:id`, before, summary: 'A signature template' }, async ({ res, params }) =>
    templates.get(await tenants.ofRequest(res), id(params.id)));
  api.route(router, { method: 'put', path: `${base}/:id`, body: signatureTemplateInputSchema, before, summary: 'Replace a signature template (Admin, DTA); the same fileId keeps the PDF copied before' }, async ({ res, params, body }) =>
    templates.update(await tenants.ofRequest(res), id(params.id), body));
  api.route(router, { method: 'delete', path: `${base}/:id`, before, summary: 'Delete a signature template (Admin, DTA); requests made from it keep their documents' }, async ({ res, params }) =>
    templates.delete(await tenants.ofRequest(res), id(params.id)));
  api.route(router, {
    method: 'post', path: `${base}/:id/preview`, body: signatureTemplatePreviewSchema, before,
    summary: 'The PDF a request from this template would sign, for a client within reach and these merge values (nothing is saved)',
  }, async ({ res, params, body }) => {
    const pdf = await service.previewTemplate(await tenants.ofRequest(res), id(params.id), body);
    sendPdf(res, pdf.content, pdf.name);
  });
  return router;
}
