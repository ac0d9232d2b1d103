import type { RequestHandler, Response } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { authenticate, type AuthContext, type CallerCheck } from '@ledgerline/kit/http/authenticate.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import type { SessionStore } from '../sessions/session.store.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import { SESSION_ENDED } from '@ledgerline/kit/tenancy/tenant-requests.ts';

/**
 * Identity's authentication: the token, then the stored user it names. Every rule
 * decides from what is stored now (docs/api/authorization.md), never from the token's
 * claims: a deleted user's token is refused (401), a demoted user acts with their new
 * role at once, a retired firm's users are refused like an unknown firm. The claims'
 * role is replaced by the stored one, so the rules in access-rules.ts read the truth.
 */
export function authenticateCaller(deps: { db: Database; tokens: TokenVerifier; companies: CompanyStore; users: UserStore; sessions: SessionStore }): RequestHandler[] {
  const { db, companies, users, sessions } = deps;
  /** A token naming a session is refused once that session ended (signed out, revoked, reset). */
  const liveSession = async (schema: string, sessionId: string | undefined, userId: number) => {
    if (!sessionId) return;
    const session = await sessions.find(db.forSchema(schema), sessionId);
    if (!session || session.revoked || session.userId !== userId) throw new Unauthenticated(SESSION_ENDED);
    await sessions.touch(db.forSchema(schema), sessionId);
  };
  const storedCaller: CallerCheck = async (auth, res) => {
    if (auth.claims.platformAdmin) {
      await liveSession(PLATFORM_SCHEMA, auth.claims.sessionId, Number(auth.claims.sub));
      return;
    }
    const company = auth.claims.tenant ? await companies.findByShortName(auth.claims.tenant) : null;
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    await liveSession(company.schemaName, auth.claims.sessionId, Number(auth.claims.sub));
    // A Keycloak realm's session has a row here only once it was ended through the portal.
    if (auth.claims.realmSessionId && (await sessions.find(db.forSchema(company.schemaName), auth.claims.realmSessionId))?.revoked) throw new Unauthenticated(SESSION_ENDED);
    const user = await users.find(db.forSchema(company.schemaName), Number(auth.claims.sub));
    if (!user) throw new Unauthenticated();
    const current: AuthContext = { ...auth, claims: { ...auth.claims, role: user.roleName, username: user.username, fullName: user.fullName } };
    res.locals.auth = current;
    res.locals.storedUser = user;
  };
  return [authenticate(deps.tokens, storedCaller)];
}

/** The stored record of the signed-in firm user (null for platform administrators). */
export const storedUserOf = (res: Response): User | null => (res.locals.storedUser as User | undefined) ?? null;
