import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { isDomainError } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import { GOOGLE_DRIVE_SETUP_PARAM, googleCallbackQuerySchema, googleCredentialsInputSchema } from '@ledgerline/contracts/directory.contracts.ts';
import { requireAdmin } from '../access-rules.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { GoogleDriveService } from './google-drive.service.ts';

// Only a well-formed short name goes into the redirect: the callback must not be an open redirect.
const SHORT_NAME = /^[a-z0-9]{1,40}$/;

export function createGoogleDriveRouter(deps: { api: ApiRegistry; drive: GoogleDriveService; tokens: TokenVerifier; tenants: ServiceTenants; logger: Logger }): Router {
  const { api, drive, tenants, logger } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (params: Record<string, string>) => parsePathId(params.id);
  const admin = async (res: express.Response) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t, 'googleDrive');
    return t;
  };

  api.route(router, { method: 'get', path: '/api/clients/:id/google-drive/status', summary: 'Google Drive setup state of a client (Admin)', before }, async ({ res, params }) =>
    drive.status(await admin(res), id(params)));

  api.route(router, { method: 'post', path: '/api/clients/:id/google-drive/credentials', summary: 'Save the Google OAuth Client ID and Secret for a client (Admin; the secret is never returned)', body: googleCredentialsInputSchema, before }, async ({ res, params, body }) => {
    await drive.saveCredentials(await admin(res), id(params), body);
    return { message: 'Google Drive credentials have been saved successfully.' };
  });

  api.route(router, { method: 'get', path: '/api/clients/:id/google-drive/auth-url', summary: 'Google consent URL with a signed, expiring state (Admin)', before }, async ({ res, params }) =>
    drive.authUrl(await admin(res), id(params)));

  api.route(router, { method: 'delete', path: '/api/clients/:id/google-drive', summary: 'Remove a client\'s Google Drive integration (Admin)', before }, async ({ res, params }) => {
    await drive.remove(await admin(res), id(params));
    return { message: 'Google Drive integration removed.' };
  });

  api.route(router, {
    method: 'get', path: '/api/auth/google/callback/:clientId', public: true, query: googleCallbackQuerySchema,
    summary: 'Google OAuth callback: verifies state, stores the tokens, creates the client\'s folder, redirects to /{tenant}/clients?google-drive-setup=…',
  }, async ({ res, params, query }) => {
    const tenant = query.tenant && SHORT_NAME.test(query.tenant) ? query.tenant : null;
    const back = (outcome: 'success' | 'error', message?: string) => {
      const search = new URLSearchParams({ [GOOGLE_DRIVE_SETUP_PARAM]: outcome, ...(message ? { message } : {}) });
      res.redirect(302, `${tenant ? `/${tenant}` : ''}/clients?${search}`);
    };
    if (query.error) return back('error', `Google Drive access was not granted (${query.error}).`);
    try {
      await drive.connect(await tenants.byName(tenant), parsePathId(params.clientId), query.code, query.state);
      back('success');
    } catch (err) {
      if (!isDomainError(err)) logger.error({ err }, 'Google Drive connection failed');
      back('error', isDomainError(err) ? err.message : 'Failed to connect Google Drive');
    }
  });
  return router;
}
