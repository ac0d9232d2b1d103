import type { IssuerTrust } from '@ledgerline/kit/auth/token-verifier.ts';

/**
 * A tenant user as the provider needs to know it. `id` is the portal's numeric user id
 * and the key providers find a user by (a rename keeps the user's credentials).
 */
export interface ProviderUser {
  id: number;
  username: string;
  fullName: string;
  /** Role name ('Admin', 'DTA', 'CPA', 'Client' or a custom role). */
  role: string;
  /** Set on create and when it changes; omitted keeps the current password (on create: none, an invited user). */
  password?: string;
  /**
   * Whether the firm's policy asks this user for a second factor (Keycloak: the realm then
   * asks them to set up an authenticator before any sign-in); omitted leaves it as it is.
   */
  secondFactorRequired?: boolean;
}

/** Whether the firm's policy asks a user for a second factor, by the portal's user id. */
/** A sign-in session a Keycloak realm keeps. */
export interface RealmSession {
  id: string;
  address: string | null;
  startedAt: string;
  lastSeenAt: string;
}

export interface SecondFactorRequirement {
  id: number;
  username: string;
  required: boolean;
}

/**
 * Thrown by `login` for the right password of a user the provider asks to set up an
 * authenticator before they may sign in (a Keycloak realm's CONFIGURE_TOTP required action).
 */
export class SecondFactorSetupRequired extends Error {
  constructor() {
    super('The password is right, but an authenticator must be set up before signing in');
    this.name = 'SecondFactorSetupRequired';
  }
}

/**
 * A user of a moved firm with the sign-in its archive holds (docs/running/backup-restore.md,
 * "Moving a firm"): what the built-in issuer kept in the firm's tables.
 */
export interface ImportedUser extends Omit<ProviderUser, 'password'> {
  /** The built-in issuer's argon2id hash (PHC string); null when the archive has none (the firm signed in through Keycloak). */
  passwordHash: string | null;
  /** The confirmed authenticator's base32 secret (RFC 6238: SHA-1, 6 digits, 30 s), or null. */
  totpSecret: string | null;
}

/**
 * Where tenant users' credentials live and who signs their tokens: the built-in issuer
 * (embedded default) or one Keycloak realm per tenant (`KEYCLOAK_URL`). The identity
 * service keeps users, roles and access lists in its own tables either way; the provider
 * only holds credentials and role grants, and answers logins with a token.
 */
export interface IdentityProvider {
  readonly kind: 'builtin' | 'keycloak';
  /** Creates what a new tenant needs (Keycloak: realm, roles, portal client). Idempotent; true when it created the realm. */
  provisionTenant(tenant: string, roles: readonly string[]): Promise<boolean>;
  /** Removes what provisionTenant created for a firm whose import failed (Keycloak: the realm). */
  discardTenant(tenant: string): Promise<void>;
  /** Stops logins for a removed tenant; its data is preserved (spec: company record removed, data kept). */
  retireTenant(tenant: string): Promise<void>;
  upsertRole(tenant: string, role: string): Promise<void>;
  renameRole(tenant: string, from: string, to: string): Promise<void>;
  deleteRole(tenant: string, role: string): Promise<void>;
  upsertUser(tenant: string, user: ProviderUser): Promise<void>;
  deleteUser(tenant: string, username: string): Promise<void>;
  /**
   * Gives a moved firm's user, already in the firm's tables, what the provider keeps of
   * them. The built-in issuer has it all in the tables the archive filled; a realm gets the
   * user, role and the archive's credentials, and a user the realm already has (its realm
   * imported beforehand) keeps their credentials when the archive has none. True when the
   * user has a password to sign in with.
   */
  importUser(tenant: string, user: ImportedUser): Promise<boolean>;
  /**
   * A token for valid credentials; null for a wrong username or password, or (Keycloak) a
   * missing or wrong one-time code of a user who has an authenticator in the realm. Throws
   * SecondFactorSetupRequired for the right password of a user who must set one up first.
   */
  login(tenant: string, username: string, password: string, otp?: string): Promise<string | null>;
  /** Whether the provider itself asks this user for a one-time code with the password (a Keycloak realm's OTP). */
  asksForOtp(tenant: string, username: string): Promise<boolean>;
  /**
   * The firm's policy as the provider enforces it itself (Keycloak: the CONFIGURE_TOTP required
   * action on exactly the listed users who are required a factor and have no authenticator in
   * the realm). The built-in issuer: nothing, the portal's own second step decides.
   */
  requireSecondFactor(tenant: string, users: readonly SecondFactorRequirement[]): Promise<void>;
  /**
   * Keycloak: makes an authenticator the portal set up with the user (and checked with a code)
   * the user's OTP credential in the realm, which then asks for its codes; `secret` is base32.
   */
  addAuthenticator(tenant: string, username: string, secret: string): Promise<void>;
  /** Keycloak: removes the user's second factors in the realm and ends their realm sessions (an Admin's reset). */
  resetSecondFactors(tenant: string, user: SecondFactorRequirement): Promise<void>;
  /**
   * Keycloak: the user's live sessions in the realm (their tokens name them in `sid`); null
   * on the built-in issuer, whose sessions identity keeps itself.
   */
  realmSessions(tenant: string, user: Pick<SecondFactorRequirement, 'id' | 'username'>): Promise<RealmSession[] | null>;
  /** Keycloak: ends one realm session of the user, or all of them; answers the ids it ended. */
  endRealmSessions(tenant: string, user: Pick<SecondFactorRequirement, 'id' | 'username'>, sessionId?: string): Promise<string[]>;
  /** Keycloak: the portal ids of the tenant's users with an authenticator in the realm; null where the portal keeps factors. */
  usersWithAuthenticator(tenant: string): Promise<Set<number> | null>;
  /** Where a tenant's users manage their own second factors outside the portal (Keycloak's account console); null: in the portal. */
  accountConsoleUrl(tenant: string): string | null;
  /** How verifiers trust this tenant's tokens (null: the built-in issuer's trust covers it). */
  trustFor(tenant: string): IssuerTrust | null;
  close(): Promise<void>;
}
