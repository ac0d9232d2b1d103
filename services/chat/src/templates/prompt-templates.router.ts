import express, { type Router } from 'express';
import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants, TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  PROMPT_TEMPLATE_MESSAGES, promptTemplateInputSchema, promptTemplateQuerySchema, promptTemplateUpdateSchema,
} from '@ledgerline/contracts/chat.contracts.ts';
import type { PromptTemplateStore } from './prompt-template.store.ts';

const requireAdmin = (t: TenantRequest): void => {
  if (!t.scope.isAdmin) throw new Forbidden(PROMPT_TEMPLATE_MESSAGES.adminOnly);
};

/** Spec 001 §7 `GET /api/prompt-templates?isActive=true`; creating and editing for Admins. */
export function createPromptTemplatesRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; templates: PromptTemplateStore }): Router {
  const { api, tenants, templates } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, {
    method: 'get', path: '/api/prompt-templates', query: promptTemplateQuerySchema, before,
    summary: 'Prompt templates by category (everyone reads the active ones; Admins also inactive ones)',
  }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    // Only those who manage templates see the deactivated ones.
    const isActive = !t.scope.isAdmin ? true : query.isActive === undefined ? undefined : query.isActive === 'true';
    return templates.list(t.db, { ...(isActive === undefined ? {} : { isActive }), ...(query.category ? { category: query.category } : {}) });
  });

  api.route(router, {
    method: 'post', path: '/api/prompt-templates', body: promptTemplateInputSchema, status: 201, before,
    summary: 'Create a prompt template (Admin)',
  }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t);
    return templates.create(t.db, body, actorId(t.claims));
  });

  api.route(router, {
    method: 'put', path: '/api/prompt-templates/:id', body: promptTemplateUpdateSchema, before,
    summary: 'Edit a prompt template, or deactivate it with { isActive: false } (Admin)',
  }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t);
    const updated = await templates.update(t.db, parsePathId(params.id, PROMPT_TEMPLATE_MESSAGES.notFound), body);
    if (!updated) throw new NotFound(PROMPT_TEMPLATE_MESSAGES.notFound);
    return updated;
  });
  return router;
}
