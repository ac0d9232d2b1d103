import express, { type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  answersSchema, organizerLinkInputSchema, ORGANIZER_LINK_MESSAGES, ORGANIZER_MESSAGES, organizerInputSchema, organizerListQuerySchema, organizerTemplateInputSchema, organizerUpdateSchema,
} from '@ledgerline/contracts/organizers.contracts.ts';
import type { OrganizerService } from './organizer.service.ts';

/** Issue 42 calls (plain /api/… and, through the gateway, /api/{tenant}/…). */
export function createOrganizersRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; service: OrganizerService }): Router {
  const { api, tenants, service } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const organizerId = (v: string | undefined) => parsePathId(v, ORGANIZER_MESSAGES.organizerNotFound);
  const templateId = (v: string | undefined) => parsePathId(v, ORGANIZER_MESSAGES.templateNotFound);

  api.route(router, { method: 'get', path: '/api/organizer-templates', summary: 'Organizer templates (staff; the shipped ones come with the firm)', before }, async ({ res }) =>
    service.templates(await tenants.ofRequest(res)));

  api.route(router, { method: 'post', path: '/api/organizer-templates', summary: 'Create an organizer template (Admin, DTA)', status: 201, body: organizerTemplateInputSchema, before }, async ({ res, body }) =>
    service.saveTemplate(await tenants.ofRequest(res), body));

  api.route(router, { method: 'get', path: '/api/organizer-templates/:id', summary: 'An organizer template (staff)', before }, async ({ res, params }) =>
    service.template(await tenants.ofRequest(res), templateId(params.id)));

  api.route(router, { method: 'put', path: '/api/organizer-templates/:id', summary: 'Replace an organizer template (Admin, DTA); shipped ones are read-only (409)', body: organizerTemplateInputSchema, before }, async ({ res, body, params }) =>
    service.saveTemplate(await tenants.ofRequest(res), body, templateId(params.id)));

  api.route(router, { method: 'delete', path: '/api/organizer-templates/:id', summary: 'Delete an organizer template no organizer uses (Admin, DTA)', before }, async ({ res, params }) =>
    service.deleteTemplate(await tenants.ofRequest(res), templateId(params.id)));

  api.route(router, { method: 'get', path: '/api/organizers', summary: 'Organizers within the caller\'s reach, soonest due first (limit default 100, at most 500; offset)', query: organizerListQuerySchema, before }, async ({ res, query }) =>
    service.list(await tenants.ofRequest(res), query));

  api.route(router, { method: 'post', path: '/api/organizers', summary: 'Make an organizer for a client and year from a template (staff); last year\'s answers come along; sendNow sends it', status: 201, body: organizerInputSchema, before }, async ({ res, body }) =>
    service.create(await tenants.ofRequest(res), body));

  api.route(router, { method: 'get', path: '/api/organizers/:id', summary: 'An organizer with its questions and answers', before }, async ({ res, params }) =>
    service.get(await tenants.ofRequest(res), organizerId(params.id)));

  api.route(router, { method: 'patch', path: '/api/organizers/:id', summary: 'Edit an organizer, send it (status sent) or mark it reviewed (staff)', body: organizerUpdateSchema, before }, async ({ res, params, body }) =>
    service.update(await tenants.ofRequest(res), organizerId(params.id), body));

  api.route(router, { method: 'put', path: '/api/organizers/:id/answers', summary: 'Save the answers so far (the whole set, partial is fine) until submitted', body: answersSchema, before }, async ({ res, params, body }) =>
    service.saveAnswers(await tenants.ofRequest(res), organizerId(params.id), body.answers));

  api.route(router, {
    method: 'post', path: '/api/organizers/:id/files', status: 201, before,
    summary: 'Upload a file for a file question (multipart: `questionId`, then one `file`; the types and size limits of request uploads) until submitted: filed as a report of the client with the organizer\'s report type; answers { fileId, name } for the answer',
  }, async ({ req, res, params }) => service.uploadFile(await tenants.ofRequest(res), organizerId(params.id), req));

  api.route(router, { method: 'post', path: '/api/organizers/:id/submit', summary: 'Submit: every required question shown must be answered; files the answers\' PDF and asks for the documents they call for', before }, async ({ res, params }) =>
    service.submit(await tenants.ofRequest(res), organizerId(params.id)));

  api.route(router, { method: 'post', path: '/api/organizers/:id/reopen', summary: 'Reopen a submitted or reviewed organizer for changes (staff)', before }, async ({ res, params }) =>
    service.reopen(await tenants.ofRequest(res), organizerId(params.id)));

  api.route(router, {
    method: 'post', path: '/api/organizers/:id/links', status: 201, body: organizerLinkInputSchema, before,
    summary: 'A link to answer a sent organizer without an account (default until 14 days past due, at most 90 days); with email, it is sent there. The URL is shown only now',
  }, async ({ res, params, body }) => service.createLink(await tenants.ofRequest(res), organizerId(params.id), body));

  api.route(router, { method: 'get', path: '/api/organizers/:id/links', summary: 'The organizer\'s links for people without an account (staff): recipient, expiry, revoked or not', before }, async ({ res, params }) =>
    service.links(await tenants.ofRequest(res), organizerId(params.id)));

  api.route(router, { method: 'delete', path: '/api/organizers/:id/links/:linkId', summary: 'Revoke a link: it no longer opens the organizer (410)', before }, async ({ res, params }) =>
    service.revokeLink(await tenants.ofRequest(res), organizerId(params.id), parsePathId(params.linkId, ORGANIZER_LINK_MESSAGES.linkNotFound)));
  return router;
}
