import express, { type Request, type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
import type { AttemptCounter } from '@ledgerline/kit/http/attempt-counter.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { answersSchema } from '@ledgerline/contracts/organizers.contracts.ts';
import type { OrganizerService } from './organizer.service.ts';

/**
 * The organizer link calls (issue 42), by token only, no bearer, as request links are
 * (public-requests.router.ts): the organizer's questions and answers, saving answers and
 * submitting; nothing else of the firm. Rate-limited per address and per token. 410 once the
 * link expired or was revoked, or the organizer was submitted.
 */
export function createPublicOrganizersRouter(deps: { api: ApiRegistry; tenants: ServiceTenants; service: OrganizerService; attempts: AttemptCounter }): Router {
  const { api, tenants, service, attempts } = deps;
  const router = express.Router();
  const open = (req: Request, token: string | undefined) => {
    attempts.take(`a:${clientAddress(req)}`, `t:${token ?? ''}`);
    return service.byLink((shortName) => tenants.byName(shortName), token ?? '');
  };
  const tokenParam = { token: { type: 'string', minLength: 20, maxLength: 200 } };

  api.route(router, { method: 'get', path: '/api/public/organizers/:token', public: true, pathParams: tokenParam, summary: 'The organizer a link opens: its questions and answers so far' }, async ({ req, res, params }) => {
    const link = await open(req, params.token);
    res.setHeader('Cache-Control', 'no-store');
    return service.presentPublic(link);
  });

  api.route(router, { method: 'put', path: '/api/public/organizers/:token/answers', public: true, pathParams: tokenParam, body: answersSchema, summary: 'Save the answers so far through a link (the whole set; partial is fine)' }, async ({ req, res, params, body }) => {
    const link = await open(req, params.token);
    res.setHeader('Cache-Control', 'no-store');
    return service.saveAnswersByLink(link, body.answers);
  });

  api.route(router, {
    method: 'post', path: '/api/public/organizers/:token/files', status: 201, public: true, pathParams: tokenParam,
    summary: 'Upload a file for a file question through a link (multipart: `questionId`, then one `file`; the same limits as any request upload)',
  }, async ({ req, res, params }) => {
    const link = await open(req, params.token);
    res.setHeader('Cache-Control', 'no-store');
    return service.uploadFileByLink(link, req);
  });

  api.route(router, { method: 'post', path: '/api/public/organizers/:token/submit', public: true, pathParams: tokenParam, summary: 'Submit the organizer through a link (400 naming the required questions still unanswered)' }, async ({ req, res, params }) => {
    const link = await open(req, params.token);
    res.setHeader('Cache-Control', 'no-store');
    return service.submitByLink(link);
  });
  return router;
}
