/**
 * What every portal token says about its bearer, whoever issued it (the built-in issuer
 * or a tenant's Keycloak realm, mapped to this shape by the verifier).
 */
export interface PortalClaims {
  /** User id as a string (JWT `sub`). */
  sub: string;
  username: string;
  fullName: string;
  /** Role name as stored in the tenant ('Admin', 'DTA', 'CPA', 'Client' or a custom role). */
  role: string;
  /** Tenant short name; null for platform administrators. */
  tenant: string | null;
  /** True for platform administrators, who may act in any active tenant. */
  platformAdmin: boolean;
  /**
   * The sign-in this token belongs to (JWT `sid`), on tokens of the built-in issuer: a
   * session revoked in identity is refused everywhere (user-access read model).
   */
  sessionId?: string;
  /**
   * The Keycloak realm session a realm's token belongs to (its `sid`). Identity keeps no row for
   * it; once ended (sign out everywhere), it is refused everywhere like an ended built-in session.
   */
  realmSessionId?: string;
}
