import express, { type Request, type Router } from 'express';
import type { AttemptCounter } from '@ledgerline/kit/http/attempt-counter.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { declineSchema, identityAnswerSchema, signSchema } from '@ledgerline/contracts/signatures.contracts.ts';
import type { SigningService } from '../domain/signing.service.ts';
import { originOf, sendPdf } from './signature-requests.router.ts';

/**
 * A signer's calls by their link (issue 41), no bearer: only that signer's view of the
 * request. Rate-limited per address and per token; a used, replaced or expired link, or a
 * request no longer waiting for signatures, answers 410.
 */
export function createPublicSigningRouter(deps: { api: ApiRegistry; tenants: ServiceTenants; signing: SigningService; attempts: AttemptCounter }): Router {
  const { api, tenants, signing, attempts } = deps;
  const router = express.Router();
  const open = (req: Request, token: string | undefined) => {
    attempts.take(`a:${clientAddress(req)}`, `t:${token ?? ''}`);
    return signing.byLink((shortName) => tenants.byName(shortName), token ?? '');
  };
  const pathParams = { token: { type: 'string', minLength: 20, maxLength: 200 } };
  const base = '/api/public/signing/:token';

  api.route(router, { method: 'get', path: base, public: true, pathParams, summary: 'What the link\'s signer signs: disclosure, their fields, progress' }, async ({ req, res, params }) => {
    res.setHeader('Cache-Control', 'no-store');
    return signing.view(await open(req, params.token));
  });
  api.route(router, { method: 'get', path: `${base}/document`, public: true, pathParams, summary: 'The documents to sign as one PDF (the first call records viewing)' }, async ({ req, res, params }) => {
    sendPdf(res, await signing.document(await open(req, params.token), originOf(req)), 'documents.pdf');
  });
  api.route(router, { method: 'post', path: `${base}/consent`, public: true, pathParams, summary: 'Agree to sign electronically (the ESIGN disclosure)' }, async ({ req, params }) =>
    signing.consent(await open(req, params.token), originOf(req)));
  api.route(router, { method: 'post', path: `${base}/code`, public: true, pathParams, summary: 'E-mail a 6-digit identity code to the signer (sign_in_second_factor)' }, async ({ req, params }) =>
    signing.sendCode(await open(req, params.token), originOf(req)));
  api.route(router, { method: 'post', path: `${base}/identity`, public: true, pathParams, body: identityAnswerSchema, summary: 'Pass the identity check: the e-mailed code, or the knowledge answers' }, async ({ req, params, body }) =>
    signing.verifyIdentity(await open(req, params.token), body, originOf(req)));
  api.route(router, { method: 'post', path: `${base}/sign`, public: true, pathParams, body: signSchema, summary: 'Adopt a signature, fill the fields and sign (after consent, viewing and the identity check)' }, async ({ req, params, body }) =>
    signing.sign(await open(req, params.token), body, originOf(req)));
  api.route(router, { method: 'post', path: `${base}/decline`, public: true, pathParams, body: declineSchema, summary: 'Decline to sign, with a reason (the request ends)' }, async ({ req, params, body }) =>
    signing.decline(await open(req, params.token), body.reason, originOf(req)));
  return router;
}
