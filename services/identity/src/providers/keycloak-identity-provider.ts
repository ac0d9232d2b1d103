import { NetworkError } from '@keycloak/keycloak-admin-client';
import type RoleRepresentation from '@keycloak/keycloak-admin-client/lib/defs/roleRepresentation.js';
import type UserRepresentation from '@keycloak/keycloak-admin-client/lib/defs/userRepresentation.js';
import { keycloakClaimsMapper } from '@ledgerline/kit/auth/keycloak-claims.ts';
import type { IssuerTrust } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { Unauthenticated } from '@ledgerline/kit/errors.ts';
import { SecondFactorSetupRequired, type IdentityProvider, type ImportedUser, type ProviderUser, type RealmSession, type SecondFactorRequirement } from './identity-provider.ts';
import { importedCredentials } from './keycloak-imported-credentials.ts';
import { KeycloakAdminSession } from './keycloak-admin-session.ts';
import { AccountNotSetUp, KeycloakDirectGrant, PORTAL_CLIENT_ID } from './keycloak-direct-grant.ts';
import {
  CONFIGURE_TOTP,
  PORTAL_USERNAME_ATTRIBUTE,
  PORTAL_USER_ID_ATTRIBUTE,
  SECOND_FACTOR_CREDENTIALS,
  isKeycloakRole,
  otpCredential,
  withSetupRequirement,
  portalClaimMappers,
  portalClientSettings,
  portalUserProfile,
  realmSettings,
} from './keycloak-realm-settings.ts';

export interface KeycloakIdentityProviderOptions {
  /**
   * Keycloak's base URL as its tokens name it: realm issuers are `<url>/realms/<realm>`,
   * so this must be the address Keycloak calls itself (its `hostname`, if one is set).
   */
  url: string;
  /** An administrator of the master realm. */
  adminUsername: string;
  adminPassword: string;
  /** Realm of a tenant = prefix + the tenant's short name. */
  realmPrefix?: string;
  /** Keycloak as browsers reach it, for links to the account console (default: url). */
  publicUrl?: string;
  /** Lifetime of tenant users' access tokens; the realm's default (5 minutes) when unset. */
  accessTokenLifespanSeconds?: number;
  /** Limit for each request to Keycloak (default 10 s); a slower answer counts as an outage. */
  requestTimeoutMs?: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** Users moved per round when a role is renamed. */
const ROLE_MOVE_BATCH = 100;
/** Realm users read per call when the firm's policy is applied to all of them. */
const USER_PAGE = 200;

export const ACCOUNT_NOT_SET_UP_MESSAGE = 'Your account is not fully set up. Please sign in to your Keycloak account to finish it, then sign in here again.';

/**
 * One Keycloak realm per tenant holds its users' credentials and role grants; the portal's
 * tables stay the source of truth and this provider mirrors them into the realm. Tokens
 * are the realm's own (RS256, verified through the realm's JWKS); they carry the portal
 * user id in `portal_user_id`, which the claims mapper turns into `sub`.
 */
export class KeycloakIdentityProvider implements IdentityProvider {
  readonly kind = 'keycloak' as const;
  readonly #url: string;
  readonly #publicUrl: string;
  readonly #realmPrefix: string;
  readonly #accessTokenLifespanSeconds: number | undefined;
  readonly #logger: Pick<Logger, 'info' | 'warn'> | undefined;
  readonly #admin: KeycloakAdminSession;
  readonly #grants: KeycloakDirectGrant;

