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
 * Services check every token themselves (the gateway checks too): a token for tenant A
 * never acts in tenant B, whatever header or path asks for it.
 */
export function authenticate(tokens: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) throw new Unauthenticated();
    const claims = await tokens.verify(token);
    const tenant = req.header(TENANT_HEADER) || claims.tenant;
    if (tenant && !canActInTenant(claims, tenant)) throw new Forbidden('This account belongs to another firm.');
    const auth: AuthContext = { claims, token, tenant };
    res.locals.auth = auth;
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Unauthenticated();
  return auth;
}
