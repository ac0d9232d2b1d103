import express, { type RequestHandler, type Router } from 'express';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authOf } from '@ledgerline/kit/http/authenticate.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { loginRequestSchema } from '@ledgerline/contracts/auth.contracts.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { LoginService } from './login.service.ts';
import { storedUserOf } from './authenticate-caller.ts';
import { signInContext } from '../mfa/mfa.router.ts';
import type { MfaService } from '../mfa/mfa.service.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';

export function createAuthRouter(deps: { api: ApiRegistry; db: Database; logins: LoginService; mfa: MfaService; companies: CompanyStore; authenticated: RequestHandler[] }): Router {
  const { api, logins, companies } = deps;
  const router = express.Router();

  api.route(router, {
    method: 'post', path: '/api/auth/login', public: true, body: loginRequestSchema,
    summary: 'Sign in. With a tenant (/api/{tenant}/auth/login or a tenant host) as that firm\'s user; without, platform administrators and then any firm\'s user by username. Where a second factor is set up or required: { mfaRequired, challenge, methods } or { mfaSetupRequired, challenge } instead of a token.',
  }, ({ req, body }) => {
    const tenant = req.header(TENANT_HEADER);
    return tenant
      ? logins.tenantLogin(tenant, body.username, body.password, signInContext(req))
      : logins.genericLogin(body.username, body.password, signInContext(req));
  });

  api.route(router, {
    method: 'post', path: '/api/admin/auth/login', summary: 'Platform administrator login', public: true, body: loginRequestSchema,
  }, ({ req, body }) => logins.adminLogin(body.username, body.password, signInContext(req)));

  api.route(router, {
    method: 'get', path: '/api/info', public: true, summary: 'Public facts of a firm for its login page (/api/{tenant}/info), whether its Client users may sign in by e-mail and its users with a passkey included; 404 when unknown or inactive',
  }, async ({ req }) => {
    const shortName = req.header(TENANT_HEADER);
    const company = shortName ? await companies.findByShortName(shortName) : null;
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    const { clientEmailSignIn } = await deps.mfa.settings.get(deps.db.forSchema(company.schemaName));
    return { id: company.id, name: company.name, shortName: company.shortName, isActive: company.isActive, urlPattern: company.urlPattern, timeZone: company.timeZone, country: company.country, currency: company.currency, clientEmailSignIn: clientEmailSignIn && logins.ownsFactors, passkeySignIn: logins.ownsFactors };
  });

  api.route(router, {
    method: 'get', path: '/api/auth/me', before: deps.authenticated,
    summary: 'The signed-in user as stored now (role, access lists), or as the token describes a platform administrator; 401 for a deleted user',
  }, ({ res }) => {
    const { claims, tenant } = authOf(res);
    const user = storedUserOf(res);
    // Other services ask this when their access read model does not know the caller yet.
    return user
      ? { ...claims, actingTenant: tenant, roleId: user.roleId, clientIds: user.clientIds ?? [], reportTypeIds: user.reportTypeIds ?? [] }
      : { ...claims, actingTenant: tenant };
  });
  return router;
}
