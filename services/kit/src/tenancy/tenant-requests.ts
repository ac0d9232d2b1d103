import type { Response } from 'express';
import { accessScope, type AccessScope } from '../access/access-scope.ts';
import { DELETED_USER, type UserAccess, type UserAccessReadModel } from '../access/user-access-read-model.ts';
import type { Database, SchemaDb } from '../db/database.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import { Invalid, NotFound, Unauthenticated, Unavailable } from '../errors.ts';
import { authOf, type AuthContext } from '../http/authenticate.ts';
import { TENANT_HEADER } from '../service-module.ts';
import type { TenantRegistry } from './tenant-registry.ts';

export const TENANT_NOT_FOUND = 'Tenant not found';
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** Identity's answer about the signed-in user, as stored (GET /api/auth/me). */
export const STORED_USER_PATH = '/api/auth/me';
/** The part of that answer a read model keeps. */
export interface StoredUserAccess extends UserAccess { roleId: number }

/**
 * How far back an answer from identity is dated: an event describes its change from just
 * before its transaction commits, so one raised up to this long before identity answered
 * may describe the same or a later state, and must still win over the answer.
 */
const ANSWER_VERSION_SLACK_MS = 10_000;

/** An active firm and a db handle on its schema. */
export interface TenantHandle {
  shortName: string;
  db: SchemaDb;
}

/** A signed-in request in a firm, with what the caller may reach there. */
export interface TenantRequest extends AuthContext, TenantHandle {
  scope: AccessScope;
}

/**
 * For every service but identity (which owns the firms and users): resolves the firm a
 * request acts in (gateway header, else the token's firm) through the registry of firms,
 * and the caller's access from the stored user (README "Authorization"): the user-access
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
    return { shortName, db: db.forSchema(tenantSchema(tenant.schemaName)) };
  };

  const askIdentity = async (auth: AuthContext, t: TenantHandle): Promise<UserAccess | null> => {
    let r: globalThis.Response;
    try {
      r = await fetch(`${identityUrl()}${STORED_USER_PATH}`, {
        headers: { authorization: `Bearer ${auth.token}`, [TENANT_HEADER]: t.shortName },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The identity service is unavailable. Please try again.');
    }
    if (r.status === 401 || r.status === 403 || r.status === 404) return null;
    if (!r.ok) throw new Unavailable(`The identity service answered ${r.status}. Please try again.`);
    const stored = (await r.json()) as StoredUserAccess;
    const answer: StoredUserAccess = { roleId: stored.roleId, role: stored.role, clientIds: stored.clientIds ?? [], reportTypeIds: stored.reportTypeIds ?? [] };
    await access.remember(t.db, Number(auth.claims.sub), answer, new Date(Date.now() - ANSWER_VERSION_SLACK_MS).toISOString());
    return answer;
  };

  const ofAuth = async (auth: AuthContext): Promise<TenantRequest> => {
    const t = await byName(auth.tenant);
    // A signed-out session (identity's sessions): refused like a deleted user, platform administrators' too.
    if (auth.claims.sessionId && await access.sessionRevoked(t.db, auth.claims.sessionId)) throw new Unauthenticated(SESSION_ENDED);
    if (auth.claims.platformAdmin) return { ...auth, ...t, scope: accessScope(auth.claims, null) };
    const known = await access.lookup(t.db, Number(auth.claims.sub));
    if (known === DELETED_USER) throw new Unauthenticated();
    return { ...auth, ...t, scope: accessScope(auth.claims, known ?? await askIdentity(auth, t)) };
  };

  return {
    byName,
    ofRequest(res: Response): Promise<TenantRequest> {
      return ofAuth(authOf(res));
    },
    /** The same resolution for a verified token outside an HTTP request (a socket's handshake). */
    ofAuth,
  };
}

export type ServiceTenants = ReturnType<typeof serviceTenants>;
