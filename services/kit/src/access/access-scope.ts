import type { PortalClaims } from '../auth/claims.ts';
import { roleIs, ROLES } from '../auth/roles.ts';
import { Unauthenticated } from '../errors.ts';
import type { UserAccess } from './user-access-read-model.ts';

/** Which records of a firm a signed-in user reaches (DESIGN §3, docs/api/authorization.md). */
export interface AccessScope {
  /** The role the rules were applied for (platform administrators count as Admin). */
  role: string;
  /** Admin (and platform administrators): administration of the firm's data. */
  isAdmin: boolean;
  /** A Client user: their own client only, read-only documents. */
  isClient: boolean;
  /** Readable clients: every client, or these ids. */
  clients: 'all' | readonly number[];
  /** Readable report types: every one, or these ids. */
  reportTypes: 'all' | readonly number[];
}

/** What a platform administrator reaches in any firm they act in: everything, as its Admin. */
export const PLATFORM_ADMIN_SCOPE: AccessScope = Object.freeze({ role: ROLES.admin, isAdmin: true, isClient: false, clients: 'all', reportTypes: 'all' });

/**
 * Admin and platform administrators: everything. DTA: every client and report type.
 * CPA and custom roles: the clients and report types of their access lists. Client:
 * only the first client of their list; report types are not what limits them.
 * Everything follows the stored user (`access`, from the user-access read model), never
 * the token's role: a demotion applies before the old token expires, and a user with no
 * stored record (deleted, or never made) is refused whatever the token says.
 */
export function accessScope(claims: PortalClaims, access: UserAccess | null): AccessScope {
  if (claims.platformAdmin) return PLATFORM_ADMIN_SCOPE;
  if (!access) throw new Unauthenticated();
  return storedUserScope(access);
}

/** The same rules for a firm user as stored, whoever asks about them (e.g. whom a user may message). */
export function storedUserScope(access: UserAccess): AccessScope {
  const role = access.role;
  const is = (...roles: string[]) => roleIs(role, ...roles);
  if (is(ROLES.admin)) return { role, isAdmin: true, isClient: false, clients: 'all', reportTypes: 'all' };
  if (is(ROLES.dta)) return { role, isAdmin: false, isClient: false, clients: 'all', reportTypes: 'all' };
  const first = access.clientIds[0];
  if (is(ROLES.client)) return { role, isAdmin: false, isClient: true, clients: first === undefined ? [] : [first], reportTypes: 'all' };
  return { role, isAdmin: false, isClient: false, clients: access.clientIds, reportTypes: access.reportTypeIds };
}

export const canReadClient = (scope: AccessScope, clientId: number): boolean =>
  scope.clients === 'all' || scope.clients.includes(clientId);

export const canReadReportType = (scope: AccessScope, reportTypeId: number): boolean =>
  scope.reportTypes === 'all' || scope.reportTypes.includes(reportTypeId);
