import type { RequestHandler, Response } from 'express';
import type { PortalClaims } from '../auth/claims.ts';
import { canActInTenant } from '../auth/roles.ts';
import { bearerToken, type TokenVerifier } from '../auth/token-verifier.ts';
import { Forbidden, Unauthenticated } from '../errors.ts';
import { TENANT_HEADER } from '../service-module.ts';

export interface AuthContext {
  claims: PortalClaims;
  /** The bearer token itself, for calls made on the caller's behalf. */
  token: string;
  /** The tenant this request acts in: resolved by the gateway, else the token's own. */
  tenant: string | null;
}

/**
 * What is checked of a caller once their token's signature holds, from what is stored now: an
 * ended session, a deleted user, a retired firm (firm services: ServiceTenants.checkCaller;
 * identity: its own tables). Part of authenticate itself, so no route can skip it by never
 * asking for the caller's firm or access.
 */
export type CallerCheck = (auth: AuthContext, res: Response) => Promise<void>;

/**
 * For the internal calls identity makes on a service's port with a platform administrator's
 * token it has just checked itself (portability, migrations; the gateway never routes /internal).
 */
export const CHECKED_BY_IDENTITY: CallerCheck = async () => {};

/**
 * Services check every token themselves (the gateway checks too): a token for tenant A
 * never acts in tenant B, whatever header or path asks for it; then the stored caller.
 */
export function authenticate(tokens: TokenVerifier, checkCaller: CallerCheck): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) throw new Unauthenticated();
    const claims = await tokens.verify(token);
    const tenant = req.header(TENANT_HEADER) || claims.tenant;
    if (tenant && !canActInTenant(claims, tenant)) throw new Forbidden('This account belongs to another firm.');
    const auth: AuthContext = { claims, token, tenant };
    res.locals.auth = auth;
    await checkCaller(auth, res);
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Unauthenticated();
  return auth;
}
