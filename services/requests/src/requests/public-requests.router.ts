import express, { type Request, type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { AttemptCounter } from '@ledgerline/kit/http/attempt-counter.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { notApplicableSchema, REQUEST_MESSAGES } from '@ledgerline/contracts/requests.contracts.ts';
import type { RequestService } from './request.service.ts';

/**
 * The link calls (issue 27), by token only, no bearer: the request's title, message, due
 * date and items with how many files each has, never a file's name or content nor anything
 * else of the firm. Rate-limited per address and per token (one replica's count each).
 */
export function createPublicRequestsRouter(deps: { api: ApiRegistry; tenants: ServiceTenants; service: RequestService; attempts: AttemptCounter; renewals: AttemptCounter }): Router {
  const { api, tenants, service, attempts, renewals } = deps;
  const router = express.Router();
  const open = (req: Request, token: string | undefined) => {
    attempts.take(`a:${clientAddress(req)}`, `t:${token ?? ''}`);
    return service.byLink((shortName) => tenants.byName(shortName), token ?? '');
  };
  const who = (req: Request) => ({ address: clientAddress(req), userAgent: (req.header('user-agent') ?? '').slice(0, 300) });
  const tokenParam = { token: { type: 'string', minLength: 20, maxLength: 200 } };

  api.route(router, { method: 'get', path: '/api/public/document-requests/:token', public: true, pathParams: tokenParam, summary: 'What a link asks for (410 once expired, revoked, completed or cancelled)' }, async ({ req, res, params }) => {
    const link = await open(req, params.token);
    res.setHeader('Cache-Control', 'no-store');
    return service.presentPublic(link.firm, link.request);
  });

  api.route(router, {
    method: 'post', path: '/api/public/document-requests/:token/items/:itemId/files', status: 201, public: true, pathParams: tokenParam,
    summary: 'Upload for an item through a link (multipart `file`, the same size and type limits as any upload)',
  }, async ({ req, params }) => {
    const link = await open(req, params.token);
    return service.uploadByLink(link, parsePathId(params.itemId, REQUEST_MESSAGES.itemNotFound), req, who(req));
  });

  api.route(router, {
    method: 'post', path: '/api/public/document-requests/:token/items/:itemId/not-applicable', public: true, pathParams: tokenParam, body: notApplicableSchema,
    summary: 'Say an item does not apply, with a comment, through a link',
  }, async ({ req, params, body }) => {
    const link = await open(req, params.token);
    return service.notApplicableByLink(link, parsePathId(params.itemId, REQUEST_MESSAGES.itemNotFound), body.comment ?? null, who(req));
  });
  api.route(router, {
    method: 'post', path: '/api/public/document-requests/:token/new-link', status: 202, public: true, pathParams: tokenParam,
    summary: 'E-mail a new link to the address an expired link was sent to (the same answer whatever the token; at most once an hour per link)',
  }, async ({ req, params }) => {
    // Per address only: a per-token count would answer differently for tokens tried often.
    renewals.take(`a:${clientAddress(req)}`);
    return service.renewLink((shortName) => tenants.byName(shortName), params.token ?? '');
  });
  return router;
}
