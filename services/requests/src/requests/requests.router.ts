import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import {
  itemDecisionSchema, linkInputSchema, requestItemInputSchema, REQUEST_MESSAGES, requestInputSchema, requestListQuerySchema, requestUpdateSchema, templateInputSchema,
} from '@ledgerline/contracts/requests.contracts.ts';
import { requireStaff, requireTemplateManager } from '../access-rules.ts';
import type { RequestService } from './request.service.ts';
import type { RequestStore } from './request.store.ts';

/** Issue 27 calls (plain /api/… and, through the gateway, /api/{tenant}/…). */
export function createRequestsRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; store: RequestStore; service: RequestService }): Router {
  const { api, tenants, store, service } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const requestId = (v: string | undefined) => parsePathId(v, REQUEST_MESSAGES.requestNotFound);
  const itemId = (v: string | undefined) => parsePathId(v, REQUEST_MESSAGES.itemNotFound);
  const templateId = (v: string | undefined) => parsePathId(v, REQUEST_MESSAGES.templateNotFound);

  api.route(router, { method: 'get', path: '/api/request-templates', summary: 'Request templates (staff)', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    requireStaff(t.scope);
    return store.templates(t.db);
  });

  api.route(router, { method: 'post', path: '/api/request-templates', summary: 'Create a request template (Admin, DTA)', status: 201, body: templateInputSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireTemplateManager(t.scope);
    const id = await store.saveTemplate(t.db, { name: body.name, reportTypeId: body.reportTypeId ?? null, items: body.items.map((i) => ({ title: i.title, description: i.description ?? null, required: i.required })) });
    return store.template(t.db, id!);
  });

  api.route(router, { method: 'put', path: '/api/request-templates/:id', summary: 'Replace a request template (Admin, DTA)', body: templateInputSchema, before }, async ({ res, body, params }) => {
    const t = await tenants.ofRequest(res);
    requireTemplateManager(t.scope);
    const id = await store.saveTemplate(t.db, { name: body.name, reportTypeId: body.reportTypeId ?? null, items: body.items.map((i) => ({ title: i.title, description: i.description ?? null, required: i.required })) }, templateId(params.id));
    if (id === null) throw new NotFound(REQUEST_MESSAGES.templateNotFound);
    return store.template(t.db, id);
  });

  api.route(router, { method: 'delete', path: '/api/request-templates/:id', summary: 'Delete a request template (Admin, DTA); requests made from it keep their items', before }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    requireTemplateManager(t.scope);
    if (!await store.deleteTemplate(t.db, templateId(params.id))) throw new NotFound(REQUEST_MESSAGES.templateNotFound);
    return { message: REQUEST_MESSAGES.templateDeleted };
  });

  api.route(router, { method: 'get', path: '/api/document-requests', summary: 'Document requests within the caller\'s reach, soonest due first (limit default 100, at most 500; offset)', query: requestListQuerySchema, before }, async ({ res, query }) =>
    service.list(await tenants.ofRequest(res), query));

  api.route(router, { method: 'post', path: '/api/document-requests', summary: 'Ask a client for documents (items from templateId or items); sendNow notifies the client at once', status: 201, body: requestInputSchema, before }, async ({ res, body }) =>
    service.create(await tenants.ofRequest(res), body));

  api.route(router, { method: 'get', path: '/api/document-requests/:id', summary: 'A request with its items and their files', before }, async ({ res, params }) =>
    service.get(await tenants.ofRequest(res), requestId(params.id)));

  api.route(router, { method: 'patch', path: '/api/document-requests/:id', summary: 'Edit a request, cancel it or reopen a cancelled one (staff)', body: requestUpdateSchema, before }, async ({ res, params, body }) =>
    service.update(await tenants.ofRequest(res), requestId(params.id), body));

  api.route(router, { method: 'post', path: '/api/document-requests/:id/send', summary: 'Notify the client\'s users (and e-mail the links\' recipients) now', before }, async ({ res, params }) =>
    service.send(await tenants.ofRequest(res), requestId(params.id)));

  api.route(router, {
    method: 'post', path: '/api/document-requests/:id/items', status: 201, body: requestItemInputSchema, before,
    summary: 'Add an item to an open request, sent or not (staff who reach the request); the client\'s users are told',
  }, async ({ res, params, body }) => service.addItem(await tenants.ofRequest(res), requestId(params.id), body));

  api.route(router, {
    method: 'post', path: '/api/document-requests/:id/items/:itemId/files', status: 201, before,
    summary: 'Upload for an item (multipart `file`; staff, or a Client user of that client): the file becomes a report of the client, extracted and searchable',
  }, async ({ req, res, params }) => service.upload(await tenants.ofRequest(res), requestId(params.id), itemId(params.itemId), req));

  api.route(router, {
    method: 'patch', path: '/api/document-requests/:id/items/:itemId', body: itemDecisionSchema, before,
    summary: 'Staff accept or reject (with a comment) an item; a Client user marks it not_applicable (with a comment)',
  }, async ({ res, params, body }) => service.decide(await tenants.ofRequest(res), requestId(params.id), itemId(params.itemId), { status: body.status, comment: body.comment ?? null }));

  api.route(router, { method: 'get', path: '/api/document-requests/:id/links', summary: 'Upload links of a request (staff)', before }, async ({ res, params }) =>
    service.links(await tenants.ofRequest(res), requestId(params.id)));

  api.route(router, {
    method: 'post', path: '/api/document-requests/:id/links', status: 201, body: linkInputSchema, before,
    summary: 'An upload link needing no account (default 14 days, at most 90); with email, it is sent there. The URL is shown only now',
  }, async ({ res, params, body }) => service.createLink(await tenants.ofRequest(res), requestId(params.id), body));

  api.route(router, { method: 'delete', path: '/api/document-requests/:id/links/:linkId', summary: 'Revoke an upload link', before }, async ({ res, params }) =>
    service.revokeLink(await tenants.ofRequest(res), requestId(params.id), parsePathId(params.linkId, REQUEST_MESSAGES.linkNotFound)));
  return router;
}
