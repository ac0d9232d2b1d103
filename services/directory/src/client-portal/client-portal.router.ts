import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Unauthenticated } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { clientPortalQuerySchema, type ClientPortalData, type ClientPortalLink } from '@ledgerline/contracts/directory.contracts.ts';
import { requireAdmin } from '../access-rules.ts';
import type { ClientStore } from '../clients/client.store.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';

/** What a client portal link token binds: the firm and the client. */
export interface PortalLinkClaims extends Record<string, unknown> { t: string; c: number }

const LINK_MISSING = 'This client portal link is incomplete. Please ask your tax consultant for a new link.';
const LINK_INVALID = 'This client portal link is invalid or has expired. Please ask your tax consultant for a new link.';

/**
 * The public client portal page (spec §2) reads its client through a signed, expiring
 * link an Admin shares, never by guessing ids, and learns only whether Google Drive is
 * configured, not the token itself (DESIGN §3).
 */
export function createClientPortalRouter(deps: { api: ApiRegistry; clients: ClientStore; links: TokenSigner<PortalLinkClaims>; linkTtlSeconds: number; tokens: TokenVerifier; tenants: ServiceTenants }): Router {
  const { api, clients, links, tenants } = deps;
  const router = express.Router();
  const id = (params: Record<string, string>) => parsePathId(params.id);

  api.route(router, { method: 'get', path: '/api/clients/:id/portal-link', summary: 'A signed client portal link, valid 30 days (Admin)', before: [authenticate(deps.tokens, deps.tenants.checkCaller)] }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'portalLink');
    const client = await clients.get(t.db, id(params));
    const { token, expiresAt } = links.sign({ t: t.shortName, c: client.id }, deps.linkTtlSeconds);
    return { url: `/${t.shortName}/client/${client.id}/portal?token=${token}`, expiresAt: expiresAt.toISOString() } satisfies ClientPortalLink;
  });

  api.route(router, { method: 'get', path: '/api/clients/:id/portal', summary: 'Public client portal data, with the link\'s token', public: true, query: clientPortalQuerySchema }, async ({ req, params, query }) => {
    const t = await tenants.byName(req.header(TENANT_HEADER));
    const clientId = id(params);
    if (!query.token) throw new Unauthenticated(LINK_MISSING);
    const claims = links.verify(query.token);
    if (!claims || claims.t !== t.shortName || claims.c !== clientId) throw new Unauthenticated(LINK_INVALID);
    const client = await clients.get(t.db, clientId);
    return { name: client.name, uploadDestination: client.uploadDestination, googleDriveConfigured: client.googleDriveConfigured } satisfies ClientPortalData;
  });
  return router;
}
