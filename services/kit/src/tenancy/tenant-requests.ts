import type { Response } from 'express';
import { accessScope, type AccessScope } from '../access/access-scope.ts';
import type { UserAccessReadModel } from '../access/user-access-read-model.ts';
import type { Database, SchemaDb } from '../db/database.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import { Invalid, NotFound } from '../errors.ts';
import { authOf, type AuthContext } from '../http/authenticate.ts';
import type { TenantRegistry } from './tenant-registry.ts';

export const TENANT_NOT_FOUND = 'Tenant not found';

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
 * For every service but identity (which owns the firms): resolves the firm a request acts
 * in (gateway header, else the token's firm) through the registry of firms, and the
 * caller's access from the user-access read model. An inactive or removed firm answers
 * like an unknown one.
 */
export function serviceTenants(db: Database, registry: TenantRegistry, access: UserAccessReadModel) {
  const byName = async (shortName: string | null | undefined): Promise<TenantHandle> => {
    if (!shortName) throw new Invalid('Select a tenant first.');
    const tenant = await registry.find(shortName);
    if (!tenant?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return { shortName, db: db.forSchema(tenantSchema(tenant.schemaName)) };
  };

  const ofAuth = async (auth: AuthContext): Promise<TenantRequest> => {
    const t = await byName(auth.tenant);
    const userAccess = auth.claims.platformAdmin ? null : await access.lookup(t.db, Number(auth.claims.sub));
    return { ...auth, ...t, scope: accessScope(auth.claims, userAccess) };
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
