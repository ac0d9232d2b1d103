import type { RequestHandler, Response } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { authenticate, authOf, type AuthContext } from '@ledgerline/kit/http/authenticate.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';

/**
 * Identity's authentication: the token, then the stored user it names. Every rule
 * decides from what is stored now (docs/api/authorization.md), never from the token's
 * claims: a deleted user's token is refused (401), a demoted user acts with their new
 * role at once, a retired firm's users are refused like an unknown firm. The claims'
 * role is replaced by the stored one, so the rules in access-rules.ts read the truth.
 */
export function authenticateCaller(deps: { db: Database; tokens: TokenVerifier; companies: CompanyStore; users: UserStore }): RequestHandler[] {
  const { db, companies, users } = deps;
  const storedCaller: RequestHandler = async (_req, res, next) => {
    const auth = authOf(res);
    if (auth.claims.platformAdmin) return next();
    const company = auth.claims.tenant ? await companies.findByShortName(auth.claims.tenant) : null;
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    const user = await users.find(db.forSchema(company.schemaName), Number(auth.claims.sub));
    if (!user) throw new Unauthenticated();
    const current: AuthContext = { ...auth, claims: { ...auth.claims, role: user.roleName, username: user.username, fullName: user.fullName } };
    res.locals.auth = current;
    res.locals.storedUser = user;
    next();
  };
  return [authenticate(deps.tokens), storedCaller];
}

/** The stored record of the signed-in firm user (null for platform administrators). */
export const storedUserOf = (res: Response): User | null => (res.locals.storedUser as User | undefined) ?? null;
