import type { Response } from 'express';
import { accessScope, type AccessScope } from '../access/access-scope.ts';
import { DELETED_USER, type UserAccess, type UserAccessReadModel } from '../access/user-access-read-model.ts';
import type { Database, SchemaDb } from '../db/database.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import { Invalid, NotFound, Unauthenticated, Unavailable } from '../errors.ts';
import { authOf, type AuthContext } from '../http/authenticate.ts';
import { TENANT_HEADER } from '../service-module.ts';
import { firmTimeZone } from './tenant-events.ts';
import type { TenantRegistry } from './tenant-registry.ts';

export const TENANT_NOT_FOUND = 'Tenant not found';
export { SESSION_ENDED } from '@ledgerline/contracts/session-ended.ts';
import { SESSION_ENDED } from '@ledgerline/contracts/session-ended.ts';

/** Identity's answer about the signed-in user, as stored (GET /api/auth/me). */
export const STORED_USER_PATH = '/api/auth/me';
/** The part of that answer a read model keeps. */
export interface StoredUserAccess extends UserAccess { roleId: number }
/**
 * Identity's answer about another user of the caller's firm (service port only; the gateway
 * never routes /internal), asked with the caller's token: a StoredUserAccess, or 404.
 */
export const internalUserAccessPath = (userId: number | string): string => `/internal/users/${userId}/access`;

/**
 * How far back an answer from identity is dated: an event describes its change from just
 * before its transaction commits, so one raised up to this long before identity answered
 * may describe the same or a later state, and must still win over the answer.
 */
const ANSWER_VERSION_SLACK_MS = 10_000;

/** Where checkCaller keeps the caller it resolved, for the route's ofRequest. */
const RESOLVED = 'tenantRequest';

/** An active firm and a db handle on its schema. */
export interface TenantHandle {
  shortName: string;
  db: SchemaDb;
  /** The firm's IANA time zone: its "today", "due" and "overdue" (contracts/firm-time-zone.ts). */
  timeZone: string;
}

/** A signed-in request in a firm, with what the caller may reach there. */
export interface TenantRequest extends AuthContext, TenantHandle {
  scope: AccessScope;
}

/**
 * For every service but identity (which owns the firms and users): resolves the firm a
 * request acts in (gateway header, else the token's firm) through the registry of firms,
 * and the caller's access from the stored user (docs/api/authorization.md): the user-access
 * read model, or, for a user it does not know yet (their event is on its way, or this
 * service was deployed after they were made), identity itself, asked with the caller's
 * own token and remembered. A deleted user, or one identity does not know, is refused
 * (401) whatever the token says; an inactive or removed firm answers like an unknown one.
 */
export function serviceTenants(db: Database, registry: TenantRegistry, access: UserAccessReadModel, identityUrl: () => string) {
  const byName = async (shortName: string | null | undefined): Promise<TenantHandle> => {
    if (!shortName) throw new Invalid('Select a tenant first.');
    const tenant = await registry.find(shortName);
    if (!tenant?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return { shortName, db: db.forSchema(tenantSchema(tenant.schemaName)), timeZone: firmTimeZone(tenant) };
  };

  /** Identity's stored answer at `path` for the bearer of `token`, remembered for `userId`; null when identity knows no such user. */
  const askIdentity = async (token: string, t: TenantHandle, path: string, userId: number): Promise<UserAccess | null> => {
    let r: globalThis.Response;
    try {
      r = await fetch(`${identityUrl()}${path}`, {
        headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: t.shortName },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The identity service is unavailable. Please try again.');
    }
    if (r.status === 401 || r.status === 403 || r.status === 404) return null;
    if (!r.ok) throw new Unavailable(`The identity service answered ${r.status}. Please try again.`);
    const stored = (await r.json()) as StoredUserAccess;
    const answer: StoredUserAccess = { roleId: stored.roleId, role: stored.role, clientIds: stored.clientIds ?? [], reportTypeIds: stored.reportTypeIds ?? [] };
    await access.remember(t.db, userId, answer, new Date(Date.now() - ANSWER_VERSION_SLACK_MS).toISOString());
    return answer;
  };

  const ofAuth = async (auth: AuthContext): Promise<TenantRequest> => {
    const t = await byName(auth.tenant);
    // A signed-out session (identity's, or a Keycloak realm's): refused like a deleted user, platform administrators' too.
    const sessionId = auth.claims.sessionId ?? auth.claims.realmSessionId;
    if (sessionId && await access.sessionRevoked(t.db, sessionId)) throw new Unauthenticated(SESSION_ENDED);
    if (auth.claims.platformAdmin) return { ...auth, ...t, scope: accessScope(auth.claims, null) };
    const known = await access.lookup(t.db, Number(auth.claims.sub));
    if (known === DELETED_USER) throw new Unauthenticated();
    const sub = Number(auth.claims.sub);
    return { ...auth, ...t, scope: accessScope(auth.claims, known ?? await askIdentity(auth.token, t, STORED_USER_PATH, sub)) };
  };

  /**
   * Another firm user's stored access (whom the caller names: a participant, an assignee), from
   * the read model or, for a user it does not know yet (made a moment ago, their event still on
   * its way), from identity, asked with the caller's token and remembered. Null for a deleted
   * user or one identity does not know.
   */
  const accessOf = async (t: TenantRequest, userId: number): Promise<UserAccess | null> => {
    const known = await access.lookup(t.db, userId);
    if (known === DELETED_USER) return null;
    return known ?? askIdentity(t.token, t, internalUserAccessPath(userId), userId);
  };

  return {
    byName,
    /**
     * authenticate's check of the stored caller (kit/http/authenticate.ts) for every route of a
     * firm service, whether or not the route reads the firm: an ended session, a deleted user or
     * a retired firm is refused before the route runs. The resolution is kept for ofRequest.
     * A call naming no firm is a platform administrator's platform-level call (a firm user's
     * token always names theirs): identity announces their ended sessions to every active firm,
     * so any one firm's read model knows them.
     */
    async checkCaller(auth: AuthContext, res: Response): Promise<void> {
      if (auth.tenant) {
        res.locals[RESOLVED] = await ofAuth(auth);
        return;
      }
      const firm = auth.claims.sessionId ? (await registry.active())[0] : undefined;
      if (firm && await access.sessionRevoked(db.forSchema(tenantSchema(firm.schemaName)), auth.claims.sessionId!)) throw new Unauthenticated(SESSION_ENDED);
    },
    ofRequest(res: Response): Promise<TenantRequest> {
      const auth = authOf(res);
      const resolved = res.locals[RESOLVED] as TenantRequest | undefined;
      return resolved && resolved.token === auth.token && resolved.tenant === auth.tenant ? Promise.resolve(resolved) : ofAuth(auth);
    },
    /** The same resolution for a verified token outside an HTTP request (a socket's handshake). */
    ofAuth,
    accessOf,
  };
}

export type ServiceTenants = ReturnType<typeof serviceTenants>;
