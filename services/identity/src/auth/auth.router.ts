import express, { type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate, authOf } from '@ledgerline/kit/http/authenticate.ts';
import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Unauthenticated } from '@ledgerline/kit/errors.ts';
import { loginRequestSchema, type LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { PlatformAdminStore } from './platform-admin.store.ts';

export function createAuthRouter(deps: { api: ApiRegistry; admins: PlatformAdminStore; issuer: TokenIssuer; tokens: TokenVerifier }): Router {
  const { api, admins, issuer, tokens } = deps;
  const router = express.Router();

  api.route(router, {
    method: 'post', path: '/api/admin/auth/login', summary: 'Platform administrator login', public: true, body: loginRequestSchema,
  }, async ({ body }): Promise<LoginResponse> => {
    const admin = await admins.verifyLogin(body.username, body.password);
    if (!admin) throw new Unauthenticated('Invalid admin credentials');
    const user = { id: admin.id, username: admin.username, fullName: admin.fullName, role: 'Admin', tenant: null, platformAdmin: true };
    const token = await issuer.sign({ sub: String(admin.id), username: admin.username, fullName: admin.fullName, role: 'Admin', tenant: null, platformAdmin: true });
    return { token, user };
  });

  api.route(router, {
    method: 'get', path: '/api/auth/me', summary: 'The signed-in user as the token describes it', before: [authenticate(tokens)],
  }, ({ res }) => {
    const { claims, tenant } = authOf(res);
    return { ...claims, actingTenant: tenant };
  });
  return router;
}