  constructor(options: KeycloakIdentityProviderOptions) {
    this.#url = options.url.replace(/\/+$/, '');
    this.#publicUrl = (options.publicUrl ?? options.url).replace(/\/+$/, '');
    this.#realmPrefix = options.realmPrefix ?? 'portal-';
    this.#accessTokenLifespanSeconds = options.accessTokenLifespanSeconds;
    this.#logger = options.logger;
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#admin = new KeycloakAdminSession({ url: this.#url, username: options.adminUsername, password: options.adminPassword, requestTimeoutMs });
    this.#grants = new KeycloakDirectGrant({
      url: this.#url,
      clientSecretOf: (realm) => this.#clientSecret(realm),
      requestTimeoutMs,
      logger: options.logger,
    });
  }

  /** Creates the realm or brings an existing one (also a retired one) back in line. */
  async provisionTenant(tenant: string, roles: readonly string[]): Promise<boolean> {
    const realm = this.#realm(tenant);
    const settings = realmSettings(this.#accessTokenLifespanSeconds);
    const existing = await this.#admin.call((a) => a.realms.findOne({ realm }));
    if (existing) await this.#admin.call((a) => a.realms.update({ realm }, settings));
    else await this.#admin.call((a) => a.realms.create({ realm, ...settings }));
    const profile = await this.#admin.call((a) => a.users.getProfile({ realm }));
    await this.#admin.call((a) => a.users.updateProfile({ realm, ...portalUserProfile(profile) }));
    await this.#reconcileClient(realm);
    await this.#reconcileRoles(realm, roles);
    this.#grants.forget(realm); // the realm may be new, with a new client secret
    this.#logger?.info({ realm, created: !existing }, 'Keycloak realm provisioned');
    return !existing;
  }

  async discardTenant(tenant: string): Promise<void> {
    const realm = this.#realm(tenant);
    this.#grants.forget(realm);
    await this.#admin.call((a) => a.realms.del({ realm }, { catchNotFound: true }));
  }

  /** Disables the realm: no logins, no new tokens; users and roles stay for a later reactivation. */
  async retireTenant(tenant: string): Promise<void> {
    const realm = this.#realm(tenant);
    this.#grants.forget(realm);
    if (!(await this.#admin.call((a) => a.realms.findOne({ realm })))) return;
    await this.#admin.call((a) => a.realms.update({ realm }, { enabled: false }));
    this.#logger?.info({ realm }, 'Keycloak realm disabled');
  }

  async upsertRole(tenant: string, role: string): Promise<void> {
    await this.#ensureRole(this.#realm(tenant), role);
  }

  /**
   * A new role, its users moved over, the old one deleted, rather than renaming in place:
   * every step can be repeated, so a rename cut short by an outage completes when retried,
   * also when the new name already exists.
   */
  async renameRole(tenant: string, from: string, to: string): Promise<void> {
    if (from === to) return;
    const realm = this.#realm(tenant);
    const target = await this.#ensureRole(realm, to);
    const source = await this.#admin.call((a) => a.roles.findOneByName({ realm, name: from }));
    if (!source) return;
    for (;;) {
      // Always the first page: users moved in the previous round no longer have the role.
      const users = await this.#admin.call((a) => a.roles.findUsersWithRole({ realm, name: from, first: 0, max: ROLE_MOVE_BATCH, briefRepresentation: true }));
      if (!users?.length) break;
      for (const user of users) {
        await this.#admin.call((a) => a.users.addRealmRoleMappings({ realm, id: user.id!, roles: [mappingOf(target)] }));
        await this.#admin.call((a) => a.users.delRealmRoleMappings({ realm, id: user.id!, roles: [mappingOf(source)] }));
      }
    }
    await this.#admin.call((a) => a.roles.delByName({ realm, name: from }, { catchNotFound: true }));
  }

  async deleteRole(tenant: string, role: string): Promise<void> {
    await this.#admin.call((a) => a.roles.delByName({ realm: this.#realm(tenant), name: role }, { catchNotFound: true }));
  }

  async upsertUser(tenant: string, user: ProviderUser): Promise<void> {
    const realm = this.#realm(tenant);
    const representation = userRepresentation(user);
    const credential = user.password === undefined ? undefined : { type: 'password', value: user.password, temporary: false };
    const existing = await this.#findUser(realm, user);
    if (user.secondFactorRequired !== undefined) representation.requiredActions = withSetupRequirement(existing, user.secondFactorRequired);
    let id: string;
    if (existing?.id) {
      id = existing.id;
      await this.#admin.call((a) => a.users.update({ realm, id }, representation));
      if (credential) await this.#admin.call((a) => a.users.resetPassword({ realm, id, credential }));
    } else {
      // Without a password (an invited user) the realm user has no credential: no direct grant succeeds until the invitation sets one.
      ({ id } = await this.#admin.call((a) => a.users.create({ realm, ...representation, ...(credential ? { credentials: [credential] } : {}) })));
    }
    // A changed role ends the user's sessions: no refresh token carries the old grant on.
    // (Their access tokens still verify until they expire, but every service decides from
    // the stored user, so those carry the new role already.)
    if (await this.#grantOnly(realm, id, user.role)) await this.#admin.call((a) => a.users.logout({ realm, id }));
  }

  async importUser(tenant: string, user: ImportedUser): Promise<boolean> {
    const realm = this.#realm(tenant);
    const credentials = importedCredentials(user);
    const existing = await this.#findUser(realm, user);
    let id: string;
    const kept: string[] = [];
    if (existing?.id) {
      id = existing.id;
      // The archive's credentials replace the realm's of the same kind (an import tried again);
      // a user whose archive has none keeps what the realm holds.
      for (const c of await this.#admin.call((a) => a.users.getCredentials({ realm, id }))) {
        if (credentials.some((n) => n.type === c.type)) await this.#admin.call((a) => a.users.deleteCredential({ realm, id, credentialId: c.id! }));
        else kept.push(c.type!);
      }
      await this.#admin.call((a) => a.users.update({ realm, id }, { ...userRepresentation(user), ...(credentials.length ? { credentials } : {}) }));
    } else {
      ({ id } = await this.#admin.call((a) => a.users.create({ realm, ...userRepresentation(user), credentials })));
    }
    await this.#grantOnly(realm, id, user.role);
    return [...kept, ...credentials.map((c) => c.type)].includes('password');
  }

  /** Deleting the realm user ends their sessions with it. */
  async deleteUser(tenant: string, username: string): Promise<void> {
    const realm = this.#realm(tenant);
    const users = await this.#admin.call((a) => a.users.find({ realm, username, exact: true }));
    for (const user of users) await this.#admin.call((a) => a.users.del({ realm, id: user.id! }, { catchNotFound: true }));
  }

  /**
   * The direct grant. A required action pending after the right password is the realm asking
   * for an authenticator (the firm's policy): SecondFactorSetupRequired, which the portal's
   * form answers with its setup step; any other action is Keycloak's own pages' to complete.
   */
  async login(tenant: string, username: string, password: string, otp?: string): Promise<string | null> {
    const realm = this.#realm(tenant);
    try {
      return await this.#grants.login(realm, username, password, otp);
    } catch (e) {
      if (!(e instanceof AccountNotSetUp)) throw e;
      const [user] = await this.#admin.call((a) => a.users.find({ realm, username, exact: true }));
      if (user?.requiredActions?.includes(CONFIGURE_TOTP)) throw new SecondFactorSetupRequired();
      throw new Unauthenticated(ACCOUNT_NOT_SET_UP_MESSAGE);
    }
  }

  /**
   * The policy as the realm's required action: CONFIGURE_TOTP on the listed users who are
   * required a factor and have no authenticator, off the others. Keycloak's own sign-in pages
   * (account console) then walk them through the setup too, and the direct grant refuses them
   * until it is done ("Account is not fully set up"). One user is looked up directly; more, by
   * reading the realm's users page by page.
   */
  async requireSecondFactor(tenant: string, users: readonly SecondFactorRequirement[]): Promise<void> {
    const realm = this.#realm(tenant);
    if (users.length === 1) {
      const found = await this.#findUser(realm, users[0]!);
      if (found) await this.#applySetupRequirement(realm, found, users[0]!.required);
      return;
    }
    const required = new Map(users.map((u) => [String(u.id), u.required]));
    for (let first = 0; ; first += USER_PAGE) {
      const page = await this.#admin.call((a) => a.users.find({ realm, first, max: USER_PAGE, briefRepresentation: false }));
      for (const found of page) {
        const wanted = required.get(found.attributes?.[PORTAL_USER_ID_ATTRIBUTE]?.[0] ?? '');
        if (wanted !== undefined) await this.#applySetupRequirement(realm, found, wanted);
      }
      if (page.length < USER_PAGE) break;
    }
  }

  /** The authenticator becomes the user's OTP credential (its secret as the portal holds it, base32); the setup requirement is lifted. */
  async addAuthenticator(tenant: string, username: string, secret: string): Promise<void> {
    const realm = this.#realm(tenant);
    const [found] = await this.#admin.call((a) => a.users.find({ realm, username, exact: true }));
    if (!found?.id) throw new Unauthenticated('This account no longer exists.');
    // An update with credentials adds them (Keycloak's admin API has no other way to add an OTP credential).
    await this.#admin.call((a) => a.users.update({ realm, id: found.id! }, {
      ...found, credentials: [otpCredential(secret)], requiredActions: (found.requiredActions ?? []).filter((r) => r !== CONFIGURE_TOTP),
    }));
  }

  /** Every second-factor credential (OTP, WebAuthn, recovery codes) goes, the setup requirement follows the policy, and the user's realm sessions end. */
  async resetSecondFactors(tenant: string, user: SecondFactorRequirement): Promise<void> {
    const realm = this.#realm(tenant);
    const found = await this.#findUser(realm, user);
    if (!found?.id) return;
    const id = found.id;
    const credentials = await this.#admin.call((a) => a.users.getCredentials({ realm, id }));
    for (const c of credentials) {
      if (c.id && SECOND_FACTOR_CREDENTIALS.includes(c.type ?? '')) await this.#admin.call((a) => a.users.deleteCredential({ realm, id, credentialId: c.id! }));
    }
    await this.#applySetupRequirement(realm, { ...found, totp: false }, user.required);
    await this.#admin.call((a) => a.users.logout({ realm, id }));
  }

  async realmSessions(tenant: string, user: Pick<SecondFactorRequirement, 'id' | 'username'>): Promise<RealmSession[]> {
    const realm = this.#realm(tenant);
    const found = await this.#findUser(realm, user);
    if (!found?.id) return [];
    const sessions = await this.#admin.call((a) => a.users.listSessions({ realm, id: found.id! }));
    return sessions.filter((s) => s.id).map((s) => ({
      id: s.id!, address: s.ipAddress ?? null,
      startedAt: new Date(s.start ?? Date.now()).toISOString(), lastSeenAt: new Date(s.lastAccess ?? s.start ?? Date.now()).toISOString(),
    }));
  }

  /** Keycloak ends the realm sessions (no refresh token works after); the portal refuses their access tokens by `sid`. */
  async endRealmSessions(tenant: string, user: Pick<SecondFactorRequirement, 'id' | 'username'>, sessionId?: string): Promise<string[]> {
    const live = (await this.realmSessions(tenant, user)).map((s) => s.id).filter((id) => sessionId === undefined || id === sessionId);
    const realm = this.#realm(tenant);
    for (const id of live) await this.#admin.call((a) => a.realms.deleteSession({ realm, session: id, isOffline: false }));
    return live;
  }

  async usersWithAuthenticator(tenant: string): Promise<Set<number>> {
    const realm = this.#realm(tenant);
    const ids = new Set<number>();
    for (let first = 0; ; first += USER_PAGE) {
      const page = await this.#admin.call((a) => a.users.find({ realm, first, max: USER_PAGE, briefRepresentation: false }));
      for (const u of page) {
        const portalId = Number(u.attributes?.[PORTAL_USER_ID_ATTRIBUTE]?.[0]);
        if (u.totp && Number.isInteger(portalId)) ids.add(portalId);
      }
      if (page.length < USER_PAGE) break;
    }
    return ids;
  }

  /** The realm's direct-grant flow asks for a code from users with an OTP credential ("Conditional OTP"). */
  async asksForOtp(tenant: string, username: string): Promise<boolean> {
    const users = await this.#admin.call((a) => a.users.find({ realm: this.#realm(tenant), username, exact: true }));
    return users.some((u) => u.totp === true);
  }

  /** The realm's account console: authenticator (OTP), passkeys (WebAuthn) and sessions, as the realm allows. */
  accountConsoleUrl(tenant: string): string {
    return `${this.#publicUrl}/realms/${encodeURIComponent(this.#realm(tenant))}/account`;
  }

  trustFor(tenant: string): IssuerTrust {
    const issuer = `${this.#url}/realms/${this.#realm(tenant)}`;
    return { issuer, jwksUrl: `${issuer}/protocol/openid-connect/certs`, mapClaims: keycloakClaimsMapper(tenant) };
  }

  /** Nothing to release: requests go through fetch's shared connection pool, which idles out by itself. */
  async close(): Promise<void> {}

  #realm(tenant: string): string {
    return `${this.#realmPrefix}${tenant}`;
  }

  async #reconcileClient(realm: string): Promise<void> {
    const [client] = await this.#admin.call((a) => a.clients.find({ realm, clientId: PORTAL_CLIENT_ID }));
    if (!client?.id) {
      await this.#admin.call((a) => a.clients.create({ realm, ...portalClientSettings, protocolMappers: portalClaimMappers }));
      return;
    }
    const id = client.id;
    await this.#admin.call((a) => a.clients.update({ realm, id }, { ...client, ...portalClientSettings }));
    const existing = await this.#admin.call((a) => a.clients.listProtocolMappers({ realm, id }));
    for (const wanted of portalClaimMappers) {
      const mapperId = existing.find((m) => m.name === wanted.name)?.id;
      if (mapperId) await this.#admin.call((a) => a.clients.updateProtocolMapper({ realm, id, mapperId }, { ...wanted, id: mapperId }));
      else await this.#admin.call((a) => a.clients.addProtocolMapper({ realm, id }, wanted));
    }
  }

  /** The realm's roles become exactly the tenant's (Keycloak's own roles aside). */
  async #reconcileRoles(realm: string, roles: readonly string[]): Promise<void> {
    const existing = await this.#admin.call((a) => a.roles.find({ realm }));
    const names = new Set(existing.map((r) => r.name));
    for (const role of roles) if (!names.has(role)) await this.#ensureRole(realm, role);
    for (const role of existing) {
      if (role.name && !roles.includes(role.name) && !isKeycloakRole(realm, role.name)) {
        await this.#admin.call((a) => a.roles.delByName({ realm, name: role.name! }, { catchNotFound: true }));
      }
    }
  }

  async #ensureRole(realm: string, name: string): Promise<RoleRepresentation> {
    const found = await this.#admin.call((a) => a.roles.findOneByName({ realm, name }));
    if (found) return found;
    try {
      await this.#admin.call((a) => a.roles.create({ realm, name }));
    } catch (e) {
      // Created meanwhile by a concurrent call: the role exists, which is all we need.
      if (!(e instanceof NetworkError && e.response.status === 409)) throw e;
    }
    const created = await this.#admin.call((a) => a.roles.findOneByName({ realm, name }));
    if (!created) throw new Error(`Keycloak role ${name} in realm ${realm} vanished after it was created`);
    return created;
  }

  /**
   * By portal id first, so a renamed portal user keeps their Keycloak account; then by
   * username, which also adopts an account left over from an earlier portal user.
   */
  async #findUser(realm: string, user: Pick<ProviderUser, 'id' | 'username'>): Promise<UserRepresentation | undefined> {
    const portalId = String(user.id);
    const byId = await this.#admin.call((a) => a.users.find({ realm, q: `${PORTAL_USER_ID_ATTRIBUTE}:${portalId}` }));
    const match = byId.find((u) => u.attributes?.[PORTAL_USER_ID_ATTRIBUTE]?.includes(portalId));
    if (match) return match;
    const byName = await this.#admin.call((a) => a.users.find({ realm, username: user.username, exact: true }));
    return byName[0];
  }

  /** Sets or lifts CONFIGURE_TOTP where it is not as the policy wants (a full representation: Keycloak's update replaces what it is given). */
  async #applySetupRequirement(realm: string, user: UserRepresentation, required: boolean): Promise<void> {
    const requiredActions = withSetupRequirement(user, required);
    if (requiredActions.length === (user.requiredActions ?? []).length) return;
    await this.#admin.call((a) => a.users.update({ realm, id: user.id! }, { ...user, requiredActions }));
  }

  /** Exactly one portal role per user: the given one is granted, any other portal role removed; true when another was removed. */
  async #grantOnly(realm: string, id: string, role: string): Promise<boolean> {
    const target = await this.#ensureRole(realm, role);
    const current = await this.#admin.call((a) => a.users.listRealmRoleMappings({ realm, id }));
    const stale = current.filter((r) => r.name !== role && !isKeycloakRole(realm, r.name)).map(mappingOf);
    if (stale.length) await this.#admin.call((a) => a.users.delRealmRoleMappings({ realm, id, roles: stale }));
    if (!current.some((r) => r.name === role)) await this.#admin.call((a) => a.users.addRealmRoleMappings({ realm, id, roles: [mappingOf(target)] }));
    return stale.length > 0;
  }

  async #clientSecret(realm: string): Promise<string | null> {
    let clients;
    try {
      clients = await this.#admin.call((a) => a.clients.find({ realm, clientId: PORTAL_CLIENT_ID }));
    } catch (e) {
      if (e instanceof NetworkError && e.response.status === 404) return null; // no such realm
      throw e;
    }
    const id = clients[0]?.id;
    if (!id) return null;
    const credential = await this.#admin.call((a) => a.clients.getClientSecret({ realm, id }));
    return credential.value ?? null;
  }
}

/**
 * A portal user as the realm holds them. The whole full name goes into firstName (lastName
 * stays empty): Keycloak's `name` claim joins the two, so it is the portal's full name
 * exactly, with no guess at where a first name ends.
 */
function userRepresentation(user: Pick<ProviderUser, 'id' | 'username' | 'fullName'>): UserRepresentation {
  return {
    username: user.username,
    enabled: true,
    firstName: user.fullName,
    lastName: '',
    attributes: { [PORTAL_USER_ID_ATTRIBUTE]: [String(user.id)], [PORTAL_USERNAME_ATTRIBUTE]: [user.username] },
  };
}

/** Role mappings name a role by id and name. */
function mappingOf(role: RoleRepresentation): { id: string; name: string } {
  return { id: role.id!, name: role.name! };
}
